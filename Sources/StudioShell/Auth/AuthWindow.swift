import CGtk
import ShellKit
import StudioContract

/// The separate authentication window of a sign-in: the server's approve page in a web view on
/// its own ephemeral network session (nothing shared with Studio, nothing kept), no bridge. A
/// navigation to the app's redirect address is stopped and handed over; closing the window
/// (Cancel, Escape, the close button) cancels.
@MainActor
package final class AuthWindow {
    package let window: WidgetPointer
    private let view: WebViewPointer
    private let session: NetworkSessionPointer
    private var finished = false
    /// Its handlers on the window and the view, disconnected when it finishes.
    private var signals: [SignalConnection] = []
    /// Called once: with the callback URL, or nil when the person closed the window.
    private let done: @MainActor (String?) -> Void
    /// Called when the approve page cannot be loaded.
    var onLoadFailed: ((String) -> Void)?

    init(title: String, url: String, parent: WidgetPointer?, done: @escaping @MainActor (String?) -> Void) {
        self.done = done
        session = webkit_network_session_new_ephemeral()!
        let manager = webkit_user_content_manager_new()
        view = cgtk_web_view_new(session, manager, 0)
        // The view holds the manager now; ours goes (it was kept by mistake: one per sign-in).
        LiveObjects.track(UnsafeMutableRawPointer(manager!), as: .contentManager)
        LiveObjects.track(UnsafeMutableRawPointer(view), as: .webView)
        g_object_unref(UnsafeMutableRawPointer(manager))
        window = gtk_window_new()!
        gtk_window_set_title(cast(window), title)
        gtk_window_set_default_size(cast(window), 480, 640)
        gtk_window_set_modal(cast(window), 1)
        if let parent { gtk_window_set_transient_for(cast(window), cast(parent)) }
        let header = gtk_header_bar_new()!
        let cancel = gtk_button_new_with_mnemonic("_Cancel")!
        gtk_header_bar_pack_start(cast(header), cancel)
        gtk_window_set_titlebar(cast(window), header)
        let web = cgtk_widget(UnsafeMutableRawPointer(view))!
        gtk_widget_set_vexpand(web, 1)
        gtk_window_set_child(cast(window), web)
        onSignal(raw(cancel), "clicked") { [weak self] in self?.finish(nil) }
        // Escape cancels, as in every dialog.
        let controller = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                          gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, controller)
        signals.append(onCloseRequest(window) { [weak self] in
            self?.finish(nil)
            return false
        })
        signals.append(onDecidePolicy(view) { [weak self] decision, type in
            guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION else { return false }
            let action = webkit_navigation_policy_decision_get_navigation_action(OpaquePointer(decision))
            guard let request = webkit_navigation_action_get_request(action), let raw = webkit_uri_request_get_uri(request) else { return false }
            let url = String(cString: raw)
            if SignInRequest.isCallback(url) {
                webkit_policy_decision_ignore(decision)
                self?.finish(url)
                return true
            }
            if type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION {
                webkit_policy_decision_ignore(decision)  // no pop-ups from the sign-in page
                return true
            }
            return false
        })
        signals.append(ShellKit.onLoadFailed(view) { [weak self] _, error in
            guard let error, error.pointee.domain != webkit_policy_error_quark(),
                  !(error.pointee.domain == webkit_network_error_quark() && error.pointee.code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
            else { return false }
            self?.onLoadFailed?(String(cString: error.pointee.message))
            return false
        })
        webkit_web_view_load_uri(view, url)
    }

    package func present() { gtk_window_present(cast(window)) }

    /// Ends the window once, reporting the callback (or nil for cancel), and destroys it.
    func finish(_ callback: String?) {
        guard !finished else { return }
        finished = true
        signals.disconnect()
        signals = []
        // The sign-in page is thrown away: end its web process now, before its window and
        // session go, rather than let it find its connections closed under it (it logged
        // criticals when it did).
        webkit_web_view_terminate_web_process(view)
        gtk_window_destroy(cast(window))
        g_object_unref(UnsafeMutableRawPointer(session))
        done(callback)
    }
}
