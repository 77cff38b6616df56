import HostCore

/// The bridge state of one page and its pure reducer. It owns negotiation (`config/get`,
/// `frontend/ready`, what is offered and what Studio supports) and the sign-out hand-shake, and
/// routes every other event to the capability machine that owns it: `PageNavigation`,
/// `PresentationRequests`, `PageAlerts`, `ActionMenus`, `SystemFeatures`, `NativeMediaIntake`,
/// `DeepLinkQueue`, `SystemMap`. It tells each the page facts it needs (Studio ready, the page
/// seen), and keeps the rules that span them: a main-frame navigation's start, a new document or
/// a dismissed presentation withdraws what the page had open; a surface coming up closes the
/// open menu first; a waiting deep link is
/// tried once a message made Studio ready; the chrome is reported when it changed.
/// HostShell feeds it events and carries out the effects; nothing here touches a display.
public struct PageSession: Machine, Sendable, Equatable {
    public let context: HostContext
    public var profile: DeviceProfile
    /// What the host can do in this process; offered per context in the `config/get` reply.
    public let available: Set<HostCapability>
    /// What this page is offered: `available`, less the main-only capabilities on a sheet page.
    public let offered: HostCapabilities
    /// The server's origin, for the share rule about its own `/api` and `/__native` trees.
    public let serverOrigin: Origin?

    /// `config/get` arrived in this document.
    public private(set) var negotiated = false
    /// `frontend/ready` arrived in this document: only now may the host send messages.
    public private(set) var frontendReady = false
    public private(set) var studioCapabilities = StudioCapabilities()
    /// Main-frame documents committed so far.
    public private(set) var documents = 0

    /// The capabilities, each with its own state.
    public private(set) var navigation: PageNavigation
    public private(set) var presentations: PresentationRequests
    public private(set) var alerts: PageAlerts
    public private(set) var menus: ActionMenus
    public private(set) var system: SystemFeatures
    public private(set) var mediaIntake: NativeMediaIntake
    public private(set) var deepLinks: DeepLinkQueue
    public private(set) var map: SystemMap

    public init(context: HostContext, profile: DeviceProfile, available: Set<HostCapability>, serverOrigin: Origin? = nil) {
        let offered = HostCapabilities.offered(to: context, available: available)
        self.context = context
        self.profile = profile
        self.available = available
        self.offered = offered
        self.serverOrigin = serverOrigin
        navigation = PageNavigation(context: context, sizeClass: profile.sizeClass)
        presentations = PresentationRequests(context: context, offered: offered.contains(.nativePresentations))
        alerts = PageAlerts(offered: offered.contains(.nativeAlerts))
        menus = ActionMenus(offered: offered.contains(.nativeActionMenus))
        system = SystemFeatures(offered: offered, serverOrigin: serverOrigin)
        mediaIntake = NativeMediaIntake(context: context, offered: offered.contains(.nativeMediaIntake))
        deepLinks = DeepLinkQueue(context: context, offered: offered.contains(.deepLinks))
        map = SystemMap(offered: offered.contains(.systemMap))
    }

    /// The native chrome as it should be drawn now. Without negotiation or a catalog there is
    /// none, and Studio draws its own navigation.
    public var nativeChrome: NativeChrome { navigation.nativeChrome(negotiated: negotiated) }

    /// Applies `event` and returns what the glue must do, in order: a message's reply first,
    /// then what the event asks for, then `.chromeChanged` when the chrome changed.
    public mutating func reduce(_ event: PageEvent) -> [PageEffect] {
        let before = nativeChrome
        var effects = route(event)
        let after = nativeChrome
        if after != before { effects.append(.chromeChanged(after)) }
        return effects
    }

    /// Whether a person can see this page: main always; a sheet page only while it shows a
    /// presentation (a prewarmed page waits hidden, so a dialog of its own would float over
    /// nothing).
    private var isSeen: Bool { context == .main || presentations.presentationId != nil }

    /// Studio can take a deep link now: ready in this document, with `deepLinks`, and a catalog.
    private var studioTakesLinks: Bool {
        frontendReady && studioCapabilities.contains(.deepLinks) && navigation.hasDestinations
    }

    private mutating func route(_ event: PageEvent) -> [PageEffect] {
        switch event {
        case .navigationStarted:
            // §6: what the page had open goes when a main-frame navigation starts, not at its commit.
            return withdrawSurfaces()

        case .documentCommitted:
            // The scan, the menus and the alert belonged to the document that is gone (already
            // withdrawn when its navigation started; a web process that ended had no start).
            let withdrawn = withdrawSurfaces()
            documents += 1
            negotiated = false
            frontendReady = false
            studioCapabilities = StudioCapabilities()
            return withdrawn + navigation.reduce(.documentGone)

        case .rejected(let failure):
            if failure.code == .malformed, failure.type == StudioMessageType.navigationCatalog.rawValue {
                _ = navigation.reduce(.catalogMalformed)
            }
            return [.reply(failure.reply)]

        case .received(let inbound):
            let answer = answer(inbound)
            // Readiness (frontend/ready, a catalog) may have just arrived for a waiting deep
            // link: it is tried on the next turn, after this reply.
            return Array(answer.prefix(1)) + deepLinks.reduce(.pageAnswered(studioTakesLinks: studioTakesLinks)) + answer.dropFirst()

        case .requestSignOut:
            guard frontendReady, context == .main, offered.contains(.authLifecycle),
                  studioCapabilities.contains(.authLifecycle) else { return [] }
            return [.send(.signOutRequest)]

        case .tapDestination(let id): return navigation.reduce(.tapDestination(id, studioReady: frontendReady))
        case .tapBack: return navigation.reduce(.tapBack(studioReady: frontendReady))
        case .sizeClassChanged(let next): return navigation.reduce(.sizeClassChanged(next))
        case .delivered(let message, let accepted):
            switch message {
            case .navigationRequest(let id) where !accepted: return navigation.reduce(.requestRefused(destinationId: id))
            case .navigationOpenPath(let path): return deepLinks.reduce(.delivered(path: path, accepted: accepted))
            default: return []
            }

        case .presentationAvailable(let available): return presentations.reduce(.available(available))
        case .presentationEnded(let id): return presentations.reduce(.ended(presentationId: id, studioReady: frontendReady))
        case .showPresentation(let id, let path): return presentations.reduce(.show(presentationId: id, path: path))
        case .presentationAction(let id, let actionId): return presentations.reduce(.action(presentationId: id, actionId: actionId))
        case .dismissPresentation(let id):
            let effects = presentations.reduce(.dismiss(presentationId: id))
            // Studio is told its presentation was dismissed: what its page had open goes with it (§4).
            return effects.contains(.send(.presentationDismissed(presentationId: id))) ? effects + withdrawSurfaces() : effects

        case .alertElsewhere(let shown): return alerts.reduce(.shownElsewhere(shown))
        case .alertAnswered(let alertId, let actionId): return alerts.reduce(.answered(alertId: alertId, actionId: actionId))

        case .menuOpenRequested(let menuId, let source): return menus.reduce(.openRequested(menuId: menuId, source: source, studioReady: frontendReady))
        case .menuNotShown(let menuId): return menus.reduce(.notShown(menuId: menuId))
        case .menuChosen(let menuId, let actionId): return menus.reduce(.chosen(menuId: menuId, actionId: actionId, studioReady: frontendReady))
        case .menuDismissed(let menuId): return menus.reduce(.dismissed(menuId: menuId, studioReady: frontendReady))
        case .surfaceShown: return menus.reduce(.surfaceShown(studioReady: frontendReady))
        case .armedElsewhere: return menus.reduce(.armedElsewhere)
        case .triggersElsewhere(let ids): return menus.reduce(.triggersElsewhere(ids))

        case .shareClosed: return system.reduce(.shareClosed)
        case .qrScanFinished(let requestId, let value):
            return system.reduce(.scanFinished(requestId: requestId, value: value, studioReady: frontendReady))

        case .credentialAvailable(let available): return mediaIntake.reduce(.credentialAvailable(available))
        case .mediaIntakeFinished(let requestId, let outcome, let count):
            return mediaIntake.reduce(.finished(requestId: requestId, outcome: outcome, uploadedCount: count, studioReady: frontendReady))

        case .deepLink(let path): return deepLinks.reduce(.arrived(path: path, studioTakesLinks: studioTakesLinks))
        case .timerFired(let timer): return deepLinks.reduce(.timerFired(timer, studioTakesLinks: studioTakesLinks))
        case .dropDeepLink: return deepLinks.reduce(.drop)

        case .mapChosen(let mapId, let actionId): return map.reduce(.chosen(mapId: mapId, actionId: actionId, studioReady: frontendReady))
        case .mapClosed(let mapId): return map.reduce(.closed(mapId: mapId, studioReady: frontendReady))
        }
    }

    /// The answer to a valid message: its reply first, then what it asks for.
    private mutating func answer(_ inbound: InboundMessage) -> [PageEffect] {
        let id = inbound.id
        switch inbound.message {
        case .configGet:
            negotiated = true
            return [.reply(.ok(id, ConfigReply(context: context, capabilities: offered).payload))]
        case .frontendReady(let ready):
            frontendReady = true
            studioCapabilities = ready.capabilities
            return [.reply(.ok(id))]
        case .authSignedOut:
            return [.reply(.ok(id)), .studioSignedOut]

        case .navigationCatalog(let catalog): return navigation.reduce(.catalog(catalog, id: id))
        case .navigationState(let state): return navigation.reduce(.state(state, id: id))
        case .navigationChrome(let chrome): return navigation.reduce(.chrome(chrome, id: id))

        case .presentationOpen(let request):
            let asked = studioCapabilities.contains(.nativePresentations)
            return closingOpenMenu(presentations.reduce(.open(request, id: id, studioAsked: asked)))
        case .presentationReady: return presentations.reduce(.ready(id: id))
        case .presentationUpdate(let update): return presentations.reduce(.update(update, id: id))
        case .presentationClose(let closing): return presentations.reduce(.close(presentationId: closing, id: id))
        case .presentationNavigate(let navigate): return presentations.reduce(.navigate(navigate, id: id))

        case .alertPresent(let request): return closingOpenMenu(alerts.reduce(.present(request, id: id, seen: isSeen)))
        case .alertCancel(let alertId): return alerts.reduce(.cancel(alertId: alertId, id: id))

        case .actionMenuArm(let menu): return menus.reduce(.arm(menu, id: id, studioAsked: studioAsksMenus))
        case .actionMenuRegisterTrigger(let trigger): return menus.reduce(.registerTrigger(trigger, id: id, studioAsked: studioAsksMenus))
        case .actionMenuDisarm(let menuId): return menus.reduce(.disarm(menuId: menuId, id: id))
        case .actionMenuUnregisterTrigger(let menuId): return menus.reduce(.unregisterTrigger(menuId: menuId, id: id))
        case .actionMenuPresent: return menus.reduce(.legacyPresent(id: id))

        case .haptic(let feedback): return system.reduce(.haptic(feedback, id: id))
        case .share(let request): return closingOpenMenu(system.reduce(.share(request, id: id, seen: isSeen)))
        case .scanQR(let request): return closingOpenMenu(system.reduce(.scanQR(request, id: id, seen: isSeen)))

        case .mediaIntakeStatus: return mediaIntake.reduce(.status(id: id))
        case .mediaIntake(let request): return mediaIntake.reduce(.start(request, id: id))

        case .mapPresent(let request):
            let asked = studioCapabilities.contains(.systemMap)
            return closingOpenMenu(map.reduce(.present(request, id: id, studioAsked: asked)))
        case .mapDismiss(let mapId): return map.reduce(.dismiss(mapId: mapId, id: id, studioReady: frontendReady))
        }
    }

    /// A surface coming up on this page (an alert, a share panel, a QR scan, a sheet) closes the
    /// open menu first, reported dismissed, as a click outside it would.
    private mutating func closingOpenMenu(_ effects: [PageEffect]) -> [PageEffect] {
        guard let surface = effects.firstIndex(where: \.raisesSurface) else { return effects }
        var all = effects
        all.insert(contentsOf: menus.reduce(.surfaceShown(studioReady: frontendReady)), at: surface)
        return all
    }

    /// Studio said `nativeActionMenus` in this document's `frontend/ready`: `arm` and
    /// `register-trigger` are `unavailable` until then (§6).
    private var studioAsksMenus: Bool { frontendReady && studioCapabilities.contains(.nativeActionMenus) }

    /// Takes away what the page had open natively — its menus (armed, shown, triggers), QR scan,
    /// alert and system map — when a main-frame navigation starts or the document (or the
    /// presentation) it belonged to is gone.
    private mutating func withdrawSurfaces() -> [PageEffect] {
        menus.reduce(.withdrawAll) + system.reduce(.withdrawScan) + alerts.reduce(.withdraw) + map.reduce(.withdraw)
    }
}
