/* The plain-C floor for the Capacitor start-up benchmark: a GTK 4 window with a WebKitGTK 6.0 view
 * that serves a Capacitor app's web directory from capacitor://localhost (a path without a file
 * extension gets /index.html, as Capacitor's iOS shell does) and registers a bare `bridge` script
 * message handler that drops every message — no runtime, no plugins, no origin pinning, no
 * profile on disk. Same bundle, same machine, same run as `hostshell capacitor`.
 * Usage: capacitor_floor WEB-DIR   (env HOSTSHELL_T0_NS: the launcher's CLOCK_REALTIME in ns)
 * The end point is the page's first contentful paint as the engine itself reports it
 * (`performance.getEntriesByType("paint")`), turned into wall-clock time with
 * `performance.timeOrigin`; HostShell's side is read the same way, from the same page, so the
 * two sides are timed by one clock and one definition. Prints one JSON line
 * {"firstRenderMs":…, "loadMs":…, "rssKiB":…, "rendering":…} and exits; a run that did not get
 * there in 60 s says why on stderr and exits 1: it is no sample. */
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static GMainLoop *loop;
static int exit_status = 1;
static double load_ms = -1;
static const char *web_dir;
static WebKitWebView *view;

static double realtime_ms_since_t0(void) {
    const char *t0 = getenv("HOSTSHELL_T0_NS");
    struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts);
    double now = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    return t0 ? now - atof(t0) / 1e6 : now;
}

static long status_field(int pid, const char *key) {
    char path[64], line[256]; long value = 0; size_t n = strlen(key);
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r"); if (!f) return 0;
    while (fgets(line, sizeof line, f)) if (strncmp(line, key, n) == 0 && line[n] == ':') value = atol(line + n + 1);
    fclose(f); return value;
}
static long tree_rss(void) {
    int self = getpid(); long total = 0; DIR *d = opendir("/proc"); struct dirent *e;
    while ((e = readdir(d))) {
        int pid = atoi(e->d_name); if (pid <= 0) continue;
        for (int p = pid, hops = 0; p > 1 && hops < 64; p = (int)status_field(p, "PPid"), hops++) if (p == self) { total += status_field(pid, "VmRSS"); break; }
    }
    closedir(d); return total;
}
static void rendering(char *out, size_t size) {
    const char *gsk = getenv("GSK_RENDERER"), *cpu = getenv("WEBKIT_SKIA_ENABLE_CPU_RENDERING"),
               *flat = getenv("WEBKIT_DISABLE_COMPOSITING_MODE");
    snprintf(out, size, "GSK_RENDERER=%s WEBKIT_SKIA_ENABLE_CPU_RENDERING=%s WEBKIT_DISABLE_COMPOSITING_MODE=%s",
             gsk ? gsk : "-", cpu ? cpu : "-", flat ? flat : "-");
}

/* capacitor://localhost/PATH → WEB-DIR/PATH, or WEB-DIR/index.html for a path without an extension. */
static void on_scheme(WebKitURISchemeRequest *request, gpointer data) {
    (void)data;
    const char *path = webkit_uri_scheme_request_get_path(request);
    if (!path || !*path || strstr(path, "..")) path = "/";
    const char *last = strrchr(path, '/');
    gboolean has_extension = last && strchr(last, '.') != NULL;
    char *file = g_build_filename(web_dir, has_extension ? path : "index.html", NULL);
    gchar *contents; gsize length; GError *error = NULL;
    if (!g_file_get_contents(file, &contents, &length, &error)) {
        webkit_uri_scheme_request_finish_error(request, error);
        g_error_free(error); g_free(file); return;
    }
    char *type = g_content_type_guess(file, (const guchar *)contents, length, NULL);
    char *mime = g_content_type_get_mime_type(type);
    if (g_str_has_suffix(file, ".js") || g_str_has_suffix(file, ".mjs")) { g_free(mime); mime = g_strdup("text/javascript"); }
    if (g_str_has_suffix(file, ".css")) { g_free(mime); mime = g_strdup("text/css"); }
    if (g_str_has_suffix(file, ".html")) { g_free(mime); mime = g_strdup("text/html"); }
    GInputStream *stream = g_memory_input_stream_new_from_data(contents, (gssize)length, g_free);
    webkit_uri_scheme_request_finish(request, stream, (gint64)length, mime);
    g_object_unref(stream); g_free(mime); g_free(type); g_free(file);
}

static void on_bridge(WebKitUserContentManager *m, JSCValue *value, gpointer data) { (void)m; (void)value; (void)data; }

static const char *first_paint_script =
    "const p = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');"
    "return p ? performance.timeOrigin + p.startTime : -1;";
static void ask_first_paint(void);
static gboolean ask_later(gpointer data) { (void)data; ask_first_paint(); return G_SOURCE_REMOVE; }
static void on_first_paint(GObject *o, GAsyncResult *r, gpointer data) {
    (void)data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_call_async_javascript_function_finish(WEBKIT_WEB_VIEW(o), r, &error);
    double epoch_ms = value ? jsc_value_to_double(value) : -1;
    if (value) g_object_unref(value);
    if (error) { fprintf(stderr, "capacitor_floor: %s\n", error->message); g_error_free(error); g_main_loop_quit(loop); return; }
    if (epoch_ms < 0) { g_timeout_add(10, ask_later, NULL); return; }  /* not painted yet */
    const char *t0 = getenv("HOSTSHELL_T0_NS");
    double first = t0 ? epoch_ms - atof(t0) / 1e6 : epoch_ms;
    char settings[256]; rendering(settings, sizeof settings);
    printf("{\"firstRenderMs\":%.1f,\"loadMs\":%.1f,\"rssKiB\":%ld,\"rendering\":\"%s\"}\n", first, load_ms, tree_rss(), settings);
    fflush(stdout);
    exit_status = 0;
    g_main_loop_quit(loop);
}
static void ask_first_paint(void) {
    webkit_web_view_call_async_javascript_function(view, first_paint_script, -1, NULL, NULL, NULL, NULL, on_first_paint, NULL);
}
static void on_load(WebKitWebView *v, WebKitLoadEvent event, gpointer data) {
    (void)v; (void)data;
    if (event != WEBKIT_LOAD_FINISHED || load_ms >= 0) return;
    load_ms = realtime_ms_since_t0();
    ask_first_paint();
}
static gboolean give_up(gpointer data) {
    (void)data;
    fprintf(stderr, "capacitor_floor: %s within 60 s; this run is not a sample\n",
            load_ms < 0 ? "the page did not finish loading" : "the page never painted");
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: capacitor_floor WEB-DIR\n"); return 2; }
    web_dir = argv[1];
    gtk_init();
    loop = g_main_loop_new(NULL, FALSE);
    WebKitWebContext *context = webkit_web_context_get_default();
    webkit_web_context_register_uri_scheme(context, "capacitor", on_scheme, NULL, NULL);
    webkit_security_manager_register_uri_scheme_as_cors_enabled(webkit_web_context_get_security_manager(context), "capacitor");
    WebKitUserContentManager *ucm = webkit_user_content_manager_new();
    g_signal_connect(ucm, "script-message-received::bridge", G_CALLBACK(on_bridge), NULL);
    webkit_user_content_manager_register_script_message_handler(ucm, "bridge", NULL);
    view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session",
        webkit_network_session_new_ephemeral(), "user-content-manager", ucm, "web-context", context, NULL));
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load), NULL);
    GtkWidget *window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 1280, 800);
    gtk_window_set_child(GTK_WINDOW(window), GTK_WIDGET(view));
    gtk_window_present(GTK_WINDOW(window));
    webkit_web_view_load_uri(view, "capacitor://localhost/");
    g_timeout_add_seconds(60, give_up, NULL);
    g_main_loop_run(loop);
    return exit_status;
}
