/* The plain-C floor for the push latency benchmark: a GTK 4 window with a WebKitGTK 6.0 view whose
 * page keeps the wall-clock time each push reaches its script, and an owner-only Unix socket on
 * which one line is one push — the line handed to the page at once with
 * webkit_web_view_evaluate_javascript, then "ok" answered. No HTTP, no provider token, no bridge:
 * the least a push from another process into a page costs on this machine.
 * A line "report" answers the page's arrival times (ms since the epoch, JSON array) instead.
 * Usage: push_floor SOCKET   (prints "ready" on stdout once the page has loaded) */
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <gio/gunixsocketaddress.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static WebKitWebView *view;

static const char *page =
    "<!doctype html><meta charset=utf-8><title>push floor</title><body>"
    "<script>window.__at = []; window.__got = (n) => { window.__at.push(performance.timeOrigin + performance.now()); };</script>";

typedef struct { GSocketConnection *connection; char line[256]; } Client;

static void reported(GObject *source, GAsyncResult *result, gpointer data) {
    Client *client = data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_evaluate_javascript_finish(WEBKIT_WEB_VIEW(source), result, &error);
    char *text = value ? jsc_value_to_string(value) : g_strdup("[]");
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(client->connection));
    g_output_stream_write_all(out, text, strlen(text), NULL, NULL, NULL);
    g_output_stream_write_all(out, "\n", 1, NULL, NULL, NULL);
    g_free(text);
    if (value) g_object_unref(value);
    g_clear_error(&error);
    g_io_stream_close(G_IO_STREAM(client->connection), NULL, NULL);
    g_object_unref(client->connection);
    g_free(client);
}

static gboolean incoming(GSocketService *service, GSocketConnection *connection, GObject *source, gpointer data) {
    (void)service; (void)source; (void)data;
    GInputStream *in = g_io_stream_get_input_stream(G_IO_STREAM(connection));
    char buffer[256]; gsize used = 0;
    while (used < sizeof buffer - 1) {  /* one short line from a local sender */
        gssize n = g_input_stream_read(in, buffer + used, 1, NULL, NULL);
        if (n <= 0 || buffer[used] == '\n') break;
        used += n;
    }
    buffer[used] = 0;
    if (strcmp(buffer, "report") == 0) {
        Client *client = g_new0(Client, 1);
        client->connection = g_object_ref(connection);
        webkit_web_view_evaluate_javascript(view, "JSON.stringify(window.__at)", -1, NULL, NULL, NULL, reported, client);
        return TRUE;
    }
    char script[300];
    snprintf(script, sizeof script, "window.__got(%s)", buffer);
    webkit_web_view_evaluate_javascript(view, script, -1, NULL, NULL, NULL, NULL, NULL);
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(connection));
    g_output_stream_write_all(out, "ok\n", 3, NULL, NULL, NULL);
    return TRUE;
}

static void load_changed(WebKitWebView *v, WebKitLoadEvent event, gpointer data) {
    (void)v; (void)data;
    if (event == WEBKIT_LOAD_FINISHED) { printf("ready\n"); fflush(stdout); }
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: push_floor SOCKET\n"); return 2; }
    gtk_init();
    GtkWidget *window = gtk_window_new();
    view = WEBKIT_WEB_VIEW(webkit_web_view_new());
    gtk_window_set_child(GTK_WINDOW(window), GTK_WIDGET(view));
    gtk_window_set_default_size(GTK_WINDOW(window), 390, 844);
    gtk_window_present(GTK_WINDOW(window));
    unlink(argv[1]);
    GSocketService *service = g_socket_service_new();
    GSocketAddress *address = g_unix_socket_address_new(argv[1]);
    mode_t previous = umask(0177);
    GError *error = NULL;
    if (!g_socket_listener_add_address(G_SOCKET_LISTENER(service), address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, NULL, NULL, &error)) {
        fprintf(stderr, "push_floor: cannot listen on %s: %s\n", argv[1], error->message);
        return 1;
    }
    umask(previous);
    g_signal_connect(service, "incoming", G_CALLBACK(incoming), NULL);
    g_signal_connect(view, "load-changed", G_CALLBACK(load_changed), NULL);
    webkit_web_view_load_html(view, page, "http://localhost/");
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_main_loop_run(loop);
    return 0;
}
