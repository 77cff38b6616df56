#pragma once
/* HostShell's C shim: only what Swift cannot call itself — macros (g_signal_connect),
 * variadic constructors (g_object_new) and GObject casts. Everything is static inline: a .c file
 * in a system-library target would be ignored. One typed connector per callback shape, so Swift
 * type-checks every callback. */
#include <gtk/gtk.h>
#include <adwaita.h>
#include <webkit/webkit.h>
#include <jsc/jsc.h>
#include <libsoup/soup.h>
#include <glib-unix.h>
#include <gio/gunixsocketaddress.h>
#include <libsecret/secret.h>
#include <zbar.h>
#include <sys/socket.h>
#include <netinet/in.h>

typedef void (*CGtkVoidCallback)(gpointer instance, gpointer user_data);
typedef void (*CGtkLoadChangedCallback)(WebKitWebView *view, WebKitLoadEvent event, gpointer user_data);
typedef gboolean (*CGtkReplyMessageCallback)(WebKitUserContentManager *manager, JSCValue *value,
                                             WebKitScriptMessageReply *reply, gpointer user_data);
typedef void (*CGtkProcessTerminatedCallback)(WebKitWebView *view, WebKitWebProcessTerminationReason reason,
                                              gpointer user_data);
typedef gboolean (*CGtkDecidePolicyCallback)(WebKitWebView *view, WebKitPolicyDecision *decision,
                                             WebKitPolicyDecisionType type, gpointer user_data);
typedef gboolean (*CGtkLoadFailedCallback)(WebKitWebView *view, WebKitLoadEvent event, gchar *uri, GError *error,
                                           gpointer user_data);
typedef void (*CGtkNotifyCallback)(GObject *object, GParamSpec *pspec, gpointer user_data);
typedef gboolean (*CGtkScriptDialogCallback)(WebKitWebView *view, WebKitScriptDialog *dialog, gpointer user_data);
typedef gboolean (*CGtkIncomingCallback)(GSocketService *service, GSocketConnection *connection, GObject *source,
                                         gpointer user_data);
typedef gboolean (*CGtkCloseRequestCallback)(GtkWindow *window, gpointer user_data);
typedef void (*CGtkRowActivatedCallback)(GtkListBox *list, GtkListBoxRow *row, gpointer user_data);
typedef void (*CGtkResponseCallback)(GtkNativeDialog *dialog, int response, gpointer user_data);
typedef void (*CGtkAlertResponseCallback)(AdwMessageDialog *dialog, const char *response, gpointer user_data);
typedef gboolean (*CGtkChildPositionCallback)(GtkOverlay *overlay, GtkWidget *widget, GdkRectangle *allocation,
                                              gpointer user_data);
typedef void (*CGtkPressedCallback)(GtkGestureClick *gesture, int n_press, double x, double y, gpointer user_data);
typedef void (*CGtkServerCallback)(SoupServer *server, SoupServerMessage *message, const char *path,
                                   GHashTable *query, gpointer user_data);
typedef void (*CGtkAutomationStartedCallback)(WebKitWebContext *context, WebKitAutomationSession *session,
                                              gpointer user_data);
typedef void (*CGtkPointerArgCallback)(gpointer instance, gpointer argument, gpointer user_data);
typedef gboolean (*CGtkDecideDestinationCallback)(WebKitDownload *download, const char *suggested, gpointer user_data);
typedef GtkWidget *(*CGtkCreateCallback)(WebKitWebView *view, WebKitNavigationAction *action, gpointer user_data);
typedef void (*CGtkActivateCallback)(GSimpleAction *action, GVariant *parameter, gpointer user_data);
typedef WebKitWebView *(*CGtkCreateWebViewCallback)(WebKitAutomationSession *session, gpointer user_data);

/* g_signal_connect_data is reached through a macro in Swift's view; these fix the signal name and
 * the callback type together. user_data is a retained Swift box released by `destroy`. */
static inline gulong cgtk_connect_void(gpointer instance, const char *signal, CGtkVoidCallback cb,
                                       gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(cb), data, destroy, 0);
}
/* Signals whose one argument is an object or a GError ("download-started", a download's "failed"). */
static inline gulong cgtk_connect_pointer_arg(gpointer instance, const char *signal, CGtkPointerArgCallback cb,
                                              gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_decide_destination(WebKitDownload *download, CGtkDecideDestinationCallback cb,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(download, "decide-destination", G_CALLBACK(cb), data, destroy, 0);
}
/* A web view's "create" (window.open): the new view, or NULL for none. */
static inline gulong cgtk_connect_create(WebKitWebView *view, CGtkCreateCallback cb, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "create", G_CALLBACK(cb), data, destroy, 0);
}
/* A GAction's "activate" passes its parameter before user_data. */
static inline gulong cgtk_connect_activate(GSimpleAction *action, CGtkActivateCallback cb, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(action, "activate", G_CALLBACK(cb), data, destroy, 0);
}
/* "notify::PROPERTY" passes the GParamSpec before user_data: its own shape. */
static inline gulong cgtk_connect_notify(gpointer instance, const char *property, CGtkNotifyCallback cb,
                                         gpointer data, GClosureNotify destroy) {
    char detailed[160];
    g_snprintf(detailed, sizeof detailed, "notify::%s", property);
    return g_signal_connect_data(instance, detailed, G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_load_changed(WebKitWebView *view, CGtkLoadChangedCallback cb,
                                               gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "load-changed", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_load_failed(WebKitWebView *view, CGtkLoadFailedCallback cb,
                                              gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "load-failed", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_process_terminated(WebKitWebView *view, CGtkProcessTerminatedCallback cb,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "web-process-terminated", G_CALLBACK(cb), data, destroy, 0);
}
/* GMemoryMonitor "low-memory-warning": the system is short of memory. */
typedef void (*CGtkLowMemoryCallback)(GMemoryMonitor *monitor, GMemoryMonitorWarningLevel level, gpointer data);
static inline gulong cgtk_connect_low_memory(GMemoryMonitor *monitor, CGtkLowMemoryCallback cb,
                                             gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(monitor, "low-memory-warning", G_CALLBACK(cb), data, destroy, 0);
}
/* WebKitWebView "context-menu" (6.0: no event argument); TRUE keeps the menu from showing. */
typedef gboolean (*CGtkContextMenuCallback)(WebKitWebView *view, WebKitContextMenu *menu, WebKitHitTestResult *hit, gpointer data);
static inline gulong cgtk_connect_context_menu(WebKitWebView *view, CGtkContextMenuCallback cb,
                                               gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "context-menu", G_CALLBACK(cb), data, destroy, 0);
}
/* GtkEventControllerLegacy "event"; TRUE stops the event. */
typedef gboolean (*CGtkLegacyEventCallback)(GtkEventControllerLegacy *controller, GdkEvent *event, gpointer data);
static inline gulong cgtk_connect_legacy_event(GtkEventController *controller, CGtkLegacyEventCallback cb,
                                               gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(controller, "event", G_CALLBACK(cb), data, destroy, 0);
}
/* GtkEventControllerMotion "motion". */
typedef void (*CGtkMotionCallback)(GtkEventControllerMotion *controller, double x, double y, gpointer data);
static inline gulong cgtk_connect_motion(GtkEventController *controller, CGtkMotionCallback cb,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(controller, "motion", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_decide_policy(WebKitWebView *view, CGtkDecidePolicyCallback cb,
                                                gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "decide-policy", G_CALLBACK(cb), data, destroy, 0);
}
/* WebKitWebView "permission-request": TRUE when the handler keeps the request to answer later. */
typedef gboolean (*CGtkPermissionRequestCallback)(WebKitWebView *view, WebKitPermissionRequest *request, gpointer data);
static inline gulong cgtk_connect_permission_request(WebKitWebView *view, CGtkPermissionRequestCallback cb,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "permission-request", G_CALLBACK(cb), data, destroy, 0);
}
/* WebKitWebView "query-permission-state" (navigator.permissions.query): TRUE when answered. */
typedef gboolean (*CGtkPermissionQueryCallback)(WebKitWebView *view, WebKitPermissionStateQuery *query, gpointer data);
static inline gulong cgtk_connect_permission_query(WebKitWebView *view, CGtkPermissionQueryCallback cb,
                                                   gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "query-permission-state", G_CALLBACK(cb), data, destroy, 0);
}
/* What a permission request asks for, as bits (Swift names them): WebKit's request kinds are
 * GObject types told apart by macro. 0 for a kind HostShell does not know. */
enum {
    CGTK_PERMISSION_CAMERA = 1 << 0, CGTK_PERMISSION_MICROPHONE = 1 << 1, CGTK_PERMISSION_SCREEN = 1 << 2,
    CGTK_PERMISSION_GEOLOCATION = 1 << 3, CGTK_PERMISSION_NOTIFICATIONS = 1 << 4, CGTK_PERMISSION_CLIPBOARD = 1 << 5,
    CGTK_PERMISSION_POINTER_LOCK = 1 << 6, CGTK_PERMISSION_DEVICE_INFO = 1 << 7, CGTK_PERMISSION_MEDIA_KEYS = 1 << 8,
    CGTK_PERMISSION_STORAGE_ACCESS = 1 << 9,
};
static inline guint cgtk_permission_kinds(WebKitPermissionRequest *request) {
    if (WEBKIT_IS_USER_MEDIA_PERMISSION_REQUEST(request)) {
        WebKitUserMediaPermissionRequest *media = WEBKIT_USER_MEDIA_PERMISSION_REQUEST(request);
        if (webkit_user_media_permission_is_for_display_device(media)) return CGTK_PERMISSION_SCREEN;
        return (webkit_user_media_permission_is_for_video_device(media) ? CGTK_PERMISSION_CAMERA : 0)
             | (webkit_user_media_permission_is_for_audio_device(media) ? CGTK_PERMISSION_MICROPHONE : 0);
    }
    if (WEBKIT_IS_GEOLOCATION_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_GEOLOCATION;
    if (WEBKIT_IS_NOTIFICATION_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_NOTIFICATIONS;
    if (WEBKIT_IS_CLIPBOARD_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_CLIPBOARD;
    if (WEBKIT_IS_POINTER_LOCK_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_POINTER_LOCK;
    if (WEBKIT_IS_DEVICE_INFO_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_DEVICE_INFO;
    if (WEBKIT_IS_MEDIA_KEY_SYSTEM_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_MEDIA_KEYS;
    if (WEBKIT_IS_WEBSITE_DATA_ACCESS_PERMISSION_REQUEST(request)) return CGTK_PERMISSION_STORAGE_ACCESS;
    return 0;
}
static inline gulong cgtk_connect_script_dialog(WebKitWebView *view, CGtkScriptDialogCallback cb,
                                                gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "script-dialog", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_close_request(GtkWidget *window, CGtkCloseRequestCallback cb,
                                                gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(window, "close-request", G_CALLBACK(cb), data, destroy, 0);
}
// A list view's factory ("setup", "bind") and its "activate": the shapes GtkListView's signals take.
typedef void (*CGtkListItemCallback)(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data);
typedef void (*CGtkPositionCallback)(GtkListView *view, guint position, gpointer user_data);
static inline gulong cgtk_connect_list_item(GtkListItemFactory *factory, const char *signal, CGtkListItemCallback cb,
                                            gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(factory, signal, G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_list_activate(GtkWidget *view, CGtkPositionCallback cb, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "activate", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_row_activated(GtkWidget *list, CGtkRowActivatedCallback cb,
                                                 gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(list, "row-activated", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_response(GtkFileChooserNative *dialog, CGtkResponseCallback cb,
                                           gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(dialog, "response", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_alert_response(GtkWidget *dialog, CGtkAlertResponseCallback cb,
                                                 gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(dialog, "response", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_child_position(GtkWidget *overlay, CGtkChildPositionCallback cb,
                                                 gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(overlay, "get-child-position", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_pressed(GtkGesture *gesture, CGtkPressedCallback cb, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(gesture, "pressed", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_incoming(GSocketService *service, CGtkIncomingCallback cb,
                                           gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(service, "incoming", G_CALLBACK(cb), data, destroy, 0);
}
/* WebDriver: the context announces each automation session; the session asks for the view to drive
 * (any detail: "window" or "tab"), and the handler's view is not adopted (transfer none). */
static inline gulong cgtk_connect_automation_started(WebKitWebContext *context, CGtkAutomationStartedCallback cb,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(context, "automation-started", G_CALLBACK(cb), data, destroy, 0);
}
static inline gulong cgtk_connect_create_web_view(WebKitAutomationSession *session, CGtkCreateWebViewCallback cb,
                                                  gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(session, "create-web-view", G_CALLBACK(cb), data, destroy, 0);
}
/* "script-message-with-reply-received::NAME" is a detailed signal: build the detail here. */
static inline gulong cgtk_connect_reply_message(WebKitUserContentManager *manager, const char *handler,
                                                CGtkReplyMessageCallback cb, gpointer data, GClosureNotify destroy) {
    char detailed[160];
    g_snprintf(detailed, sizeof detailed, "script-message-with-reply-received::%s", handler);
    return g_signal_connect_data(manager, detailed, G_CALLBACK(cb), data, destroy, 0);
}

/* g_object_new is variadic: a web view on a given network session and content manager. */
static inline WebKitWebView *cgtk_web_view_new(WebKitNetworkSession *session, WebKitUserContentManager *manager,
                                               gboolean automation) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session", session,
                                        "user-content-manager", manager,
                                        "is-controlled-by-automation", automation, NULL));
}
/* A web view in the web process (and network session) of `related`, with its own content manager. */
static inline WebKitWebView *cgtk_web_view_new_related(WebKitWebView *related, WebKitUserContentManager *manager) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "related-view", related,
                                        "user-content-manager", manager, NULL));
}

/* An HTTP server on loopback for the reference Studio; g_object_new again. */
static inline SoupServer *cgtk_soup_server_new(void) {
    return soup_server_new("server-header", "HostShell-fixture", NULL);
}
static inline void cgtk_soup_server_add_handler(SoupServer *server, const char *path, CGtkServerCallback cb,
                                                gpointer data, GDestroyNotify destroy) {
    soup_server_add_handler(server, path, (SoupServerCallback)cb, data, destroy);
}

/* gtk_accessible_update_state is variadic: one state at a time. */
static inline void cgtk_accessible_set_hidden(GtkWidget *widget, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

/* GObject casts are macros; upcasts are plain pointer casts made explicit here. */
static inline GtkWidget *cgtk_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *cgtk_window(gpointer p) { return GTK_WINDOW(p); }
static inline GObject *cgtk_object(gpointer p) { return G_OBJECT(p); }

/* libdispatch SPI (exported by the toolchain's libdispatch.so): lets the GLib loop drain the
 * Dispatch main queue so @MainActor tasks run while GLib owns the main thread. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

/* The Secret Service schema for the app's credentials: one item per saved server. A static
 * struct, since secret_schema_new is variadic. */
static inline const SecretSchema *cgtk_credential_schema(void) {
    static const SecretSchema schema = {
        "org.hostshell.Credential", SECRET_SCHEMA_NONE,
        { { "server", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
    };
    return &schema;
}

/* The Secret Service schema for a Capacitor app's HomeSecAuth entries, as iOS's keychain keys
 * them: service `homesec`, the entry's account, and the app (its id), so apps never share. */
static inline const SecretSchema *cgtk_homesec_schema(void) {
    static const SecretSchema schema = {
        "org.hostshell.HomeSecAuth", SECRET_SCHEMA_NONE,
        { { "service", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "app", SECRET_SCHEMA_ATTRIBUTE_STRING },
          { "account", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
    };
    return &schema;
}

/* The remote inspector's guard (InspectorGuard): an emission hook on GSocketService::incoming,
 * the one place a connection to WebKit's inspector server can be seen before WebKit reads it. */
static inline gulong cgtk_add_incoming_hook(GSignalEmissionHook hook, gpointer data) {
    g_type_class_ref(G_TYPE_SOCKET_SERVICE);  /* its signals exist once its class does; kept for good */
    return g_signal_add_emission_hook(g_signal_lookup("incoming", G_TYPE_SOCKET_SERVICE), 0, hook, data, NULL);
}

/* One end of an incoming emission's connection (`remote` or local) as address text (g_free it)
 * and port; NULL when it is not an internet address. The connection is the emission's second
 * value (a GObject cast macro Swift cannot call). */
static inline gchar *cgtk_incoming_endpoint(const GValue *values, gboolean remote, guint16 *port) {
    GSocketConnection *connection = G_SOCKET_CONNECTION(g_value_get_object(&values[1]));
    GSocketAddress *address = remote ? g_socket_connection_get_remote_address(connection, NULL)
                                     : g_socket_connection_get_local_address(connection, NULL);
    if (address == NULL) return NULL;
    gchar *text = NULL;
    if (G_IS_INET_SOCKET_ADDRESS(address)) {
        *port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(address));
        text = g_inet_address_to_string(g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(address)));
    }
    g_object_unref(address);
    return text;
}

/* Closes an incoming connection before any handler reads from it (a hook cannot stop the
 * emission: WebKit's handler then finds the socket closed and drops it, with a GIO warning). */
static inline void cgtk_incoming_refuse(const GValue *values) {
    g_io_stream_close(G_IO_STREAM(g_value_get_object(&values[1])), NULL, NULL);
}
#include "simulator.h"

/* Trusted private roots (ShellKit's TrustedRoots): WebKit's "load-failed-with-tls-errors" and a
 * SoupMessage's "accept-certificate", both answering whether the certificate is let through. */
typedef gboolean (*CGtkTLSErrorsCallback)(WebKitWebView *view, gchar *uri, GTlsCertificate *certificate,
                                          GTlsCertificateFlags errors, gpointer user_data);
static inline gulong cgtk_connect_tls_errors(WebKitWebView *view, CGtkTLSErrorsCallback cb,
                                             gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(view, "load-failed-with-tls-errors", G_CALLBACK(cb), data, destroy, 0);
}
typedef gboolean (*CGtkAcceptCertificateCallback)(SoupMessage *message, GTlsCertificate *certificate,
                                                  GTlsCertificateFlags errors, gpointer user_data);
static inline gulong cgtk_connect_accept_certificate(SoupMessage *message, CGtkAcceptCertificateCallback cb,
                                                     gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(message, "accept-certificate", G_CALLBACK(cb), data, destroy, 0);
}

/* The X window id of a GTK window (0 when it is not on X11): a screen recording captures it.
 * Declared here rather than by including gdk/x11/gdkx.h, whose Xlib names (Screen, Window, …)
 * would clash with the project's in Swift. */
extern GType gdk_x11_surface_get_type(void);
extern unsigned long gdk_x11_surface_get_xid(GdkSurface *surface);
static inline unsigned long cgtk_window_xid(GtkWidget *window) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !G_TYPE_CHECK_INSTANCE_TYPE(surface, gdk_x11_surface_get_type())) return 0;
    return gdk_x11_surface_get_xid(surface);
}
/* Where a window's own area (without the shadow its client-side decorations draw) lies in its
 * surface: a recording crops to it, as a snapshot of the window shows it. */
static inline void cgtk_window_content_rect(GtkWidget *window, int *x, int *y, int *width, int *height) {
    double dx = 0, dy = 0;
    gtk_native_get_surface_transform(GTK_NATIVE(window), &dx, &dy);
    *x = (int)dx; *y = (int)dy;
    *width = gtk_widget_get_width(window); *height = gtk_widget_get_height(window);
}
