/* The plain-C floor for the live-host benchmark: a GTK 4 window with a WebKitGTK 6.0 view and a
 * `tilecastNative` handler (with reply) in the page world that answers every message with a
 * fixed reply — no origin pinning, no decoding, no state, no chrome. Same page, same machine,
 * same run. Its one concession to the page: `config/get` gets a fixed reply offering native
 * navigation, so Studio goes on to send its catalog as it does in HostShell, and the start-up
 * end point is the same on both sides (the catalog's arrival here; HostShell draws its chrome
 * from it).
 * Usage: webkit_floor URL   (env HOSTSHELL_T0_NS: the launcher's CLOCK_REALTIME in ns)
 * Prints one JSON line: {"loadMs":…, "catalogMs":…, "rttP50Us":…, "rttP99Us":…, "rssKiB":…,
 * "rendering":…} and exits when the page's title becomes "bench:done" (round-trip page) or 500 ms
 * after the catalog came otherwise (when HostShell's bench also stops). A run that did not get
 * there (no load or no catalog in 60 s, fewer than 1001 round trips) prints why on stderr and
 * exits 1: it is no sample. With FLOOR_HOLD set it prints its line and stays open until it is
 * killed (the many-hosts benchmark measures the memory of many at once).
 * It draws as HostShell does on this machine: scripts/bench runs it with the variables
 * `hostshell bench rendering` prints (GSK_RENDERER, WEBKIT_SKIA_ENABLE_CPU_RENDERING,
 * WEBKIT_DISABLE_COMPOSITING_MODE), and
 * "rendering" reports them so the script can check that both sides match.
 * With FLOOR_RELAY set, the handler sits in an isolated world behind a page-world shim and an
 * origin-checking relay of the same shape as HostShell's (a promise per message, a CustomEvent
 * each way, the reply handed back as text): what WebKitGTK makes an origin-pinned bridge cost,
 * since it tells a handler nothing of the frame that sent a message. */
#include <gtk/gtk.h>
#include <webkit/webkit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The page-world shim and the isolated-world relay (FLOOR_RELAY). */
static const char *relay_shim =
    "(() => { 'use strict'; const pending = new Map(); let next = 0;"
    " window.addEventListener('floor-response', (event) => { let data; try { data = JSON.parse(event.detail); } catch (_) { return; }"
    "  const resolve = pending.get(data.seq); if (!resolve) return; pending.delete(data.seq); let reply;"
    "  try { reply = JSON.parse(data.reply); } catch (_) { reply = undefined; } resolve(reply); });"
    " const postMessage = (message) => new Promise((resolve) => { let text; try { text = JSON.stringify(message); } catch (_) { text = undefined; }"
    "  if (typeof text !== 'string') text = 'null'; const seq = ++next; pending.set(seq, resolve);"
    "  window.dispatchEvent(new CustomEvent('floor-request', { detail: seq + ':' + text })); });"
    " const handlers = Object.freeze({ tilecastNative: Object.freeze({ postMessage }) });"
    " Object.defineProperty(window, 'webkit', { value: Object.freeze({ messageHandlers: handlers }), configurable: false, writable: false }); })();";
static const char *relay_isolated =
    "(() => { 'use strict'; const origin = location.origin;"
    " window.addEventListener('floor-request', async (event) => { const detail = event.detail; if (typeof detail !== 'string') return;"
    "  const colon = detail.indexOf(':'); const seq = Number(detail.slice(0, colon)); if (colon < 1 || !Number.isSafeInteger(seq)) return;"
    "  let reply = '{}';"
    "  if (window.top === window && location.origin === origin) { try {"
    "    const answer = await window.webkit.messageHandlers.tilecastNative.postMessage(detail.slice(colon + 1).toWellFormed());"
    "    reply = typeof answer === 'string' ? answer : '{}'; } catch (_) { reply = '{}'; } }"
    "  window.dispatchEvent(new CustomEvent('floor-response', { detail: JSON.stringify({ seq, reply: String(reply) }) })); }); })();";
static gboolean relayed;  /* FLOOR_RELAY: replies go back as text, to the relay */

static GMainLoop *loop;
static int exit_status = 0;
static double load_ms = -1;
static double catalog_ms = -1;
static GArray *arrivals;  /* double, monotonic µs */
static gboolean roundtrip;  /* the round-trip page: judged by its round trips */

static double realtime_ms_since_t0(void) {
    const char *t0 = getenv("HOSTSHELL_T0_NS");
    struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts);
    double now = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    return t0 ? now - atof(t0) / 1e6 : now;
}
static double mono_us(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3; }

/* A numeric field ("VmRSS", "PPid") of /proc/PID/status, or 0. */
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
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* "GSK_RENDERER=… WEBKIT_SKIA_ENABLE_CPU_RENDERING=… WEBKIT_DISABLE_COMPOSITING_MODE=…" (unset ones
 * as "-"), as HostShell reports it. */
static void rendering(char *out, size_t size) {
    const char *gsk = getenv("GSK_RENDERER"), *cpu = getenv("WEBKIT_SKIA_ENABLE_CPU_RENDERING"),
               *flat = getenv("WEBKIT_DISABLE_COMPOSITING_MODE");
    snprintf(out, size, "GSK_RENDERER=%s WEBKIT_SKIA_ENABLE_CPU_RENDERING=%s WEBKIT_DISABLE_COMPOSITING_MODE=%s",
             gsk ? gsk : "-", cpu ? cpu : "-", flat ? flat : "-");
}

static void finish(void) {
    double p50 = -1, p99 = -1;
    guint n = arrivals->len;
    if (n > 1001) {  /* the last 1000 gaps: warm-up excluded */
        double *gaps = g_new(double, 1000);
        for (guint i = 0; i < 1000; i++)
            gaps[i] = g_array_index(arrivals, double, n - 1000 + i) - g_array_index(arrivals, double, n - 1001 + i);
        qsort(gaps, 1000, sizeof *gaps, cmp);
        p50 = gaps[499]; p99 = gaps[989]; g_free(gaps);
    }
    if (!getenv("FLOOR_HOLD")) g_main_loop_quit(loop);
    if (load_ms < 0 || (roundtrip && p50 < 0) || (!roundtrip && catalog_ms < 0)) {
        fprintf(stderr, "webkit_floor: %s; this run is not a sample\n",
                load_ms < 0 ? "the page did not finish loading"
                : roundtrip ? "the round-trip page did not finish 1000 round trips" : "the page never sent its catalog");
        exit_status = 1;
        return;
    }
    char settings[256]; rendering(settings, sizeof settings);
    printf("{\"loadMs\":%.1f,\"catalogMs\":%.1f,\"rttP50Us\":%.1f,\"rttP99Us\":%.1f,\"rssKiB\":%ld,\"rendering\":\"%s\"}\n", load_ms, catalog_ms, p50, p99, tree_rss(), settings);
    fflush(stdout);
}
static gboolean finished;
static gboolean quit_later(gpointer data) { (void)data; if (!finished) { finished = TRUE; finish(); } return G_SOURCE_REMOVE; }

static gboolean on_message(WebKitUserContentManager *m, JSCValue *value, WebKitScriptMessageReply *reply, gpointer data) {
    (void)m; (void)data;
    double t = mono_us(); g_array_append_val(arrivals, t);
    const char *reply_json = "{\"version\":1,\"ok\":true,\"payload\":{}}";
    if (!roundtrip) {  /* the start-up page: a few messages, so looking at their type costs nothing measurable */
        char *text = jsc_value_to_json(value, 0);
        if (text && strstr(text, "\"config/get\""))
            reply_json = "{\"version\":1,\"ok\":true,\"payload\":{\"protocolVersion\":1,\"context\":\"main\","
                         "\"capabilities\":{\"nativeNavigation\":true}}}";
        if (text && strstr(text, "\"navigation/catalog\"") && catalog_ms < 0) {
            catalog_ms = realtime_ms_since_t0();
            g_timeout_add(500, quit_later, NULL);
        }
        g_free(text);
    }
    JSCValue *answer = relayed ? jsc_value_new_string(jsc_value_get_context(value), reply_json)
                               : jsc_value_new_from_json(jsc_value_get_context(value), reply_json);
    webkit_script_message_reply_return_value(reply, answer);
    g_object_unref(answer);
    return TRUE;
}
static void on_load(WebKitWebView *v, WebKitLoadEvent event, gpointer data) {
    (void)data;
    if (event != WEBKIT_LOAD_FINISHED) return;
    load_ms = realtime_ms_since_t0();
}
static void on_title(GObject *o, GParamSpec *p, gpointer data) {
    (void)p; (void)data;
    const char *title = webkit_web_view_get_title(WEBKIT_WEB_VIEW(o));
    if (title && strncmp(title, "bench:", 6) == 0) finish();
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: webkit_floor URL\n"); return 2; }
    roundtrip = strstr(argv[1], "roundtrip") != NULL;
    gtk_init();
    loop = g_main_loop_new(NULL, FALSE);
    arrivals = g_array_new(FALSE, FALSE, sizeof(double));
    WebKitUserContentManager *ucm = webkit_user_content_manager_new();
    relayed = getenv("FLOOR_RELAY") != NULL;
    g_signal_connect(ucm, "script-message-with-reply-received::tilecastNative", G_CALLBACK(on_message), NULL);
    webkit_user_content_manager_register_script_message_handler_with_reply(ucm, "tilecastNative", relayed ? "floor-bridge" : NULL);
    if (relayed) {
        WebKitUserScript *shim = webkit_user_script_new(relay_shim, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                        WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
        WebKitUserScript *relay = webkit_user_script_new_for_world(relay_isolated, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                                   WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, "floor-bridge", NULL, NULL);
        webkit_user_content_manager_add_script(ucm, shim);
        webkit_user_content_manager_add_script(ucm, relay);
        webkit_user_script_unref(shim);
        webkit_user_script_unref(relay);
    }
    WebKitWebView *view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session",
        webkit_network_session_new_ephemeral(), "user-content-manager", ucm, NULL));
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load), NULL);
    g_signal_connect(view, "notify::title", G_CALLBACK(on_title), NULL);
    GtkWidget *window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 1280, 800);
    gtk_window_set_child(GTK_WINDOW(window), GTK_WIDGET(view));
    gtk_window_present(GTK_WINDOW(window));
    webkit_web_view_load_uri(view, argv[1]);
    g_timeout_add_seconds(60, quit_later, NULL);
    g_main_loop_run(loop);
    return exit_status;
}
