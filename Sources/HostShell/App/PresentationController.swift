import BridgeRuntime
import CGtk

/// Native presentations (sheets) for one main page (CONTRACT.md §4 "Presentations"): once main
/// is ready with a catalog and Studio asked for presentations, one sheet page is prewarmed at
/// `/__native/modal` in main's web process and network session (same sign-in: a page more, not
/// a process more, and its first frames come from a warm process); it negotiates as `presentation`
/// and says `presentation/ready` (within 20 s, or it is discarded). `presentation/open` shows the
/// sheet at once with the loading mark and sends `presentation/show`; the mark goes once Studio
/// has painted. A refusal or any dismissal sends `presentation/dismissed` to the sheet page and
/// `presentation/ended` to main, and a fresh page is prewarmed for the next one.
///
/// Without prewarming (`--no-prewarm`, or for a minute after the system reported memory
/// pressure, which discards the prewarmed page) sheets still open: the page loads when one is
/// asked for, behind the same loading mark, which is slower but keeps no second page in memory.
@MainActor
final class PresentationController {
    private let main: StudioPage
    private let networkSession: NetworkSessionPointer
    private let device: DeviceProfile
    /// The main view's root: phone sheets rise over it; its window is the parent of the others.
    private let anchor: WidgetPointer
    private var sheetPage: StudioPage?
    /// The sheet page's sheet in the window: built with the page, shown while `shown` is set.
    private var layer: InWindowSheet?
    private var sheet: InWindowSheet? { shown != nil ? layer : nil }
    private var shown: PresentationOpen?
    private var shownSize = PresentationSize.full
    /// The size the last sheet opened at.
    private var lastSize = PresentationSize.full
    /// Set while a sheet opened without a ready page waits for `presentation/ready`.
    private var showWhenReady = false
    private var prewarmGeneration = 0
    private(set) var ready = false
    /// Set while `mainChanged` runs: what it does changes main's state, which calls it again.
    private var updating = false
    /// After `close`, nothing is prewarmed again.
    private var closed = false
    private let prewarms: Bool
    /// Prewarming pauses until then (monotonic seconds) after memory pressure.
    private var pressureUntil = 0.0
    static let readyTimeout: UInt32 = 20_000
    static let pressurePause = 60.0
    /// When the shown sheet was asked for, and how long the last one took to show Studio's paint.
    private var openedAt = 0.0
    private(set) var lastOpen: (milliseconds: Double, prewarmed: Bool, painted: Bool)?
    private var openedPrewarmed = false
    /// Called when what shows changed (state dumps).
    var onChanged: (() -> Void)?
    /// Called with each sheet page made, to give it the session's native surface.
    var onPageMade: ((StudioPage) -> Void)?

    init(main: StudioPage, networkSession: NetworkSessionPointer, device: DeviceProfile, anchor: WidgetPointer, prewarms: Bool) {
        self.main = main
        self.networkSession = networkSession
        self.device = device
        self.anchor = anchor
        self.prewarms = prewarms
        main.onPresentationEffect = { [weak self] effect in
            guard let self, case .openPresentation(let request) = effect else { return }
            self.open(request)
        }
        MemoryPressure.shared.watch(self) { [weak self] in self?.memoryPressure() }
    }

    private var prewarmingNow: Bool { prewarms && monotonicSeconds() >= pressureUntil }

    /// Called as main's state changes: prewarm when it becomes ready for presentations (or, when
    /// not prewarming, offer sheets that load on demand).
    func mainChanged() {
        guard !updating, !closed else { return }
        updating = true
        defer { updating = false }
        let session = main.session
        let wanted = session.frontendReady && session.studioCapabilities.contains(.nativePresentations)
            && !(session.catalog?.isEmpty ?? true)
        if !wanted {
            if sheetPage != nil && shown == nil { discard() }
            return
        }
        if prewarmingNow {
            if sheetPage == nil && shown == nil { sheetPage = makePage() }
        } else if shown == nil && !session.presentationReadyToShow {
            main.apply(.presentationAvailable(true))  // opens load the page then
        }
    }

    /// The system is short of memory: drop the prewarmed page (not a sheet in use) and prewarm
    /// again only after a pause. Sheets keep opening, on demand.
    func memoryPressure() {
        guard !closed else { return }
        pressureUntil = monotonicSeconds() + Self.pressurePause
        if shown == nil && sheetPage != nil { discard() }
        mainChanged()
        MainLoop.after(milliseconds: UInt32(Self.pressurePause * 1000) + 100) { [weak self] in self?.mainChanged() }
        onChanged?()
    }

    private func makePage() -> StudioPage {
        prewarmGeneration += 1
        let generation = prewarmGeneration
        // Under WebDriver a page beside main would be driven too (WebKit gives it main's
        // automation mode) and show up as a second window: there it keeps a process of its own.
        let home: StudioPage.Home = AutomationHost.current != nil ? .own(session: networkSession, automation: false) : .beside(main)
        let page = StudioPage(home, context: .presentation, profile: device, serverOrigin: main.serverOrigin,
                              available: [.nativeAlerts, .systemShare, .systemHaptics, .systemQrScanner, .nativeActionMenus, .nativePresentations])
        webkit_settings_set_user_agent(webkit_web_view_get_settings(page.view), device.userAgent)
        g_object_ref_sink(UnsafeMutableRawPointer(page.view))  // ours as well as its sheet's
        page.onPresentationEffect = { [weak self] effect in self?.sheetEffect(effect) }
        page.onDelivered = { [weak self] message, accepted in
            guard let self, case .presentationShow(let id, _) = message, self.shown?.presentationId == id else { return }
            if accepted {
                // Studio took the path and drew it: reveal once that has been painted.
                page.whenPainted { [weak self] painted in
                    guard let self, self.shown?.presentationId == id, let sheet = self.sheet else { return }
                    sheet.content.reveal()
                    // painted false: revealed at the time limit, without Studio's paint seen.
                    self.lastOpen = ((monotonicSeconds() - self.openedAt) * 1000, self.openedPrewarmed, painted)
                    self.onChanged?()
                }
            } else {
                self.dismiss()  // the sheet page refused it
            }
        }
        // Waiting at the size the last sheet had: Studio's sheets tend to repeat (a preview after
        // a preview), and a page laid out at its size already paints sooner.
        let layer = InWindowSheet(page: page, device: device, overlay: anchor, size: lastSize)
        layer.content.menus.onChoose = { [weak page] menuId, actionId in page?.menuChosen(menuId, actionId: actionId) }
        layer.content.menus.onDismiss = { [weak page] menuId in page?.menuDismissed(menuId) }
        layer.content.onDismiss = { [weak self] in self?.dismiss() }
        layer.content.onAction = { [weak self] actionId in
            guard let self, let id = self.shown?.presentationId else { return }
            self.sheetPage?.apply(.presentationAction(presentationId: id, actionId: actionId))
        }
        self.layer = layer
        page.onMenusChanged = { [weak self, weak page] in
            guard let self, let page, self.sheetPage === page else { return }
            self.layer?.content.menus.update(armed: page.session.armedMenu, triggers: page.session.triggers)
            self.onChanged?()
        }
        onPageMade?(page)
        page.onWebProcessTerminated = { [weak self] in
            // A failed page is discarded; a fresh one is prewarmed (the sheet showing, if any, ends).
            guard let self else { return }
            MainLoop.after(milliseconds: 0) { [weak self] in
                guard let self else { return }
                if self.shown != nil { self.dismiss() } else { self.discard(); self.mainChanged() }
            }
        }
        page.load(main.serverOrigin.description + "/__native/modal")
        MainLoop.after(milliseconds: Self.readyTimeout) { [weak self] in
            guard let self, self.prewarmGeneration == generation, !self.ready else { return }
            if self.showWhenReady {
                printError("hostshell: the presentation page was not ready within 20 s; the sheet is closed")
                self.dismiss()
            } else if self.shown == nil {
                printError("hostshell: the presentation page was not ready within 20 s; sheets are unavailable until it is")
                self.discard()
            }
        }
        return page
    }

    private func sheetEffect(_ effect: PageEffect) {
        switch effect {
        case .presentationReady:
            if let request = shown, showWhenReady {
                showWhenReady = false  // opened on demand: now it can be shown
                sheetPage?.apply(.showPresentation(presentationId: request.presentationId, path: request.path))
            } else if shown == nil {
                ready = true
                main.apply(.presentationAvailable(true))
            }
        case .presentationUpdated(let update):
            if let header = update.header { sheet?.content.apply(header: header) }
            if let size = update.size, shown != nil {
                shownSize = size
                sheet?.apply(size: size)
            }
            if let dismissible = update.dismissible { sheet?.content.apply(dismissible: dismissible) }
        case .closePresentation:
            dismiss()
        case .navigateFromPresentation(_, let path):
            dismiss()
            main.openDeepLink(path)  // delivered as navigation/open-path, with the same readiness rules
        default:
            break
        }
        onChanged?()
    }

    private func open(_ request: PresentationOpen) {
        let warm = sheetPage != nil && ready
        let page = sheetPage ?? makePage()
        sheetPage = page
        shown = request
        shownSize = request.size
        lastSize = request.size
        openedAt = monotonicSeconds()
        openedPrewarmed = warm
        ready = false
        main.apply(.presentationAvailable(false))
        if warm {
            // Studio starts drawing while the sheet is built.
            page.apply(.showPresentation(presentationId: request.presentationId, path: request.path))
        } else {
            showWhenReady = true  // still loading: shown when it says presentation/ready
        }
        layer?.show(request)
        onChanged?()
    }

    /// Ends the shown sheet: dismissed to the sheet page, ended to main, and a fresh prewarm.
    func dismiss() {
        guard let request = shown else { return }
        shown = nil
        showWhenReady = false
        sheetPage?.apply(.dismissPresentation(presentationId: request.presentationId))
        main.apply(.presentationEnded(presentationId: request.presentationId))
        discard()
        mainChanged()
        onChanged?()
    }

    /// Drops the sheet page (after use, on /login, a failure or memory pressure).
    func discard() {
        // State first: telling main re-enters `mainChanged`, which must see the page gone.
        let page = sheetPage
        sheetPage = nil
        ready = false
        prewarmGeneration += 1
        layer?.close()
        layer = nil
        if let page {
            page.close()
            // Let go of the view once WebKit has finished with this turn of the loop (the page
            // may be discarded from inside one of its own signals).
            let view = UnsafeMutableRawPointer(page.view)
            MainLoop.after(milliseconds: 0) { g_object_unref(view) }
        }
        if main.session.presentationReadyToShow { main.apply(.presentationAvailable(false)) }
    }

    func close() {
        closed = true
        MemoryPressure.shared.forget(self)
        shown = nil
        discard()
    }

    /// For state dumps.
    var stateJSON: JSONValue {
        ["ready": .bool(ready),
         "prepared": .bool(sheetPage != nil),  // a sheet page exists (loading, ready or shown)
         "shown": shown.map { request in
             ["presentationId": .string(request.presentationId), "path": .string(request.path),
              "title": .string(sheet?.content.titleText ?? request.title), "revealed": .bool(sheet?.content.isRevealed ?? false),
              "dismissible": .bool(sheet?.content.dismissible ?? request.dismissible),
              "size": .string(shownSize.rawValue), "style": .string(layer?.style.rawValue ?? ""),
              "bounds": sheet?.bounds.map { b in ["x": .number(Double(b.x)), "y": .number(Double(b.y)),
                                                   "width": .number(Double(b.width)), "height": .number(Double(b.height))] } ?? .null] } ?? .null,
         "prewarming": .bool(prewarmingNow),
         "lastOpen": lastOpen.map { ["milliseconds": .number($0.milliseconds), "prewarmed": .bool($0.prewarmed),
                                     "painted": .bool($0.painted)] } ?? .null]
    }

    /// The control interface: press a header action of the shown sheet.
    func pressAction(_ actionId: String) -> Bool {
        guard let id = shown?.presentationId else { return false }
        sheetPage?.apply(.presentationAction(presentationId: id, actionId: actionId))
        return true
    }

    var isShowing: Bool { shown != nil }
    /// The sheet page, whatever its state (to keep it in step with main).
    var preparedPage: StudioPage? { sheetPage }
    /// The sheet page, once it has said it is ready (prewarmed, or showing a sheet).
    var readyPage: StudioPage? { ready || (shown != nil && !showWhenReady) ? sheetPage : nil }
    /// The page of the sheet shown, and its menus: what the person is looking at.
    var shownPage: StudioPage? { shown != nil ? sheetPage : nil }
    var shownMenus: ActionMenuLayer? { sheet?.content.menus }
    var isDismissible: Bool { sheet?.content.dismissible ?? false }
}
