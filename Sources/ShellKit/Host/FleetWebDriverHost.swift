import CGtk
import HostCore

/// WebDriver sessions as a fleet's apps (`hostshell fleet --webdriver ADDRESS -- KIND ARGS…`):
/// carries out `FleetSessions`. WebKitWebDriver `--target=ADDRESS` reaches the fleet's inspector
/// server; each session WebKit starts gets, when it asks for its page, a new throw-away app of
/// KIND (from the WebDriver pool when a slot is ready) whose own page it drives. The session's
/// end — its page closed (session deleted, window closed) or WebKit ending the session (the
/// driver gone) — closes that app, then clears WebKit's automation network session, which
/// every session's page shares, so the next session starts with no website data.
@MainActor
package final class FleetWebDriverHost {
    private var sessions = FleetSessions()
    private let options: FleetWebDriverOptions
    private let automation: AutomationHost
    /// Opens the session's app: its id and the view its page is on.
    private let open: @MainActor () throws(ControlError) -> (String, WebViewPointer)
    private let close: @MainActor (String) -> Void
    private var stopped = false

    package init(options: FleetWebDriverOptions, automation: AutomationHost,
                 open: @escaping @MainActor () throws(ControlError) -> (String, WebViewPointer), close: @escaping @MainActor (String) -> Void) {
        self.options = options
        self.automation = automation
        self.open = open
        self.close = close
        automation.fleetSessions = { [weak self] session in self?.started(session) }
        InspectorGuard.admission = { [weak self] in
            guard let self, !self.sessions.acceptsConnection else { return nil }
            return self.sessions.connectionRefusal
        }
        printError("hostshell fleet: WebDriver sessions open \(options.kind) apps; run WebKitWebDriver --port=PORT --target=\(options.address)")
    }

    /// The sessions as `list` shows them.
    package var json: JSONValue {
        var object = sessions.json.objectValue ?? [:]
        object["target"] = .string(options.address)
        object["opens"] = .string(options.kind)
        return .object(object)
    }

    /// App `id` of the fleet closed (by a request, its window, or its session).
    package func appEnded(_ id: String) { perform(sessions.reduce(.appEnded(app: id))) }

    /// The fleet is ending: no more sessions.
    package func stop() {
        stopped = true
        automation.fleetSessions = nil
        InspectorGuard.admission = nil
    }

    private func started(_ session: OpaquePointer) {
        guard !stopped else { return }
        let id = webkit_automation_session_get_id(session).map { String(cString: $0) } ?? "?"
        printError("hostshell fleet: WebDriver session \(id) started")
        perform(sessions.reduce(.started(session: id)))
        // WebKit drops the session when the driver goes: then its app, if any, closes.
        whenFinalized(UnsafeMutableRawPointer(session)) { [weak self] in
            self?.perform(self?.sessions.reduce(.sessionGone(session: id)) ?? [])
        }
        onCreateWebView(session) { [weak self] in self?.pageRequested(id) }
    }

    /// The view for the session's browsing context: its new app's page, or nil (refused).
    private func pageRequested(_ session: String) -> WebViewPointer? {
        var effects = sessions.reduce(.pageRequested(session: session))
        if effects == [.awaitClear(session: session)] {
            // The previous session's data is still being cleared: WebKit wants the view now,
            // so the main loop runs here until the clearing answers (milliseconds), bounded.
            printError("hostshell fleet: WebDriver session \(session) waits for the previous session's website data to be cleared")
            let deadline = monotonicSeconds() + FleetSessions.clearLimitSeconds
            while sessions.clearing && monotonicSeconds() < deadline { g_main_context_iteration(nil, 1) }
            guard !sessions.clearing else {
                printError("hostshell fleet: WebDriver session \(session) refused: the previous session's website data was not cleared within \(Int(FleetSessions.clearLimitSeconds)) s")
                return nil
            }
            effects = sessions.reduce(.pageRequested(session: session))
        }
        var view: WebViewPointer?
        for effect in effects {
            if case .open = effect { view = openApp(session) } else { perform([effect]) }
        }
        return view
    }

    private func openApp(_ session: String) -> WebViewPointer? {
        let opened: (String, WebViewPointer)
        do throws(ControlError) { opened = try open() } catch {
            perform(sessions.reduce(.openFailed(session: session, reason: error.message)))
            return nil
        }
        let (app, view) = opened
        perform(sessions.reduce(.opened(session: session, app: app)))
        // Deleting the session, or closing its window, closes the page: the app closes with it.
        // (The handler goes with the view.)
        onSignal(UnsafeMutableRawPointer(view), "close") { [weak self] in self?.appEnded(app) }
        printError("hostshell fleet: WebDriver session \(session) drives app \(app)")
        return view
    }

    private func perform(_ effects: [FleetSessions.Effect]) {
        guard !stopped else { return }
        for effect in effects {
            switch effect {
            case .open, .awaitClear: break  // answered where the page is asked for (`pageRequested`)
            case .refusePage(let session, let reason): printError("hostshell fleet: WebDriver session \(session): \(reason)")
            case .tell(let message): printError("hostshell fleet: \(message)")
            case .close(let app):
                // Out of the signal or request that told of it, as any close of the fleet's.
                MainLoop.whenIdle { [close] in close(app) }
            case .clearData:
                // After the close queued before it: the page is gone when its data is cleared.
                MainLoop.whenIdle { [weak self] in self?.clearAutomationData() }
            }
        }
    }

    /// Clears every kind of website data of WebKit's automation network session (the one every
    /// session's page is on): cookies, local and session storage, IndexedDB, caches, HSTS, ….
    private func clearAutomationData() {
        let manager = webkit_network_session_get_website_data_manager(automation.networkSession)
        webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, AsyncReply.callback, AsyncReply.data { [weak self] source, result in
            var error: UnsafeMutablePointer<GError>?
            guard webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error) != 0 else {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "no reason given"
                g_clear_error(&error)
                self?.perform(self?.sessions.reduce(.clearFailed(reason: reason)) ?? [])
                return
            }
            self?.perform(self?.sessions.reduce(.cleared) ?? [])
        })
    }
}

/// Calls `body` once `object` is finalized (a GObject weak reference; the box goes with the call).
@MainActor
private func whenFinalized(_ object: UnsafeMutableRawPointer, _ body: @escaping @MainActor () -> Void) {
    g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), { data, _ in
        let body = Callback<@MainActor () -> Void>.take(data)
        MainActor.assumeIsolated { body() }
    }, Callback.retained(body))
}
