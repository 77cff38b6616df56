import CGtk
import HostCore
import ShellKit
import StudioContract

/// The running app: one window showing one saved server's Studio at a time, and switching
/// between saved servers the way the phone app does — each server keeps its own persistent
/// website data (sign-in, storage), so switching away and back finds it as it was left.
@MainActor
package final class ShellApp {
    package let window: StudioWindow
    package private(set) var session: OpenSession
    /// The saved servers as the app last read them (`followStore` reads them again).
    var records: [ServerRecord]
    package let device: DeviceProfile
    let inspector: Bool
    let credentials: CredentialStore
    /// Whether sheets get a prewarmed page (`open --no-prewarm` loads them on demand).
    let prewarmSheets: Bool
    /// Set when the app runs as a kiosk (`hostshell kiosk`).
    private(set) var kiosk: KioskWindow?
    private let kioskOptions: KioskOptions?
    /// Each server's network session, kept for the life of the app: switching away and back
    /// keeps even its session cookies (those a server sets without an expiry), as the phone app does.
    var networkSessions: [String: NetworkSessionPointer] = [:]
    /// Called whenever what the window shows changes, including after a switch.
    package var onScreenChanged: (() -> Void)?
    /// The latest notices shown to the person (newest last), for state dumps.
    private(set) var notices: [String] = []
    /// Ends the app (the command's main loop), with what to tell the person: the store it
    /// follows has no server left to show.
    var onQuit: ((String) -> Void)?
    /// Ends the app as a person asked (Ctrl+Q, the last window closed): the command's loop.
    var onExit: (() -> Void)?
    /// Set by `closeShown`: the session shown is closed and its view out of the window.
    private var shownClosed = false
    /// Servers removed from the store while the app ran (`followStore`).
    var forgotten = Set<String>()

    /// The window size saved for the server shown (`window.json` in its profile), if any.
    var remembered: RememberedWindowSize?
    /// Counts size changes, so only the last of a burst (a drag) is saved.
    var sizeGeneration = 0
    /// The app's other windows on the shown server's session (Ctrl+N, a page's new window).
    var secondWindows: [SecondWindow] = []
    var nextWindowId = 2
    /// What the person was told about downloads that ended, newest last.
    var downloadNotices: [String] = []
    /// The Keyboard Shortcuts and About windows while they are open.
    var shortcutsWindow: WidgetPointer?
    var aboutWindow: WidgetPointer?

    /// The process-wide services, handed to every session.
    package let environment: AppEnvironment

    package init(records: [ServerRecord], opening record: ServerRecord, device: DeviceProfile, inspector: Bool,
         credentials: CredentialStore, environment: AppEnvironment, prewarmSheets: Bool = true, kiosk kioskOptions: KioskOptions? = nil,
         deviceAsked: Bool = true) {
        self.environment = environment
        self.records = records
        self.prewarmSheets = prewarmSheets
        self.kioskOptions = kioskOptions
        self.device = device
        self.inspector = inspector
        self.credentials = credentials
        session = OpenSession(record: record, device: device, inspector: inspector, credentials: credentials,
                              networkSession: environment.networkSession(forServer: record.id), environment: environment,
                              prewarmSheets: prewarmSheets, kiosk: kioskOptions)
        networkSessions[record.id] = session.networkSession
        remembered = WindowSizeFile.load(serverId: record.id, root: environment.profileRoot)
        let starting = RememberedWindowSize.starting(remembered: remembered, device: device, deviceAsked: deviceAsked)
        window = StudioWindow(view: session.view, title: Self.title(record), subtitle: record.address.normalized,
                              size: (starting.width, starting.height), kiosk: kioskOptions != nil,
                              device: kioskOptions == nil ? environment.device : nil)
        if starting.maximized && kioskOptions == nil { gtk_window_maximize(cgtk_window(raw(window.window))) }
        window.onAction = { [weak self] action in self?.perform(action) }
        connectCloseRequest()
        connectDownloads()
        kiosk = kioskOptions.map { KioskWindow(window.host, options: $0) }
        window.onChooseServer = { [weak self] id in _ = self?.switchTo(id) }
        window.onSignIn = { [weak self] in self?.session.signIn() }
        window.onSignOut = { [weak self] in self?.session.signOut() }
        refreshSwitcher()
        attach(session)
    }

    /// Routes a session's changes and notices to the window and observers.
    private func attach(_ session: OpenSession) {
        session.onScreenChanged = { [weak self] in
            guard let self else { return }
            self.window.setAccount(self.session.auth.summary, signedIn: self.session.auth.signedIn)
            self.onScreenChanged?()
        }
        session.onNotice = { [weak self] notice in
            guard let self else { return }
            // A name, path or title a server or page controls is shown, never applied.
            let text = TerminalText.escaped(notice)
            self.notices = StateReport.appending(text, to: self.notices, keeping: StateReport.keptNotices)
            self.window.toast(text)
        }
        window.setAccount(session.auth.summary, signedIn: session.auth.signedIn)
        session.page.web.onOpenWindow = { [weak self] url in self?.openWindow(url: url) }
        environment.downloads.attach(session.networkSession)
        // The layout follows the window's width, from the size it has now.
        window.host.onSizeChanged = { [weak self] width, _ in
            self?.session.windowWidthChanged(width)
            self?.windowSizeChanged()
        }
        session.windowWidthChanged(window.host.size.width)
    }

    package func start() {
        window.present()
        session.start()
    }

    /// Ends the session shown and closes the window (the scripted tour, between devices).
    package func close() {
        session.close()
        // Hidden first, so nothing GTK has scheduled for the window (a tooltip, a pointer
        // query) runs against a surface that is gone.
        gtk_widget_set_visible(window.window, 0)
        let window = self.window.window
        MainLoop.after(milliseconds: 100) { gtk_window_destroy(cast(window)) }
    }

    /// Shows the saved server `id` in place of the current one. Returns a reason when it cannot.
    @discardableResult
    func switchTo(_ id: String) -> String? {
        guard let record = records.first(where: { $0.id == id }) else {
            return "no saved server \"\(id)\"; saved: \(records.map(\.id).joined(separator: ", "))"
        }
        guard record.id != session.record.id else { return nil }
        // WebKit ends a WebDriver session whose page goes away, and a switch closes the page.
        if environment.automation != nil { return "a WebDriver session drives \(session.record.id)'s page (open --automation); open \(id) in a session of its own" }
        show(record)
        return nil
    }

    /// Closes the session shown and takes its view out of the window (an empty window until
    /// `show`), so its page and web process are gone before its server's data is deleted.
    func closeShown() {
        guard !shownClosed else { return }
        shownClosed = true
        session.close()
        window.host.show(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0), title: "HostShell", subtitle: "")
    }

    /// A fresh session on `record` in the window, in place of the one shown (closed here unless
    /// `closeShown` closed it already).
    func show(_ record: ServerRecord) {
        let previousClosed = shownClosed
        shownClosed = false
        let previous = session
        saveWindowSize()
        closeSecondWindows()
        session = OpenSession(record: record, device: device, inspector: inspector, credentials: credentials,
                              networkSession: networkSession(for: record), environment: environment,
                              prewarmSheets: prewarmSheets, kiosk: kioskOptions)
        attach(session)
        remembered = WindowSizeFile.load(serverId: record.id, root: environment.profileRoot)
        // Closed while its widgets are still in the window (its sheet and menus come out of
        // them); only then does the window let go of its view.
        if !previousClosed { previous.close() }
        window.show(session.view, title: Self.title(record), subtitle: record.address.normalized)
        refreshSwitcher()
        session.start()
    }

    /// Opens a `tilecast-ios://open?installation=…&path=…` link: the saved server with that
    /// installation is shown (switching to it if need be) and Studio is sent to the path once it
    /// is ready. A link for an installation that is not saved shows a notice and contacts no one.
    /// Returns what happened, worded for the person.
    @discardableResult
    func openURL(_ url: String) -> (opened: Bool, message: String) {
        switch DeepLinkRoute.decide(url, records: records) {
        case .refused(let why):
            return notice(opened: false, why)
        case .open(let link, let record):
            if record.id != session.record.id {  // a link queued for the other server is dropped with it
                if let problem = switchTo(record.id) { return notice(opened: false, "That link cannot be opened here: \(problem).") }
            }
            session.page.openDeepLink(link.path)
            gtk_window_present(cast(window.window))
            return (true, DeepLinkRoute.openingNotice(link, record))
        }
    }

    private func notice(opened: Bool, _ notice: String) -> (opened: Bool, message: String) {
        let text = TerminalText.escaped(notice)
        notices = StateReport.appending(text, to: notices, keeping: StateReport.keptNotices)
        window.toast(text)
        onScreenChanged?()
        return (opened, text)
    }

    private func networkSession(for record: ServerRecord) -> NetworkSessionPointer {
        if let existing = networkSessions[record.id] { return existing }
        let network = environment.networkSession(forServer: record.id)
        networkSessions[record.id] = network
        return network
    }

    func refreshSwitcher() {
        window.setServers(records.map { .init(id: $0.id, name: $0.name, address: $0.address.normalized) },
                          current: session.record.id)
    }

    package static func title(_ record: ServerRecord) -> String { record.name }
}

extension ShellApp: HostedApp {
    package var windowWidget: WidgetPointer { window.window }
    package var mainWebPage: WebPage { session.page.web }
    package var screen: Screen { session.screen }
    package var hungProcessesEnded: Int { session.loading.hang.processesEnded }
    package func stateMembers() -> JSONObject { ShellState.members(self) }
}
