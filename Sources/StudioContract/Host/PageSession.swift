import HostCore

/// Something that happened to one page (a web view with the bridge).
public enum PageEvent: Sendable, Equatable {
    /// A new main-frame document committed, or the shown one ended with its web process: every
    /// document negotiates again (§2), and what the old one left open is gone.
    case documentCommitted
    /// A message from the page that passed decoding.
    case received(InboundMessage)
    /// A message from the page that failed decoding; its reply is `failure.reply`.
    case rejected(BridgeFailure)
    /// The user chose a destination in the native tabs or sidebar.
    case tapDestination(String)
    /// The user pressed the native back button.
    case tapBack
    /// The page's receiver answered a host message: `accepted` is its `true`.
    case delivered(HostMessage, accepted: Bool)
    /// The app is signing out: ask Studio to sign out too (when it speaks the auth lifecycle).
    case requestSignOut
    /// Whether the app now holds a credential for this server (native uploads need one).
    case credentialAvailable(Bool)
    /// Main page: whether a prewarmed sheet page is ready to show a presentation.
    case presentationAvailable(Bool)
    /// Whether another page of the app shows an alert: one alert at a time across main and its
    /// sheet, so this page's `alert/present` is `unavailable` meanwhile.
    case alertElsewhere(Bool)
    /// Main page: the sheet `presentationId` ended (any dismissal): Studio refetches.
    case presentationEnded(presentationId: String)
    /// Sheet page: show `presentationId` at `path`; dismiss it; a header action was pressed.
    case showPresentation(presentationId: String, path: String)
    case dismissPresentation(presentationId: String)
    case presentationAction(presentationId: String, actionId: String)
    /// The person opened the menu `menuId` (a trigger's, or the armed one by a context click).
    case menuOpenRequested(menuId: String)
    /// The menu `menuId` could not be put on screen (GTK took it down at once: another
    /// application holds the pointer and keyboard). Nobody saw it, so Studio hears nothing.
    case menuNotShown(menuId: String)
    /// The person chose `actionId` in the open menu `menuId`, or closed it without a choice.
    case menuChosen(menuId: String, actionId: String)
    case menuDismissed(menuId: String)
    /// Another surface — an alert, a share panel, a QR scan, a sheet — came up, on this page or
    /// the other one of the session: an open menu closes (reported dismissed), as it does when
    /// the person clicks outside it.
    case surfaceShown
    /// A deep link's Studio path: queued until Studio can take it (the newest wins).
    case deepLink(path: String)
    /// A timer the session started fired (see `PageTimer`).
    case timerFired(PageTimer)
    /// Forget the queued deep link (sign-out, the server was removed).
    case dropDeepLink
    /// The share panel closed (whatever was chosen): another share may open.
    case shareClosed
    /// The QR scan `requestId` ended: a value, or nil when cancelled.
    case qrScanFinished(requestId: String, value: String?)
    /// The person pressed a button of the alert `alertId` (the host reports only ids it gave).
    case alertAnswered(alertId: String, actionId: String)
    /// The native media intake `requestId` finished (uploads done, failed or cancelled).
    case mediaIntakeFinished(requestId: String, outcome: MediaIntakeOutcome, uploadedCount: Int)
    /// The window's size class changed (see `AdaptiveLayout`): the chrome is drawn for it; the
    /// selection, the back bar and everything open are kept.
    case sizeClassChanged(SizeClass)
}

/// What the glue must do in answer to an event.
public enum PageEffect: Sendable, Equatable {
    /// Resolve the page's pending `postMessage` Promise.
    case reply(Reply)
    /// Call the page's `tilecastNativeReceiver` with the message.
    case send(HostMessage)
    /// Redraw the native chrome.
    case chromeChanged(NativeChrome)
    /// Studio reported that it signed out (`auth/signed-out`).
    case studioSignedOut
    /// Choose media natively and upload it with the app's credential.
    case startMediaIntake(MediaIntakeRequest)
    /// Make this feedback visible (there is no vibration motor).
    case haptic(HapticFeedback)
    /// Show the share panel for this content (it passed the refusal rules).
    case showShare(ShareRequest)
    /// Main page: open a native sheet for this presentation (the reply already said yes).
    case openPresentation(PresentationOpen)
    /// Sheet page: its prewarm finished (`presentation/ready`).
    case presentationReady
    /// Sheet page: the shown presentation's header, size or dismissibility changed.
    case presentationUpdated(PresentationUpdate)
    /// Sheet page: close the shown sheet; or close it and send main to `path`.
    case closePresentation(presentationId: String)
    case navigateFromPresentation(presentationId: String, path: String)
    /// The armed menu or the triggers changed: redraw the trigger overlays.
    case menusChanged
    /// Show this menu (at the trigger or pointer that asked), closing any other; take the open
    /// menu away (chosen, dismissed, or withdrawn by Studio) without a report.
    case showMenu(ActionMenu)
    case hideMenu
    /// Start or stop one of the session's timers (see `PageTimer`); a fire comes back as `.timerFired`.
    case timer(TimerCommand<PageTimer>)
    /// Start a QR scan for `requestId`.
    case startQRScan(requestId: String)
    /// Take the QR scan away without a result (its document is gone).
    case withdrawQRScan(requestId: String)
    /// Show this alert (one at a time; it belongs to this page).
    case showAlert(AlertRequest)
    /// Take the alert `alertId` away without a report (cancelled, or its document is gone).
    case withdrawAlert(alertId: String)
}

/// The timers of a page session, one per purpose.
public enum PageTimer: Hashable, Sendable {
    /// The queued deep link is due to be tried (now that Studio can take it, or after a refusal).
    case deepLinkDue
    /// The queued deep link's validity (300 s) ran out.
    case deepLinkExpiry
}

/// A deep link waiting for Studio: its path and its delivery attempts.
public struct QueuedDeepLink: Sendable, Equatable {
    public var path: String
    public var attempts = 0
    public var inFlight = false

    public init(path: String) { self.path = path }
}

/// The bridge state of one page and its pure reducer: negotiation, capabilities, the catalog
/// and the native navigation built from it, optimistic selection and roll-back, the back bar.
/// HostShell feeds it events and carries out the effects; nothing here touches a display.
public struct PageSession: Sendable, Equatable {
    public let context: HostContext
    public var profile: DeviceProfile
    /// The window's size class now: tabs or a sidebar (starts as the device's).
    public private(set) var sizeClass: SizeClass
    /// What the host can do in this process; offered per context in the `config/get` reply.
    public let available: Set<HostCapability>

    /// `config/get` arrived in this document.
    public private(set) var negotiated = false
    /// `frontend/ready` arrived in this document: only now may the host send messages.
    public private(set) var frontendReady = false
    public private(set) var studioCapabilities = StudioCapabilities()
    public private(set) var catalog: NavigationCatalog?
    /// Studio's own answer to "where am I": authoritative for the selection.
    public private(set) var activeDestinationId: String?
    /// The destination the user chose natively, shown until the next `navigation/state`.
    public private(set) var pendingDestinationId: String?
    public private(set) var chrome: NavigationChrome?
    public private(set) var documents = 0
    /// The app holds a credential for this server: `system/media-intake-status` says available.
    public private(set) var hasCredential = false
    private var signedOutReported = false
    private var startIntake: MediaIntakeRequest?
    /// A share panel is open: another share gets `unavailable`.
    public private(set) var shareOpen = false
    /// Main: a sheet page is prewarmed and ready; the presentation open now, if any.
    /// Sheet: the presentation it shows now, if any.
    public private(set) var presentationReadyToShow = false
    /// Another page of the app shows an alert (see `PageEvent.alertElsewhere`).
    public private(set) var alertShownElsewhere = false
    public private(set) var presentationId: String?
    /// The menu the next context click opens (the newest arm wins), and the menus with a trigger
    /// control, by menu id.
    public private(set) var armedMenu: ActionMenu?
    public private(set) var triggers: [String: ActionMenuTrigger] = [:]
    /// The menu the person has open, if any (one at a time).
    public private(set) var openMenu: ActionMenu?
    /// The deep link waiting for Studio (the newest wins), its arrival, attempts and next try.
    public private(set) var deepLink: QueuedDeepLink?
    /// The QR scan in progress, by request id: one at a time.
    public private(set) var qrScanRequestId: String?
    /// The alert showing for this page, if any: only one at a time, only a button press ends it.
    public private(set) var alert: AlertRequest?
    /// Effects an event asks for beside its reply (alerts, haptics, share, QR, menus, sheets, deep links), in order.
    private var extraEffects: [PageEffect] = []
    /// The media intake in progress (one at a time), by request id.
    public private(set) var mediaIntakeRequestId: String?
    /// The timers running (only the deep link's today).
    public private(set) var timers = TimerSet<PageTimer>()

    /// The server's origin, for the share rule about its own `/api` and `/__native` trees.
    public let serverOrigin: Origin?

    public init(context: HostContext, profile: DeviceProfile, available: Set<HostCapability>, serverOrigin: Origin? = nil) {
        self.context = context
        self.profile = profile
        sizeClass = profile.sizeClass
        self.available = available
        self.serverOrigin = serverOrigin
    }

    public var offered: HostCapabilities { HostCapabilities.offered(to: context, available: available) }

    /// The native chrome as it should be drawn now. Without negotiation or a catalog there is
    /// none, and Studio draws its own navigation.
    public var nativeChrome: NativeChrome {
        guard negotiated, context == .main, let catalog, !catalog.isEmpty else { return NativeChrome() }
        let selected = pendingDestinationId ?? activeDestinationId
        let backBar = chrome.flatMap { c in c.backLabel.map { BackBar(title: c.title, backLabel: $0) } }
        return NativeChrome(layout: NavigationLayout.make(catalog: catalog, sizeClass: sizeClass),
                            selectedDestinationId: selected, backBar: backBar)
    }

    /// Applies `event` and returns what the glue must do, in order.
    public mutating func reduce(_ event: PageEvent) -> [PageEffect] {
        let before = nativeChrome
        signedOutReported = false
        startIntake = nil
        extraEffects = []
        var effects = handle(event)
        effects += extraEffects
        if signedOutReported { effects.append(.studioSignedOut) }
        if let startIntake { effects.append(.startMediaIntake(startIntake)) }
        let after = nativeChrome
        if after != before { effects.append(.chromeChanged(after)) }
        return effects
    }

    private mutating func handle(_ event: PageEvent) -> [PageEffect] {
        switch event {
        case .documentCommitted:
            // The scan, the menus and the alert belonged to the document that is gone.
            withdrawSurfaces()
            documents += 1
            negotiated = false
            frontendReady = false
            studioCapabilities = StudioCapabilities()
            resetNavigation()
            return []

        case .rejected(let failure):
            // A malformed catalog from the main page also drops the current one (§3).
            if failure.code == .malformed, failure.type == StudioMessageType.navigationCatalog.rawValue, context == .main {
                resetNavigation()
            }
            return [.reply(failure.reply)]

        case .received(let inbound):
            let reply = answer(inbound)
            // Readiness (frontend/ready, a catalog) may have just arrived for a waiting deep link:
            // try it on the next turn (after this reply), unless a try is already due.
            guard deepLinkDeliverable, !timers.isRunning(.deepLinkDue) else { return [.reply(reply)] }
            return [.reply(reply), .timer(timers.start(.deepLinkDue, after: 0))]

        case .tapDestination(let id):
            guard frontendReady, context == .main, let catalog, catalog.destinations.contains(where: { $0.id == id }) else {
                return []
            }
            pendingDestinationId = id
            return [.send(.navigationRequest(destinationId: id))]

        case .tapBack:
            guard frontendReady, context == .main, chrome?.backLabel != nil else { return [] }
            return [.send(.navigationBack)]

        case .delivered(let message, let accepted):
            // Nobody took the request: roll the optimistic selection back at once.
            if case .navigationRequest(let id) = message, !accepted, pendingDestinationId == id {
                pendingDestinationId = nil
            }
            if case .navigationOpenPath(let path) = message, var link = deepLink, link.path == path, link.inFlight {
                link.inFlight = false
                // Taken, or not taken after the last retry: done with it.
                guard !accepted, link.attempts <= DeepLink.maxRetries else { return dropLink() }
                deepLink = link
                return [.timer(timers.start(.deepLinkDue, after: DeepLink.retryDelay(attempt: link.attempts)))]
            }
            return []

        case .presentationAvailable(let available):
            presentationReadyToShow = available
            return []

        case .alertElsewhere(let shown):
            alertShownElsewhere = shown
            return []

        case .sizeClassChanged(let next):
            sizeClass = next  // the chrome follows (reduce reports it); nothing else changes
            return []

        case .presentationEnded(let id):
            guard context == .main, presentationId == id else { return [] }
            presentationId = nil
            return frontendReady ? [.send(.presentationEnded(presentationId: id))] : []

        case .showPresentation(let id, let path):
            guard context == .presentation else { return [] }
            presentationId = id
            return [.send(.presentationShow(presentationId: id, path: path))]

        case .dismissPresentation(let id):
            guard context == .presentation, presentationId == id else { return [] }
            presentationId = nil
            // What the presentation's page had open goes with it (§4).
            withdrawSurfaces()
            return [.send(.presentationDismissed(presentationId: id))]

        case .presentationAction(let id, let actionId):
            guard context == .presentation, presentationId == id else { return [] }
            return [.send(.presentationAction(presentationId: id, actionId: actionId))]

        case .menuOpenRequested(let menuId):
            guard let menu = currentMenu(menuId) else { return [] }
            // Another menu open is dismissed by this one (as a click outside it would).
            let closing = openMenu.map { $0.menuId != menuId ? dismissOpenMenu() : [] } ?? []
            openMenu = menu
            return closing + [.showMenu(menu)]

        case .surfaceShown:
            return dismissOpenMenu()

        case .menuNotShown(let menuId):
            if openMenu?.menuId == menuId { openMenu = nil }
            return []

        case .menuChosen(let menuId, let actionId):
            // Only the open menu, as Studio last sent it, and only an item it has that is enabled.
            guard openMenu?.menuId == menuId, let menu = currentMenu(menuId) else { return [] }
            guard menu.items.contains(where: { $0.id == actionId && !$0.disabled }) else { return [] }
            openMenu = nil
            return [.hideMenu] + (frontendReady ? [.send(.actionMenuAction(menuId: menuId, actionId: actionId))] : [])

        case .menuDismissed(let menuId):
            guard openMenu?.menuId == menuId else { return [] }
            return dismissOpenMenu()

        case .deepLink(let path):
            guard context == .main else { return [] }
            deepLink = QueuedDeepLink(path: path)
            var effects: [PageEffect] = [.timer(timers.start(.deepLinkExpiry, after: DeepLink.validitySeconds))]
            if let due = timers.cancel(.deepLinkDue) { effects.append(.timer(due)) }  // a retry of the old link
            return effects + deliverDeepLink()

        case .timerFired(let timer):
            guard timers.fire(timer) else { return [] }  // stale: cancelled or restarted meanwhile
            switch timer {
            case .deepLinkDue: return deliverDeepLink()
            case .deepLinkExpiry: return dropLink()
            }

        case .dropDeepLink:
            return dropLink()

        case .requestSignOut:
            guard frontendReady, context == .main, offered.contains(.authLifecycle),
                  studioCapabilities.contains(.authLifecycle) else { return [] }
            return [.send(.signOutRequest)]

        case .credentialAvailable(let available):
            hasCredential = available
            return []

        case .shareClosed:
            shareOpen = false
            return []

        case .qrScanFinished(let requestId, let value):
            // A late result for a scan that was settled or withdrawn is dropped.
            guard qrScanRequestId == requestId else { return [] }
            qrScanRequestId = nil
            guard frontendReady else { return [] }
            return [.send(HostMessage.boundedQRResult(requestId: requestId, value: value))]

        case .alertAnswered(let alertId, let actionId):
            // A late or foreign answer (the alert was withdrawn, or never had that button) is dropped.
            guard let alert, alert.alertId == alertId, alert.actions.contains(where: { $0.id == actionId }) else { return [] }
            self.alert = nil
            return [.send(.alertAction(alertId: alertId, actionId: actionId))]

        case .mediaIntakeFinished(let requestId, let outcome, let count):
            guard mediaIntakeRequestId == requestId else { return [] }
            mediaIntakeRequestId = nil
            guard frontendReady, context == .main else { return [] }
            return [.send(.mediaIntakeCompleted(requestId: requestId, outcome: outcome, uploadedCount: min(count, 1000)))]
        }
    }

    /// Closes the open menu without a choice, reporting it dismissed while Studio is still there.
    private mutating func dismissOpenMenu() -> [PageEffect] {
        guard let menu = openMenu else { return [] }
        openMenu = nil
        return [.hideMenu] + (frontendReady && currentMenu(menu.menuId) != nil ? [.send(.actionMenuDismissed(menuId: menu.menuId))] : [])
    }

    /// The open menu went (disarmed, unregistered, its document gone): it closes unreported.
    private mutating func closeWithdrawnMenu() {
        guard let open = openMenu, currentMenu(open.menuId) == nil else { return }
        openMenu = nil
        extraEffects.append(.hideMenu)
    }

    /// The menu `menuId` as it is now: armed, or with a trigger.
    public func currentMenu(_ menuId: String) -> ActionMenu? {
        if let armedMenu, armedMenu.menuId == menuId { return armedMenu }
        return triggers[menuId]?.menu
    }

    /// Whether a person can see this page: main always; a sheet page only while it shows a
    /// presentation (a prewarmed page waits hidden, so a dialog of its own would float over
    /// nothing).
    private var isSeen: Bool { context == .main || presentationId != nil }

    /// A deep link waits, none of its tries is in flight, and Studio can take it now (ready,
    /// `deepLinks`, a catalog).
    private var deepLinkDeliverable: Bool {
        guard let link = deepLink, !link.inFlight, frontendReady, studioCapabilities.contains(.deepLinks),
              offered.contains(.deepLinks), let catalog else { return false }
        return !catalog.isEmpty
    }

    /// Sends the queued deep link when Studio can take it and no retry pause runs; otherwise it
    /// waits for the message that makes Studio ready (no polling) or for its expiry.
    private mutating func deliverDeepLink() -> [PageEffect] {
        guard deepLinkDeliverable, !timers.isRunning(.deepLinkDue), var link = deepLink else { return [] }
        link.attempts += 1
        link.inFlight = true
        deepLink = link
        return [.send(.navigationOpenPath(path: link.path))]
    }

    /// Forgets the queued deep link and its timers.
    private mutating func dropLink() -> [PageEffect] {
        deepLink = nil
        return [timers.cancel(.deepLinkDue), timers.cancel(.deepLinkExpiry)].compactMap { $0.map(PageEffect.timer) }
    }

    /// Takes away what the page had open natively — its menus, QR scan and alert — when the
    /// document (or the presentation) it belonged to is gone.
    private mutating func withdrawSurfaces() {
        if armedMenu != nil || !triggers.isEmpty {
            armedMenu = nil
            triggers = [:]
            extraEffects.append(.menusChanged)
        }
        closeWithdrawnMenu()
        if let scan = qrScanRequestId {
            qrScanRequestId = nil
            extraEffects.append(.withdrawQRScan(requestId: scan))
        }
        if let alert {
            self.alert = nil
            extraEffects.append(.withdrawAlert(alertId: alert.alertId))
        }
    }

    private mutating func resetNavigation() {
        catalog = nil
        activeDestinationId = nil
        pendingDestinationId = nil
        chrome = nil
    }

    /// The reply to a valid message, applying what it says.
    private mutating func answer(_ inbound: InboundMessage) -> Reply {
        let id = inbound.id
        switch inbound.message {
        case .configGet:
            negotiated = true
            return .ok(id, ConfigReply(context: context, capabilities: offered).payload)

        case .frontendReady(let ready):
            frontendReady = true
            studioCapabilities = ready.capabilities
            return .ok(id)

        case .navigationCatalog(let newCatalog):
            if newCatalog.isEmpty {
                resetNavigation()  // withdrawn: chrome resets too
            } else {
                catalog = newCatalog
                let ids = Set(newCatalog.destinations.map(\.id))
                if let active = activeDestinationId, !ids.contains(active) { activeDestinationId = nil }
                if let pending = pendingDestinationId, !ids.contains(pending) { pendingDestinationId = nil }
            }
            return .ok(id)

        case .navigationState(let state):
            activeDestinationId = state.activeDestinationId
            pendingDestinationId = nil  // settle: Studio's answer wins, which may roll the tap back
            return .ok(id)

        case .navigationChrome(let newChrome):
            chrome = newChrome
            return .ok(id)

        case .authSignedOut:
            signedOutReported = true
            return .ok(id)

        case .haptic(let feedback):
            guard offered.contains(.systemHaptics) else { return .failure(id: id, code: .unavailable) }
            if let feedback { extraEffects.append(.haptic(feedback)) }  // an unknown kind does nothing
            return .ok(id)

        case .share(let request):
            guard offered.contains(.systemShare), !shareOpen, isSeen else { return .failure(id: id, code: .unavailable) }
            guard case .allowed = SharePolicy.verdict(for: request, serverOrigin: serverOrigin) else {
                return .failure(id: id, code: .unavailable)
            }
            shareOpen = true
            extraEffects += dismissOpenMenu()
            extraEffects.append(.showShare(request))
            return .ok(id)

        case .scanQR(let request):
            guard offered.contains(.systemQrScanner), qrScanRequestId == nil, isSeen else { return .failure(id: id, code: .unavailable) }
            qrScanRequestId = request.requestId
            extraEffects += dismissOpenMenu()
            extraEffects.append(.startQRScan(requestId: request.requestId))
            return .ok(id)

        case .alertPresent(let request):
            guard offered.contains(.nativeAlerts), alert == nil, !alertShownElsewhere, isSeen else { return .failure(id: id, code: .unavailable) }
            alert = request
            extraEffects += dismissOpenMenu()
            extraEffects.append(.showAlert(request))
            return .ok(id)

        case .alertCancel(let alertId):
            if let alert, alert.alertId == alertId {
                self.alert = nil
                extraEffects.append(.withdrawAlert(alertId: alertId))
            }
            return .ok(id)  // withdrawing what is not showing is ignored (§3)

        case .actionMenuArm(let menu):
            guard offered.contains(.nativeActionMenus) else { return .failure(id: id, code: .unavailable) }
            armedMenu = menu
            extraEffects.append(.menusChanged)
            return .ok(id)

        case .actionMenuRegisterTrigger(let trigger):
            guard offered.contains(.nativeActionMenus) else { return .failure(id: id, code: .unavailable) }
            triggers[trigger.menu.menuId] = trigger
            extraEffects.append(.menusChanged)
            return .ok(id)

        case .actionMenuDisarm(let menuId):
            // Withdrawing something that is not there is ignored (§3).
            if armedMenu?.menuId == menuId {
                armedMenu = nil
                extraEffects.append(.menusChanged)
                closeWithdrawnMenu()
            }
            return .ok(id)

        case .actionMenuUnregisterTrigger(let menuId):
            if triggers.removeValue(forKey: menuId) != nil {
                extraEffects.append(.menusChanged)
                closeWithdrawnMenu()
            }
            return .ok(id)

        case .mediaIntakeStatus:
            var payload = JSONObject()
            payload["available"] = .bool(hasCredential && offered.contains(.nativeMediaIntake))
            return .ok(id, payload)

        case .mediaIntake(let request):
            // Without a credential (signed out, older server) Studio uses its browser uploader.
            guard hasCredential, offered.contains(.nativeMediaIntake), mediaIntakeRequestId == nil else {
                return .failure(id: id, code: .unavailable)
            }
            mediaIntakeRequestId = request.requestId
            startIntake = request
            return .ok(id)

        case .presentationOpen(let request):
            // One sheet at a time, only with a ready prewarmed page, only for a Studio that asked for them.
            guard offered.contains(.nativePresentations), studioCapabilities.contains(.nativePresentations),
                  presentationReadyToShow, presentationId == nil else { return .failure(id: id, code: .unavailable) }
            presentationId = request.presentationId
            extraEffects += dismissOpenMenu()
            extraEffects.append(.openPresentation(request))
            return .ok(id)

        case .presentationReady:
            extraEffects.append(.presentationReady)
            return .ok(id)

        case .presentationUpdate(let update):
            // A stale id (a sheet already gone, or another one) is ignored.
            if update.presentationId == presentationId { extraEffects.append(.presentationUpdated(update)) }
            return .ok(id)

        case .presentationClose(let closing):
            if closing == presentationId { extraEffects.append(.closePresentation(presentationId: closing)) }
            return .ok(id)

        case .presentationNavigate(let navigate):
            if navigate.presentationId == presentationId {
                extraEffects.append(.navigateFromPresentation(presentationId: navigate.presentationId, path: navigate.path))
            }
            return .ok(id)

        case .actionMenuPresent:
            // The legacy menu: Studio falls back to its arm/trigger menus or its web menu.
            return .failure(id: id, code: .unavailable)
        }
    }
}
