import CGtk
import Glibc
import HostCore
import ShellKit
import StudioContract

/// One saved server's Studio: its own persistent website data, its identity checked before
/// anything loads, the loading mark until the reveal rule holds, clear failure screens with
/// Retry, and web-process crash recovery (where its pages may go is the pages' own policy:
/// `WebPage+Policy`). A
/// `ShellApp` shows one session at a time in its window.
@MainActor
package final class OpenSession {
    let record: ServerRecord
    package let page: StudioPage
    package let view: StudioView
    /// The app's sign-in with this server (see OpenSession+Auth).
    let auth: ServerAuth
    /// The media intake in progress (see OpenSession+Uploads).
    var uploader: Uploader?
    var fileChooser: FileChooser?
    /// The native alert while it shows, and which page's it is (one at a time across both).
    var alertDialog: AlertDialog?
    private var alertSlot = AlertOwnership<SessionPage>()
    /// The window's one armed menu and each trigger's owner, across both pages (see OpenSession+Menus).
    var menuSlot = MenuOwnership<SessionPage>()
    /// The share panel while it is open, the last choice made in one, recent haptic feedback.
    var sharePanel: SharePanel?
    var lastShare: JSONValue?
    /// The latest shares that carried what the phone's rules miss (`ShareLint`), newest last.
    var shareWarnings: [JSONValue] = []
    var haptics: [String] = []
    /// The QR scan dialog while it is open.
    var qrScan: QRScanDialog?
    /// The system map while it shows (see OpenSession+Map).
    var mapSurface: MapSurface?
    /// Tabs or sidebar, and the sheets' style, from the window's width (see OpenSession+Adaptive).
    let adaptiveLoop: MachineLoop<AdaptiveLayout>
    var adaptive: AdaptiveLayout { adaptiveLoop.machine }
    /// Native sheets for this server's Studio.
    private(set) var presentations: PresentationController!
    /// Files given ahead of time (the control interface's `pick-files`) for the next request.
    var pendingPick: [String]?
    let networkSession: NetworkSessionPointer
    /// What loading decided — the screen shown, a kiosk's retry — and its timers (see
    /// OpenSession+Loading).
    let loadingLoop: MachineLoop<LoadingMachine>
    var loading: LoadingMachine { loadingLoop.machine }
    /// Set when loading's effects showed a screen, until the outermost event tells `onScreenChanged`.
    var loadingShowedScreen = false
    var loadingTimers: TimerBank<LoadingTimer>!
    /// Called whenever what the window shows changes (for `--check` and state dumps).
    package var onScreenChanged: (() -> Void)?
    /// Called with a notice for the person: a failed sign-in, files that were not uploaded.
    var onNotice: ((String) -> Void)?
    /// Its handlers on main's web view (see OpenSession+Loading), disconnected on `close`.
    var pageSignals: [SignalConnection] = []

    /// What main offers Studio. A kiosk without chrome leaves navigation to Studio: it draws its
    /// own, as in a browser.
    static func capabilities(kiosk: KioskOptions?) -> Set<HostCapability> {
        var offered: Set<HostCapability> = [.nativeNavigation, .authLifecycle, .nativeMediaIntake, .nativeAlerts, .systemShare,
                                            .systemHaptics, .systemQrScanner, .deepLinks, .nativeActionMenus, .nativePresentations,
                                            .nativeActionMenuAnchors, .systemMap]
        if let kiosk, !kiosk.chrome { offered.remove(.nativeNavigation) }
        return offered
    }

    /// Set in a kiosk: retries without a person, no context menu, nothing opens outside.
    let kiosk: KioskOptions?

    /// The app's process-wide services.
    let environment: AppEnvironment

    init(record: ServerRecord, device: DeviceProfile, inspector: Bool, credentials: CredentialStore,
         networkSession: NetworkSessionPointer, environment: AppEnvironment, prewarmSheets: Bool = true, kiosk: KioskOptions? = nil) {
        self.environment = environment
        self.kiosk = kiosk
        loadingLoop = MachineLoop(LoadingMachine(serverName: record.name))
        adaptiveLoop = MachineLoop(AdaptiveLayout(starting: device))
        self.record = record
        self.networkSession = networkSession
        page = StudioPage(.own(session: networkSession, automation: environment.automation != nil), context: .main, profile: device,
                          serverOrigin: record.address.origin, available: Self.capabilities(kiosk: kiosk), environment: environment,
                          trust: PageTrust(origin: record.address.origin, handsOut: kiosk == nil, profileData: ServerStoreFile.profileDirectories(for: record.id, root: environment.profileRoot).data, handoff: environment.handoff,
                                           attended: environment.attended && kiosk == nil, name: record.name))
        auth = ServerAuth(record: record, store: credentials, networkSession: networkSession)
        let settings = webkit_web_view_get_settings(page.view)
        webkit_settings_set_enable_developer_extras(settings, inspector ? 1 : 0)
        webkit_settings_set_user_agent(settings, device.userAgent)
        view = StudioView(page: page)
        page.host = self
        connectSignals()
        connectLoading()
        connectAuth()
        connectUploads()
        view.menus.attach(to: page)
        presentations = PresentationController(main: page, networkSession: networkSession, device: device,
                                               anchor: view.widget, prewarms: prewarmSheets, environment: environment)
        presentations.onChanged = { [weak self] in self?.onScreenChanged?() }
        // A sheet page has the same native surface as main: its alerts, share, haptics and scans.
        presentations.surface = self
        presentations.onPageMade = { [weak self] sheetPage in
            sheetPage.apply(.alertElsewhere(self?.alertSlot.shownElsewhere(for: .sheet) ?? false))
            self?.sheetPageMade(sheetPage)
        }
    }

    /// Shows `request`, `page`'s alert (the slot was free: its session said yes).
    func showAlert(_ request: AlertRequest, for page: StudioPage) {
        alertDialog = AlertDialog(request, parent: page.window) { [weak self, weak page] actionId in
            guard let self, let page else { return }
            self.alertDialog = nil
            self.alertEnded(on: page)
            page.answerAlert(request.alertId, actionId: actionId)
        }
        tellPages(alertSlot.shown(by: role(of: page), among: [.main, .sheet]))
        onScreenChanged?()
    }

    /// Takes `page`'s alert away unanswered (cancelled by Studio, or its document is gone).
    func withdrawAlert(_ alertId: String, for page: StudioPage) {
        guard alertSlot.owner == role(of: page), alertDialog?.request.alertId == alertId else { return }
        alertDialog?.withdraw()
        alertDialog = nil
        alertEnded(on: page)
        onScreenChanged?()
    }

    /// Main's page or the sheet page: which of the two an alert belongs to.
    func role(of page: StudioPage) -> SessionPage { page === self.page ? .main : .sheet }
    /// The page in that role now (the sheet page only while there is one).
    func page(_ role: SessionPage) -> StudioPage? { role == .main ? page : presentations?.preparedPage }

    private func alertEnded(on page: StudioPage) {
        tellPages(alertSlot.ended(by: role(of: page), among: [.main, .sheet]))
    }

    private func tellPages(_ changes: [(page: SessionPage, elsewhere: Bool)]) {
        for change in changes { self.page(change.page)?.apply(.alertElsewhere(change.elsewhere)) }
    }

    package func start() { verifyAndLoad() }

    /// The page the person is looking at, and its menus: a sheet's while one shows, else main's.
    var activePage: StudioPage { presentations.shownPage ?? page }
    var activeMenus: ActionMenuLayer { presentations.shownMenus ?? view.menus }

    /// Ends the session before it is dropped: no signal reaches it or its page any more, and the
    /// page's web process goes with its view. Website data stays on disk for the next visit.
    package func close() {
        pageSignals.disconnect()
        pageSignals = []
        onScreenChanged = nil
        onNotice = nil
        loadingEvent(.closed)
        auth.close()
        fileChooser?.close()
        alertDialog?.withdraw()
        sharePanel?.respond("cancel")
        qrScan?.finish(nil)
        mapSurface?.close()
        view.menus.hide()
        presentations?.close()
        uploader?.cancel()
        page.close()
    }

    private func connectSignals() {
        if kiosk != nil {
            // No context menu (and so no way to the inspector or to reloading by hand).
            cgtk_connect_context_menu(page.view, { _, _, _, _ in 1 }, nil, nil)
        }
    }
}

/// The two pages of a session: main's, and the sheet page of its presentations.
package enum SessionPage: Hashable, Sendable { case main, sheet }
