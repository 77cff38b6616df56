import CGtk
import HostCore

/// The main frame kept on the server's origin before any request leaves (`MainFrameConfinement`):
/// the rules compiled into a content filter on the page's content manager, the app's own loads
/// held until the filter is in place, and a load the filter blocked judged as the policy would
/// have at its response — refused and recorded, or, when a person activated it, handed out.
extension WebPage {
    package enum ConfinementState: Sendable { case compiling, ready, unavailable }

    /// WebKit's error for a load a content blocker stopped (`kWKErrorCodeFrameLoadBlockedByContentBlocker`
    /// in WebKit's API; WebKitGTK reports it in the policy error domain without a name).
    static let blockedByContentBlocker: Int32 = 104

    /// Where compiled rules are kept: the same rules compile to the same file.
    static var filterDirectory: String { String(cString: g_get_user_cache_dir()) + "/hostshell/content-filters" }

    /// Compiles the rules for the server's origin and the host's own loads; loads wait meanwhile.
    func confine() {
        let rules = MainFrameConfinement.rules(origin: trust.origin, hostLoads: confinementHostLoads)
        let id = MainFrameConfinement.identifier(for: rules)
        confinementState = .compiling
        confinementGeneration += 1
        let generation = confinementGeneration
        let store = webkit_user_content_filter_store_new(Self.filterDirectory)
        let bytes = g_bytes_new(rules, gsize(rules.utf8.count))
        webkit_user_content_filter_store_save(store, id, bytes, nil, AsyncReply.callback, AsyncReply.data { [weak self] source, result in
            var error: UnsafeMutablePointer<GError>?
            let filter = webkit_user_content_filter_store_save_finish(OpaquePointer(source), result, &error)
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            defer { if let filter { webkit_user_content_filter_unref(filter) } }
            guard let self, !self.closed, generation == self.confinementGeneration else { return }
            if let filter {
                if let old = self.confinementFilter, old != id { webkit_user_content_manager_remove_filter_by_id(self.manager, old) }
                webkit_user_content_manager_add_filter(self.manager, filter)
                self.confinementFilter = id
                self.confinementState = .ready
            } else {
                // The response-stage judgement still refuses; only the request is not stopped.
                self.confinementState = .unavailable
                printError("hostshell: warning: the main frame's confinement could not be compiled (\(reason)); a navigation the policy refuses may still reach its server before it is refused")
            }
            if let pending = self.pendingLoad {
                self.pendingLoad = nil
                webkit_web_view_load_uri(self.view, pending)
            }
        })
        g_bytes_unref(bytes)
        g_object_unref(UnsafeMutableRawPointer(store))
    }

    /// Loads `uri` once the confinement admits it (rules naming it are compiled first when it is
    /// off the server's origin: `probe --host`).
    func loadConfined(_ uri: String) {
        if !MainFrameConfinement.admits(uri, origin: trust.origin), !confinementHostLoads.contains(uri) {
            confinementHostLoads.append(uri)
            confine()
        }
        guard confinementState != .compiling else {
            pendingLoad = uri
            startProcess()
            return
        }
        processNotStarted = false
        webkit_web_view_load_uri(view, uri)
    }

    /// While the first load waits for the rules, its web process starts (it takes a few hundred
    /// milliseconds, the compile a few): a script run in the empty view starts it without a
    /// document, so nothing enters the page's history and no request leaves before the filter.
    private func startProcess() {
        guard processNotStarted else { return }
        processNotStarted = false
        webkit_web_view_evaluate_javascript(view, "0", -1, nil, nil, nil, nil, nil)
    }

    /// A main-frame load the filter stopped before its request: judged as at its response.
    func judgeBlocked(_ uri: String, _ error: UnsafeMutablePointer<GError>?) -> Bool {
        guard let error, error.pointee.domain == webkit_policy_error_quark(), error.pointee.code == Self.blockedByContentBlocker else { return false }
        if lettingGo { return true }
        // Blocked after a redirect, WebKit names the address the load started from, which the
        // rules admit: the address blocked is the redirect's.
        var blocked = uri
        if MainFrameConfinement.admits(uri, origin: trust.origin), let lastRedirect, !MainFrameConfinement.admits(lastRedirect, origin: trust.origin) {
            blocked = lastRedirect
        }
        lastRedirect = nil
        let verdict = navigation.decide(NavigationPolicy.Request(stage: .response(mainFrame: true), url: blocked), now: monotonicSeconds())
        if verdict.action != .load { trust.handoff.carryOut(blocked, verdict) }
        return true  // no error page: the page stays where it was
    }
}
