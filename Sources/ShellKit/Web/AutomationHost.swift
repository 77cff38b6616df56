import CGtk
import Glibc
import HostCore

/// WebDriver for `open --automation`: WebKitWebDriver starts `hostshell open … --automation` as
/// its browser, and each session it opens drives the app's own Studio page for the chosen server
/// — the one with the bridge and the native chrome — not a bare view. Its website data is WebKit's
/// automation session (see `networkSession`).
///
/// WebKit's side of it: automation must be allowed on the web context before the views are made;
/// the context then announces each session (`automation-started`), the session's application
/// name must equal the client's `browserName`, and the session asks for the view to drive
/// (`create-web-view`), which must have been built with `is-controlled-by-automation`.
@MainActor
package final class AutomationHost {
    /// The automation host once `enable` ran. Process-wide, as WebKit's switch is: only one web
    /// context per process may allow automation, and every HostShell view is on the default one.
    /// The command hands the host to its app's `AppEnvironment`; pages read it there.
    private static var enabled: AutomationHost?

    /// The name sessions report; a WebDriver client must send it as `browserName`.
    static let browserName = "hostshell"

    /// WebKit's automation network session (ephemeral, one per process). WebKit puts every view
    /// built for automation on it, whatever session the view is given (measured with 2.50), so
    /// under `--automation` each server's session is this one: the page, the sign-in cookie the
    /// app installs and the sheets then share one set of website data (see `ProfileSession`).
    package let networkSession: NetworkSessionPointer

    /// The view a new browsing context gets: the main page of the server shown now.
    private var currentView: (() -> WebViewPointer?)?
    /// Ends the app when the session closes the page, as a browser ends with its last window.
    private var closeApp: (() -> Void)?
    /// The views already given to the session: HostShell has one Studio page per window, so a
    /// second window for the same page is refused rather than given a view it cannot show.
    private var handedOut: [WebViewPointer] = []

    private init(networkSession: NetworkSessionPointer) { self.networkSession = networkSession }

    /// A fleet's sessions (`fleet --webdriver`, `FleetWebDriverHost`): each session WebKit
    /// starts, named already, is handed here instead of being given the one app's page.
    package var fleetSessions: (@MainActor (_ session: OpaquePointer) -> Void)?

    /// Allows automation on the default web context. Call before any page is made, so the main
    /// pages are built for automation from the start (WebKit cannot switch a view later).
    /// `inspector`: the inspector server's address when no driver started this process (a
    /// fleet that WebKitWebDriver reaches with `--target`); loopback only (`InspectorGuard`).
    @discardableResult
    package static func enable(inspector: String? = nil) -> AutomationHost {
        if let enabled { return enabled }
        if let inspector { setenv(InspectorGuard.keptVariable, inspector, 1) }
        // Before WebKit's first type: the driver's address, for this user only (InspectorGuard).
        if let problem = InspectorGuard.allowForAutomation() { printError("hostshell: --automation: \(problem)") }
        let context = webkit_web_context_get_default()
        webkit_web_context_set_automation_allowed(context, 1)
        // Exists once automation is allowed; kept for the life of the app.
        let session = webkit_web_context_get_network_session_for_automation(context)!
        g_object_ref(UnsafeMutableRawPointer(session))
        let host = AutomationHost(networkSession: session)
        enabled = host
        // The context holds the host for the life of the process, as WebKit's switch lasts.
        onAutomationStarted(context!) { [host] session in host.started(session) }
        return host
    }

    /// The app cannot start (no server saved, an unknown one, …), but WebKitWebDriver started it
    /// and retries its inspector address until the app answers: once its browser has exited it
    /// stops retrying without ever answering its client (WebKit 2.50), so a Selenium script
    /// waits for good. Instead the app stays just long enough to answer: it lets the driver
    /// connect and names each session it announces otherwise than `browserName`, which the
    /// driver refuses at once ("session not created"); `reason` is on the app's error output,
    /// which the driver passes on. The app then ends, at the latest after `refusalSeconds`.
    /// The exit status.
    package static func refuseSessions(because reason: String) -> Int32 {
        printError("hostshell: \(reason)")
        guard (try? MainLoop.startGTK(noDisplay: "", adwaita: false)) != nil else { return ExitCode.usage }
        printError("hostshell: --automation: answering WebDriver that this session cannot start")
        if let problem = InspectorGuard.allowForAutomation() { printError("hostshell: --automation: \(problem)") }
        let context = webkit_web_context_get_default()
        webkit_web_context_set_automation_allowed(context, 1)
        let loop = g_main_loop_new(nil, 0)
        onAutomationStarted(context!) { session in
            let info = webkit_application_info_new()
            webkit_application_info_set_name(info, "hostshell (not started: see its error output)")
            webkit_automation_session_set_application_info(session, info)
            webkit_application_info_unref(info)
            // The answer goes out as this returns; the driver then ends the app, or this does.
            MainLoop.after(milliseconds: 2000) { g_main_loop_quit(loop) }
        }
        MainLoop.after(milliseconds: UInt32(refusalSeconds * 1000)) { g_main_loop_quit(loop) }
        g_main_loop_run(loop)
        g_main_loop_unref(loop)
        return ExitCode.usage
    }

    /// How long an app that could not start waits for the driver to ask.
    static let refusalSeconds = 60.0

    /// Connects the host to the running app: which view a session drives, and how the app ends.
    package func serve(view: @escaping () -> WebViewPointer?, close: @escaping () -> Void) {
        currentView = view
        closeApp = close
    }

    private func started(_ session: OpaquePointer) {
        // Without the name, WebKitWebDriver refuses a session that asked for browserName "hostshell".
        let info = webkit_application_info_new()
        webkit_application_info_set_name(info, Self.browserName)
        webkit_automation_session_set_application_info(session, info)
        webkit_application_info_unref(info)
        let id = webkit_automation_session_get_id(session).map { String(cString: $0) } ?? "?"
        if let fleetSessions { return fleetSessions(session) }
        printError("hostshell: WebDriver session \(id) started; it drives the Studio page shown in the window")
        onCreateWebView(session) { [self] in browsingContext() }
    }

    /// The view for a browsing context the session asked for (WebKit does not take a reference).
    private func browsingContext() -> WebViewPointer? {
        guard let view = currentView?(), webkit_web_view_is_controlled_by_automation(view) != 0 else {
            printError("hostshell: WebDriver asked for a page before the app had one built for automation")
            return nil
        }
        guard !handedOut.contains(view) else {
            printError("hostshell: WebDriver asked for another window; HostShell shows one Studio page per window")
            return nil
        }
        handedOut.append(view)
        // Deleting the session, or closing its window, closes the page: end the app as a browser
        // closes with its last window, so the control socket is removed on the way out.
        onSignal(UnsafeMutableRawPointer(view), "close") { [weak self] in
            guard let self, self.currentView?() == view else { return }
            self.closeApp?()
        }
        // A later view may reuse a freed one's address: forget it when it goes.
        onSignal(UnsafeMutableRawPointer(view), "destroy") { [weak self] in self?.handedOut.removeAll { $0 == view } }
        return view
    }
}
