import CGtk
import HostCore
import ShellKit
import StudioContract

/// Carries out `PresentationLifecycle` for one main page: it makes and drops the sheet page (a
/// WebKit view in main's web process and network session, at `/__native/modal`) and its
/// in-window sheet, passes the pages' presentation effects and the person's presses to the
/// machine, and runs its timers. Every rule — when to prewarm, the ready limit, the pause after
/// memory pressure, what dismisses and what is reported, how long a page let go of is kept for
/// its replies — is the machine's.
@MainActor
package final class PresentationController {
    private let main: StudioPage
    private let networkSession: NetworkSessionPointer
    private let device: DeviceProfile
    /// The window's size class: the sheet's style (a bottom sheet when compact, a panel when regular).
    private var sizeClass: SizeClass
    /// The main view's root: phone sheets rise over it; its window is the parent of the others.
    private let anchor: WidgetPointer
    private let loop: MachineLoop<PresentationLifecycle>
    var life: PresentationLifecycle { loop.machine }
    private var timers: TimerBank<PresentationLifecycle.Timer>!
    /// The sheet page and its sheet in the window, by the machine's page id.
    private var sheetPage: StudioPage?
    private var pageId = 0
    private var layer: InWindowSheet?
    /// A shown sheet whose page failed (its page let go of): it stays until Retry or dismissal.
    private var failedLayer: InWindowSheet?
    /// The sheet the person sees (or the one waiting with its page).
    private var visibleLayer: InWindowSheet? { failedLayer ?? layer }
    /// Pages let go of, by id: hidden and unreachable, their bridge closed, until released.
    private var lettingGo: [Int: StudioPage] = [:]
    /// Main's documents so far, as last seen (a new one ends what showed over the old).
    private var mainDocuments = 0
    /// Called when what shows changed (state dumps).
    var onChanged: (() -> Void)?
    /// Called with each sheet page made (to tell it whether an alert shows elsewhere).
    var onPageMade: ((StudioPage) -> Void)?
    /// Carries out what the sheet page shares with main: alerts, share, haptics, QR scans.
    weak var surface: (any StudioPageHost)?

    private let environment: AppEnvironment

    init(main: StudioPage, networkSession: NetworkSessionPointer, device: DeviceProfile, anchor: WidgetPointer, prewarms: Bool,
         environment: AppEnvironment) {
        self.environment = environment
        self.main = main
        self.networkSession = networkSession
        self.device = device
        sizeClass = device.sizeClass
        self.anchor = anchor
        loop = MachineLoop(PresentationLifecycle(prewarms: prewarms))
        timers = TimerBank { [weak self] timer in self?.send(.timerFired(timer)) }
        environment.memoryPressure.watch(self) { [weak self] in self?.send(.memoryPressure) }
    }

    /// Main's page asked for a sheet (its session already said yes).
    func open(_ request: PresentationOpen) { send(.open(request, now: monotonicSeconds())) }

    /// Feeds the machine an event and carries out what it asks, in order.
    func send(_ event: PresentationLifecycle.Event) {
        guard loop.send(event, perform: { self.perform($0) }) else { return }  // queued behind the effects running
        onChanged?()
    }

    /// Main's state changed: a new document (a sheet shown belonged to the old one), and
    /// whether it can take presentations now.
    func mainChanged() {
        let session = main.session
        if session.documents != mainDocuments {
            mainDocuments = session.documents
            send(.mainDocumentChanged)
        }
        let ready = session.frontendReady && session.studioCapabilities.contains(.nativePresentations)
            && !(session.catalog?.isEmpty ?? true)
        if ready != life.mainReady { send(.mainReady(ready)) }
    }

    private func perform(_ effect: PresentationLifecycle.Effect) {
        switch effect {
        case .makePage(let id, let size): makePage(id: id, size: size)
        case .discardPage(let id): if id == pageId { letGo(id) }
        case .confirmRepliesRun(let id):
            lettingGo[id]?.whenRepliesRun { [weak self] in self?.send(.repliesRun(page: id)) }
        case .releasePage(let id): release(id)
        case .showSheet(let request):
            closeFailed()
            sheetPage?.web.outOfSight = false
            layer?.show(request)
            layer?.content.apply(navigation: life.shown?.navigationButton, label: nil)
        case .hideSheet:
            closeFailed()
            layer?.hide()
            sheetPage?.web.outOfSight = true
        case .showFailure(let failure):
            // The sheet stays with the failed state; its page is let go of next, without it.
            closeFailed()
            layer?.content.showFailure(failure.message)
            failedLayer = layer
            layer = nil
        case .waitForPaint(let id):
            sheetPage?.web.whenPainted(limit: PresentationLifecycle.paintWaitLimit) { [weak self] seen in self?.send(.painted(presentationId: id, now: monotonicSeconds(), seen: seen)) }
        case .reveal: layer?.content.reveal()
        case .applyHeader(let header, let navigation):
            layer?.content.apply(header: header)
            layer?.content.apply(navigation: navigation, label: header.navigationLabel)
        case .applySize(let size): visibleLayer?.apply(size: size)
        case .applyDismissible(let dismissible, let navigation):
            layer?.content.apply(dismissible: dismissible)
            layer?.content.apply(navigation: navigation, label: life.shown?.header?.navigationLabel)
        case .toSheet(let event): sheetPage?.apply(event)
        case .toMain(let event): main.apply(event)
        case .timer(let command): timers.perform(command)
        case .report(let text): printError("hostshell: \(text)")
        }
    }

    private func makePage(id: Int, size: PresentationSize) {
        // Under WebDriver a page beside main would be driven too (WebKit gives it main's
        // automation mode) and show up as a second window: there it keeps a process of its own.
        let home: StudioPage.Home = environment.automation != nil ? .own(session: networkSession, automation: false) : .beside(main)
        let page = StudioPage(home, context: .presentation, profile: device, serverOrigin: main.serverOrigin,
                              available: [.nativeAlerts, .systemShare, .systemHaptics, .systemQrScanner, .nativeActionMenus, .nativePresentations,
                                          .nativeActionMenuAnchors],
                              environment: environment, trust: main.web.trust)
        webkit_settings_set_user_agent(webkit_web_view_get_settings(page.view), device.userAgent)
        g_object_ref_sink(UnsafeMutableRawPointer(page.view))  // ours as well as its sheet's
        sheetPage = page
        pageId = id
        page.host = self
        page.web.outOfSight = true  // it boots hidden; shown by .showSheet
        // It waits laid out at `size`: a page laid out at its sheet's size already paints sooner.
        let layer = InWindowSheet(page: page, style: sizeClass.sheetStyle, overlay: anchor, size: size)
        layer.content.menus.attach(to: page)
        layer.content.onDismiss = { [weak self] in self?.send(.dismissRequested) }
        layer.content.onNavigation = { [weak self] in self?.send(.navigationPressed) }
        layer.content.onAction = { [weak self] actionId in self?.send(.actionPressed(actionId)) }
        layer.content.onRetry = { [weak self] in self?.send(.retryPressed(now: monotonicSeconds())) }
        self.layer = layer
        onPageMade?(page)
        page.load(main.serverOrigin.description + "/__native/modal")
    }


    /// Takes the sheet away and lets go of its page, which is kept until the machine releases it.
    private func letGo(_ id: Int) {
        let page = sheetPage
        sheetPage = nil
        layer?.close()
        layer = nil
        guard let page else { return }
        page.letGo()
        lettingGo[id] = page
    }

    private func closeFailed() {
        failedLayer?.close()
        failedLayer = nil
    }

    /// Drops a page let go of: its document ends. (A script call WebKit still runs for it holds
    /// the view until the call ends: one whose page's script is stuck for good — main's too, in
    /// the same process — keeps it that long.)
    private func release(_ id: Int) {
        guard let page = lettingGo.removeValue(forKey: id) else { return }
        page.close()
        // Let go of the view once WebKit has finished with this turn of the loop (the page may
        // be released from inside one of its own signals).
        let view = UnsafeMutableRawPointer(page.view)
        MainLoop.after(milliseconds: 0) { g_object_unref(view) }
    }

    /// The window's size class changed: the sheet, shown or waiting, takes its style in place.
    func relayout(_ sizeClass: SizeClass) {
        self.sizeClass = sizeClass
        layer?.apply(style: sizeClass.sheetStyle)
        failedLayer?.apply(style: sizeClass.sheetStyle)
        onChanged?()
    }

    /// Drops the page waiting hidden (main went to `/login` or was signed out: it would carry
    /// the old sign-in).
    func discard() { send(.discardHidden) }

    package func close() {
        environment.memoryPressure.forget(self)
        send(.close)
        closeFailed()
        timers.cancelAll()
        onChanged = nil
        onPageMade = nil
    }

    /// The control interface: dismiss the shown sheet as the person would, press a header action.
    func dismiss() { send(.dismissRequested) }
    /// Press Retry on the failed sheet; false when no sheet shows failed.
    func retry() -> Bool {
        guard life.shown?.failure != nil else { return false }
        send(.retryPressed(now: monotonicSeconds()))
        return true
    }
    func pressAction(_ actionId: String) -> Bool {
        guard let shown = life.shown, shown.offers(actionId) else { return false }
        send(.actionPressed(actionId))
        return true
    }

    /// For state dumps.
    var stateJSON: JSONValue {
        let shown: JSONValue = life.shown.map { shown in
            ["presentationId": .string(shown.presentationId), "path": .string(shown.request.path),
             "title": .string(shown.title), "revealed": .bool(shown.revealed), "dismissible": .bool(shown.dismissible),
             "navigation": shown.navigationButton.map { .string($0.rawValue) } ?? .null,
             "size": .string(shown.size.rawValue), "style": .string(visibleLayer?.style.rawValue ?? ""),
             "failed": shown.failure.map { .string($0.rawValue) } ?? .null,
             "bounds": visibleLayer?.bounds.map { b in ["x": .number(Double(b.x)), "y": .number(Double(b.y)),
                                                  "width": .number(Double(b.width)), "height": .number(Double(b.height))] } ?? .null]
        } ?? .null
        return ["ready": .bool(life.page?.ready == true), "prepared": .bool(life.page != nil), "shown": shown,
                "prewarming": .bool(life.prewarmingNow), "pageBoots": .number(Double(life.pagesMade)),
                "lastOpen": life.lastOpen.map { ["milliseconds": .number($0.milliseconds), "prewarmed": .bool($0.prewarmed),
                                                 "painted": .bool($0.painted)] } ?? .null]
    }

    var ready: Bool { life.page?.ready == true }
    var isShowing: Bool { life.shown != nil }
    var isDismissible: Bool { life.shown?.dismissible ?? false }
    /// The sheet page, whatever its state (to keep it in step with main).
    var preparedPage: StudioPage? { sheetPage }
    /// The sheet page, once it has said it is ready (prewarmed, or showing a sheet).
    var readyPage: StudioPage? { ready || (life.shown.map { !$0.waitingForReady } ?? false) ? sheetPage : nil }
    /// The page of the sheet shown, and its menus: what the person is looking at.
    var shownPage: StudioPage? { life.shown != nil ? sheetPage : nil }
    var shownMenus: ActionMenuLayer? { life.shown != nil ? layer?.content.menus : nil }
}

/// The controller as the sheet page's performer: the presentation's effects become the life
/// cycle's events, the sheet's menus are drawn in its layer, and the rest is the session's.
extension PresentationController: StudioPageHost {
    package func perform(_ effect: PageEffect, for page: StudioPage) {
        guard page === sheetPage else { return }
        switch effect {
        case .presentationReady: send(.pageReady(page: pageId))
        case .presentationUpdated(let update): send(.updated(update))
        case .closePresentation(let presentationId): send(.closeRequested(presentationId: presentationId))
        case .navigateFromPresentation(let presentationId, let path): send(.navigateRequested(presentationId: presentationId, path: path))
        case .menusChanged, .showMenu, .hideMenu:
            _ = layer?.content.menus.perform(effect, for: page)
            // Who owns the window's armed menu and each trigger is the session's to keep.
            if effect == .menusChanged { surface?.perform(effect, for: page) }
            onChanged?()
        default: surface?.perform(effect, for: page)
        }
    }

    package func studioPage(_ page: StudioPage, delivered message: HostMessage, accepted: Bool) {
        guard page === sheetPage, case .presentationShow(let presentationId, _) = message else { return }
        send(.showAnswered(presentationId: presentationId, accepted: accepted, now: monotonicSeconds()))
    }

    package func studioPageProcessEnded(_ page: StudioPage, reason: WebKitWebProcessTerminationReason) {
        guard page === sheetPage else { return }
        // WebKit is still telling the process's other views (main's page shares it) that it
        // ended: drop this page, and report main's readiness, once it is done.
        let id = pageId
        MainLoop.after(milliseconds: 0) { [weak self] in
            self?.send(.pageFailed(page: id))
            self?.mainChanged()
        }
    }
}
