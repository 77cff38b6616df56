#pragma once
/* The simulator's controls (issue 30 item 4): the connectors their signals need. Included by
 * shim.h; static inline like the rest. */
#include <gtk/gtk.h>
#include <webkit/webkit.h>

/* A signal whose handler takes only the instance and answers a gboolean (WebKitGeolocationManager
 * "start": TRUE when the app provides positions itself). */
typedef gboolean (*CGtkBoolSignalCallback)(gpointer instance, gpointer user_data);
static inline gulong cgtk_connect_bool(gpointer instance, const char *signal, CGtkBoolSignalCallback cb,
                                       gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(cb), data, destroy, 0);
}
