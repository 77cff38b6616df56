import CGtk

/// A web view made before its app is known (a fleet's pool slot, `FleetSlots`): an ephemeral
/// network session of its own — website data in memory only, seen by no other session, gone
/// with it —, a content manager with nothing in it yet, and the view, whose web process is
/// started by an empty first document. The app that takes it adds its scripts and handlers to
/// the manager, wraps the view in its `WebPage` (`.prewarmed`) and loads its own page: what is
/// left of its start. A view serves one app once; one nobody took is ended with `discard`.
@MainActor
package final class PrewarmedView {
    package let session: NetworkSessionPointer
    package let manager: ContentManagerPointer
    package let view: WebViewPointer
    /// Its web process runs (the script answered).
    package private(set) var ready = false
    private var signals: [SignalConnection] = []
    private var handedOver = false

    /// Starts one: `ready` is called once its web process runs, `lost` if it ended first.
    package init(ready onReady: @escaping @MainActor () -> Void, lost onLost: @escaping @MainActor () -> Void) {
        session = webkit_network_session_new_ephemeral()!
        manager = webkit_user_content_manager_new()!
        // Floating, as a new view is: the container of the app that takes it sinks it.
        view = cgtk_web_view_new(session, manager, 0)
        signals.append(onProcessTerminated(view) { [weak self] _ in
            guard let self, !self.handedOver else { return }
            self.ready = false
            onLost()
        })
        // A script run in the empty view starts its web process without loading a document:
        // nothing goes into its history (the app's first page is its first entry, as alone).
        webkit_web_view_evaluate_javascript(view, "0", -1, nil, nil, nil, AsyncReply.callback, AsyncReply.data { [weak self] source, result in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_evaluate_javascript_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            if let value { g_object_unref(UnsafeMutableRawPointer(value)) }
            g_clear_error(&error)
            guard let self, !self.handedOver else { return }
            if value != nil { self.ready = true; onReady() } else { onLost() }
        })
    }

    /// Hands the view to the app that takes it: the pool's handlers leave it, and the session,
    /// the manager's reference and the view are the app's from now on.
    package func handOver() {
        handedOver = true
        signals.disconnect()
        signals = []
    }

    /// Ends a view no app took: its web process, the view, its manager and session.
    package func discard() {
        guard !handedOver else { return }
        handOver()
        webkit_web_view_terminate_web_process(view)
        g_object_ref_sink(UnsafeMutableRawPointer(view))
        g_object_unref(UnsafeMutableRawPointer(view))
        unref(manager)
        unref(session)
    }
}
