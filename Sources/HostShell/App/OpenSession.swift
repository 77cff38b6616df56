import BridgeRuntime
import CGtk
import Glibc

/// One saved server's Studio: its own persistent website data, its identity checked before
/// anything loads, the loading mark until the reveal rule holds, clear failure screens with
/// Retry, web-process crash recovery, and links to other origins sent to the browser. A
/// `ShellApp` shows one session at a time in its window.
@MainActor
final class OpenSession {
    let record: ServerRecord
    let page: StudioPage
    let view: StudioView
    /// The app's sign-in with this server (see OpenSession+Auth).
    let auth: ServerAuth
    /// Set while a sign-out waits for Studio's `auth/signed-out`.
    var pendingSignOut: (@MainActor () -> Void)?
    /// The media intake in progress (see OpenSession+Uploads).
    var uploader: Uploader?
    var fileChooser: FileChooser?
    /// The page's native alert while it shows.
    var alertDialog: AlertDialog?
    /// The share panel while it is open, the last choice made in one, recent haptic feedback.
    var sharePanel: SharePanel?
    var lastShare: JSONValue?
    var haptics: [String] = []
    /// The QR scan dialog while it is open.
    var qrScan: QRScanDialog?
    /// Native sheets for this server's Studio.
    private(set) var presentations: PresentationController!
    /// Files given ahead of time (the control interface's `pick-files`) for the next request.
    var pendingPick: [String]?
    let networkSession: NetworkSessionPointer
    private var crashes = CrashLimiter()
    /// Kiosk: failures are retried without a person (see `showFailure`).
    var retriesUnattended = false
    private var retryAttempt = 0
    private var retryGeneration = 0
    /// The retry waiting, for state dumps (null when none).
    private(set) var retryState: JSONValue = .null
    private var finishedAt: Double?
    /// Called whenever what the window shows changes (for `--check` and state dumps).
    var onScreenChanged: (() -> Void)?
    /// Called with a notice for the person: a failed sign-in, files that were not uploaded.
    var onNotice: ((String) -> Void)?

    /// What main offers Studio. A kiosk without chrome leaves navigation to Studio: it draws its
    /// own, as in a browser.
    static func capabilities(kiosk: KioskOptions?) -> Set<HostCapability> {
        var offered: Set<HostCapability> = [.nativeNavigation, .authLifecycle, .nativeMediaIntake, .nativeAlerts, .systemShare,
                                            .systemHaptics, .systemQrScanner, .deepLinks, .nativeActionMenus, .nativePresentations]
        if let kiosk, !kiosk.chrome { offered.remove(.nativeNavigation) }
        return offered
    }

    /// Set in a kiosk: retries without a person, no context menu, nothing opens outside.
    let kiosk: KioskOptions?

    init(record: ServerRecord, device: DeviceProfile, inspector: Bool, credentials: CredentialStore,
         networkSession: NetworkSessionPointer, prewarmSheets: Bool = true, kiosk: KioskOptions? = nil) {
        self.kiosk = kiosk
        retriesUnattended = kiosk != nil
        self.record = record
        self.networkSession = networkSession
        page = StudioPage(.own(session: networkSession, automation: AutomationHost.current != nil), context: .main, profile: device,
                          serverOrigin: record.address.origin, available: Self.capabilities(kiosk: kiosk))
        auth = ServerAuth(record: record, store: credentials, networkSession: networkSession)
        let settings = webkit_web_view_get_settings(page.view)
        webkit_settings_set_enable_developer_extras(settings, inspector ? 1 : 0)
        webkit_settings_set_user_agent(settings, device.userAgent)
        view = StudioView(page: page)
        page.onStateChanged = { [weak self] in
            self?.checkReveal()
            self?.presentations?.mainChanged()
        }
        connectSignals()
        connectAuth()
        connectUploads()
        connectAlerts(page)
        connectSystem(page)
        connectQR(page)
        connectMenus()
        presentations = PresentationController(main: page, networkSession: networkSession, device: device,
                                               anchor: view.widget, prewarms: prewarmSheets)
        presentations.onChanged = { [weak self] in self?.onScreenChanged?() }
        // A sheet page has the same native surface as main: its alerts, share, haptics and scans.
        presentations.onPageMade = { [weak self] sheetPage in
            sheetPage.apply(.alertElsewhere(self?.alertOwner != nil))
            self?.connectAlerts(sheetPage)
            self?.connectSystem(sheetPage)
            self?.connectQR(sheetPage)
        }
    }

    private func connectMenus() {
        page.onMenusChanged = { [weak self] in
            guard let self else { return }
            self.view.menus.update(armed: self.page.session.armedMenu, triggers: self.page.session.triggers)
            self.onScreenChanged?()
        }
        view.menus.onChoose = { [weak self] menuId, actionId in self?.page.menuChosen(menuId, actionId: actionId) }
        view.menus.onDismiss = { [weak self] menuId in self?.page.menuDismissed(menuId) }
    }

    private func connectAlerts(_ page: StudioPage) {
        page.onShowAlert = { [weak self, weak page] request in
            guard let self, let page else { return }
            self.alertDialog = AlertDialog(request, parent: page.window) { [weak self, weak page] actionId in
                self?.alertDialog = nil
                self?.alertOwnerChanged(nil)
                page?.answerAlert(request.alertId, actionId: actionId)
            }
            self.alertOwnerChanged(page)
            self.onScreenChanged?()
        }
        page.onWithdrawAlert = { [weak self, weak page] alertId in
            guard let self, self.alertOwner === page, self.alertDialog?.request.alertId == alertId else { return }
            self.alertDialog?.withdraw()
            self.alertDialog = nil
            self.alertOwnerChanged(nil)
            self.onScreenChanged?()
        }
    }

    /// The page whose alert shows: one alert at a time across main and its sheet page, so the
    /// other page's `alert/present` is `unavailable` meanwhile.
    private weak var alertOwner: StudioPage?

    private func alertOwnerChanged(_ owner: StudioPage?) {
        alertOwner = owner
        for other in [page, presentations?.preparedPage].compactMap({ $0 }) {
            other.apply(.alertElsewhere(owner != nil && owner !== other))
        }
    }

    func start() { verifyAndLoad() }

    /// The page the person is looking at, and its menus: a sheet's while one shows, else main's.
    var activePage: StudioPage { presentations.shownPage ?? page }
    var activeMenus: ActionMenuLayer { presentations.shownMenus ?? view.menus }

    /// Ends the session before it is dropped: no signal reaches it or its page any more, and the
    /// page's web process goes with its view. Website data stays on disk for the next visit.
    func close() {
        g_signal_handlers_disconnect_matched(UnsafeMutableRawPointer(page.view), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                                             Unmanaged.passUnretained(self).toOpaque())
        onScreenChanged = nil
        onNotice = nil
        auth.close()
        fileChooser?.close()
        alertDialog?.withdraw()
        sharePanel?.respond("cancel")
        qrScan?.finish(nil)
        view.menus.close(report: false)
        presentations?.close()
        uploader?.cancel()
        page.close()
    }

    /// Checks the server's identity, then loads Studio; every failure gets a screen with Retry.
    func verifyAndLoad() {
        retryGeneration += 1  // a retry waiting is overtaken
        view.showLoading("Connecting to \(record.name)…")
        finishedAt = nil
        onScreenChanged?()
        // Asynchronous: the loading mark keeps turning while a slow server answers (≤ 10 s).
        IdentityClient.fetch(record.address) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let failure):
                switch failure.kind {
                case .insecure:
                    self.showFailure(title: "The connection to \(self.record.name) isn't secure", detail: failure.message,
                                        icon: "channel-insecure-symbolic")
                case .unreachable:
                    self.showFailure(title: "Can't reach \(self.record.name)",
                                        detail: failure.message + "\nCheck that the server is running and this computer is on its network.")
                case .refused:
                    self.showFailure(title: "\(self.record.name) did not say who it is", detail: failure.message,
                                        icon: "dialog-warning-symbolic")
                }
            case .success(let identity):
                if let explanation = self.record.verify(identity).explanation {
                    self.showFailure(title: "This is not the server you saved", detail: explanation,
                                          icon: "dialog-warning-symbolic")
                } else {
                    self.view.showLoading("Loading \(self.record.name)…")
                    self.page.load(self.record.address.origin.description + "/")
                }
            }
            self.onScreenChanged?()
        }
    }

    /// Loads Studio's start page (after sign-in or sign-out).
    func loadStudio() {
        finishedAt = nil
        view.showLoading("Loading \(record.name)…")
        page.load(record.address.origin.description + "/")
        onScreenChanged?()
    }

    /// A failure screen with Retry; in a kiosk (`retriesUnattended`) nobody would press it, so the
    /// loading mark stays, saying what happened, and Studio is tried again after a pause that
    /// grows with each failure in a row (`KioskBackoff`).
    func showFailure(title: String, detail: String, icon: String = "network-offline-symbolic") {
        guard retriesUnattended else {
            return view.showError(title: title, detail: detail, icon: icon, retry: { [weak self] in self?.verifyAndLoad() })
        }
        retryAttempt += 1
        let delay = KioskBackoff.delay(attempt: retryAttempt)
        retryState = ["attempt": .number(Double(retryAttempt)), "inSeconds": .number(delay), "reason": .string(title)]
        view.showLoading("\(title). Trying again in \(Int(delay)) s…")
        retryGeneration += 1
        let generation = retryGeneration
        MainLoop.after(milliseconds: UInt32(delay * 1000)) { [weak self] in
            guard let self, self.retryGeneration == generation else { return }
            self.verifyAndLoad()
        }
    }

    private func checkReveal() {
        guard !view.isRevealed, page.loadFinished else { return }
        if page.documentStatus >= 400 {
            // Not Studio but the server's error page: say so instead of showing it as the app.
            guard view.screen != "error" else { return }
            let status = page.documentStatus
            showFailure(title: "\(record.name) answered with an error",
                           detail: "Loading Studio failed with HTTP \(status)\(status >= 500 ? " (a problem on the server)" : ""). \(page.uri ?? "")",
                           icon: "dialog-error-symbolic")
            onScreenChanged?()
            return
        }
        let now = monotonicSeconds()
        if finishedAt == nil {
            finishedAt = now
            MainLoop.after(milliseconds: UInt32(LoadingPolicy.revealDelay * 1000) + 10) { [weak self] in self?.checkReveal() }
        }
        if LoadingPolicy.shouldReveal(loadFinished: true, catalogArrived: page.session.catalog != nil,
                                      secondsSinceFinished: now - (finishedAt ?? now)) {
            view.reveal()
            retryAttempt = 0
            retryState = nil
            onScreenChanged?()
        }
    }

    private func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        if kiosk != nil {
            // No context menu (and so no way to the inspector or to reloading by hand).
            cgtk_connect_context_menu(page.view, { _, _, _, _ in 1 }, nil, nil)
        }
        cgtk_connect_load_failed(page.view, { _, _, uri, error, data in
            let session = Unmanaged<OpenSession>.fromOpaque(data!).takeUnretainedValue()
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            let cancelled = error.map { $0.pointee.domain == webkit_network_error_quark() && $0.pointee.code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue } ?? false
            let ignored = error.map { $0.pointee.domain == webkit_policy_error_quark() } ?? false
            guard !cancelled && !ignored else { return 0 }
            let where_ = uri.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated {
                session.showFailure(title: "\(session.record.name) could not be loaded",
                                         detail: "\(reason)\n\(where_)")
                session.onScreenChanged?()
            }
            return 1
        }, me, nil)
        cgtk_connect_process_terminated(page.view, { view, reason, data in
            let session = Unmanaged<OpenSession>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                if session.crashes.recordDeath(at: monotonicSeconds()) {
                    session.view.showLoading("Studio stopped unexpectedly; reloading…")
                    session.finishedAt = nil
                    webkit_web_view_reload(view)
                } else {
                    session.showFailure(title: "Studio keeps stopping",
                                             detail: "The page's process ended more than \(CrashLimiter.maxDeaths) times in \(Int(CrashLimiter.window)) seconds (\(reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? "out of memory" : "crashed")). Retry when the server's Studio is fixed.",
                                             icon: "dialog-error-symbolic")
                }
                session.onScreenChanged?()
            }
        }, me, nil)
        cgtk_connect_decide_policy(page.view, { _, decision, type, data in
            let session = Unmanaged<OpenSession>.fromOpaque(data!).takeUnretainedValue()
            guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION else { return 0 }
            let action = webkit_navigation_policy_decision_get_navigation_action(OpaquePointer(decision))
            guard let request = webkit_navigation_action_get_request(action), let raw = webkit_uri_request_get_uri(request) else { return 0 }
            let url = String(cString: raw)
            let target = MainActor.assumeIsolated { NavigationTarget.decide(url: url, serverOrigin: session.record.address.origin) }
            if target == .stay && type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION { return 0 }
            webkit_policy_decision_ignore(decision)
            // Auxiliary windows never get a bridge: same-origin popups open in the browser too.
            // A kiosk stays on its server: nothing opens in another application.
            if target != .refuse && session.kiosk == nil { g_app_info_launch_default_for_uri(url, nil, nil) }
            return 1
        }, me, nil)
    }
}
