import CGtk

// Typed connectors for WebKit's signals, one per callback shape (see `Callback`): the closure
// is boxed for GLib to release, runs on the main actor, and the connection is returned.

/// "load-changed": the main frame started, was redirected, committed or finished.
@MainActor @discardableResult
package func onLoadChanged(_ view: WebViewPointer, _ body: @escaping @MainActor (WebKitLoadEvent) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_load_changed(view, { _, event, data in
        let body = Callback<@MainActor (WebKitLoadEvent) -> Void>.body(data)
        MainActor.assumeIsolated { body(event) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "load-failed", with the address and the error: `body` true keeps WebKit's error page away.
@MainActor @discardableResult
package func onLoadFailed(_ view: WebViewPointer, _ body: @escaping @MainActor (_ uri: String, _ error: UnsafeMutablePointer<GError>?) -> Bool)
    -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_load_failed(view, { _, _, uri, error, data in
        let body = Callback<@MainActor (String, UnsafeMutablePointer<GError>?) -> Bool>.body(data)
        let address = uri.map { String(cString: $0) } ?? ""
        return MainActor.assumeIsolated { body(address, error) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "web-process-terminated": the page's web process ended (crashed, killed, out of memory).
@MainActor @discardableResult
package func onProcessTerminated(_ view: WebViewPointer, _ body: @escaping @MainActor (WebKitWebProcessTerminationReason) -> Void)
    -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_process_terminated(view, { _, reason, data in
        let body = Callback<@MainActor (WebKitWebProcessTerminationReason) -> Void>.body(data)
        MainActor.assumeIsolated { body(reason) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "script-dialog" (`alert`, `confirm`, `prompt`, `beforeunload`): `body` true when it was
/// handled here, false lets WebKit show its own.
@MainActor @discardableResult
package func onScriptDialog(_ view: WebViewPointer, _ body: @escaping @MainActor (_ dialog: OpaquePointer) -> Bool) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_script_dialog(view, { _, dialog, data in
        guard let dialog else { return 0 }
        let body = Callback<@MainActor (OpaquePointer) -> Bool>.body(data)
        return MainActor.assumeIsolated { body(dialog) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "decide-policy": `body` true when it decided (WebKit goes no further), false lets WebKit go on.
@MainActor @discardableResult
package func onDecidePolicy(_ view: WebViewPointer,
                            _ body: @escaping @MainActor (UnsafeMutablePointer<WebKitPolicyDecision>, WebKitPolicyDecisionType) -> Bool)
    -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_decide_policy(view, { _, decision, type, data in
        guard let decision else { return 0 }
        let body = Callback<@MainActor (UnsafeMutablePointer<WebKitPolicyDecision>, WebKitPolicyDecisionType) -> Bool>.body(data)
        return MainActor.assumeIsolated { body(decision, type) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "create" (`window.open`), with the navigation action. WebKit never gets a view from here:
/// what opens, if anything, is the app's to show.
@MainActor @discardableResult
package func onCreate(_ view: WebViewPointer, _ body: @escaping @MainActor (_ action: OpaquePointer) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_create(view, { _, action, data in
        guard let action else { return nil }
        let body = Callback<@MainActor (OpaquePointer) -> Void>.body(data)
        MainActor.assumeIsolated { body(action) }
        return nil
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "permission-request": `body` true when it keeps the request to answer (now or later).
@MainActor @discardableResult
package func onPermissionRequest(_ view: WebViewPointer, _ body: @escaping @MainActor (_ request: OpaquePointer) -> Bool) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_permission_request(view, { _, request, data in
        guard let request else { return 0 }
        let body = Callback<@MainActor (OpaquePointer) -> Bool>.body(data)
        return MainActor.assumeIsolated { body(request) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "query-permission-state" (`navigator.permissions.query`): `body` true when it answered.
@MainActor @discardableResult
package func onPermissionQuery(_ view: WebViewPointer, _ body: @escaping @MainActor (_ query: OpaquePointer) -> Bool) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_permission_query(view, { _, query, data in
        guard let query else { return 0 }
        let body = Callback<@MainActor (OpaquePointer) -> Bool>.body(data)
        return MainActor.assumeIsolated { body(query) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// "script-message-with-reply-received::HANDLER" on a content manager: the message's value and
/// the reply to answer it with (the handler answers every message).
@MainActor @discardableResult
package func onReplyMessage(_ manager: ContentManagerPointer, handler: String,
                            _ body: @escaping @MainActor (_ value: JSValuePointer, _ reply: OpaquePointer) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(manager), cgtk_connect_reply_message(manager, handler, { _, value, reply, data in
        guard let value, let reply else { return 0 }
        let body = Callback<@MainActor (JSValuePointer, OpaquePointer) -> Void>.body(data)
        MainActor.assumeIsolated { body(value, reply) }
        return 1
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A signal whose one argument is an object or a `GError` (a network session's
/// "download-started", a download's "failed").
@MainActor @discardableResult
package func onPointerSignal(_ instance: UnsafeMutableRawPointer, _ signal: String,
                             _ body: @escaping @MainActor (_ argument: UnsafeMutableRawPointer?) -> Void) -> SignalConnection {
    SignalConnection(instance, cgtk_connect_pointer_arg(instance, signal, { _, argument, data in
        let body = Callback<@MainActor (UnsafeMutableRawPointer?) -> Void>.body(data)
        MainActor.assumeIsolated { body(argument) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A download's "decide-destination", with the name the server suggested: `body` true when it
/// set the destination (or cancelled).
@MainActor @discardableResult
package func onDecideDestination(_ download: OpaquePointer, _ body: @escaping @MainActor (_ suggested: String) -> Bool) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(download), cgtk_connect_decide_destination(download, { _, suggested, data in
        let body = Callback<@MainActor (String) -> Bool>.body(data)
        let name = suggested.map { String(cString: $0) } ?? ""
        return MainActor.assumeIsolated { body(name) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A web context's "automation-started", with the WebDriver session.
@MainActor @discardableResult
package func onAutomationStarted(_ context: OpaquePointer, _ body: @escaping @MainActor (_ session: OpaquePointer) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(context), cgtk_connect_automation_started(context, { _, session, data in
        guard let session else { return }
        let body = Callback<@MainActor (OpaquePointer) -> Void>.body(data)
        MainActor.assumeIsolated { body(session) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// An automation session's "create-web-view": the view it is to drive (not adopted by WebKit), or nil.
@MainActor @discardableResult
package func onCreateWebView(_ session: OpaquePointer, _ body: @escaping @MainActor () -> WebViewPointer?) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(session), cgtk_connect_create_web_view(session, { _, data in
        let body = Callback<@MainActor () -> WebViewPointer?>.body(data)
        // A view pointer is not Sendable; it only crosses from the main actor to the main thread.
        nonisolated(unsafe) var view: WebViewPointer?
        MainActor.assumeIsolated { view = body() }
        return view
    }, Callback.retained(body), CallbackRelease.closureNotify))
}
