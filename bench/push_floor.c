/* The plain-C floor for the push latency benchmark: a GTK 4 window with a WebKitGTK 6.0 view and an
 * owner-only Unix socket on which one connection is one push: its line is handed to the page's
 * script at once (webkit_web_view_evaluate_javascript), the script says it got it through a bare
 * script message handler, and only then "got" is written back. No HTTP, no provider token, no
 * bridge: the least a push from another process into a page's script — and the page's word back —
 * costs on this machine. `hostshell bench push` times the HostShell path the same way (its page's
 * listener logs a console line, which the sender reads on the app's event stream).
 * Usage: push_floor SOCKET   (prints "ready" on stdout once the page has loaded) */
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <gio/gunixsocketaddress.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static WebKitWebView *view;

static const char *page =
    "<!doctype html><meta charset=utf-8><title>push floor</title><body>"
    "<script>window.__got = (n) => { window.webkit.messageHandlers.done.postMessage(n); };</script>";

/* The sender waiting for its push to reach the page (one at a time). */
static GSocketConnection *waiting;

static void done(WebKitUserContentManager *manager, JSCValue *value, gpointer data) {
    (void)manager; (void)value; (void)data;
    if (!waiting) return;
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(waiting));
    g_output_stream_write_all(out, "got\n", 4, NULL, NULL, NULL);
    g_io_stream_close(G_IO_STREAM(waiting), NULL, NULL);
    g_clear_object(&waiting);
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
    char script[300];
    snprintf(script, sizeof script, "window.__got(%d)", atoi(buffer));
    g_clear_object(&waiting);
    waiting = g_object_ref(connection);
    webkit_web_view_evaluate_javascript(view, script, -1, NULL, NULL, NULL, NULL, NULL);
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
    WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager(view);
    g_signal_connect(manager, "script-message-received::done", G_CALLBACK(done), NULL);
    webkit_user_content_manager_register_script_message_handler(manager, "done", NULL);
    webkit_web_view_load_html(view, page, "http://localhost/");
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_main_loop_run(loop);
    return 0;
}
