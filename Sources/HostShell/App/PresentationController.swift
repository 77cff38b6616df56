import BridgeRuntime
import CGtk

/// Native presentations (sheets) for one main page (CONTRACT.md §4 "Presentations"): once main
/// is ready with a catalog and Studio asked for presentations, one sheet page is prewarmed at
/// `/__native/modal` on main's network session (same sign-in); it negotiates as `presentation`
/// and says `presentation/ready` (within 20 s, or it is discarded). `presentation/open` shows the
/// sheet at once with the loading mark and sends `presentation/show`; a refusal or any dismissal
/// sends `presentation/dismissed` to the sheet page and `presentation/ended` to main, and a fresh
/// page is prewarmed for the next one.
@MainActor
final class PresentationController {
    private let main: StudioPage
    private let networkSession: NetworkSessionPointer
    private let device: DeviceProfile
    private let parent: () -> WidgetPointer?
    private var sheetPage: StudioPage?
    private var sheet: SheetWindow?
    private var shown: PresentationOpen?
    private var prewarmGeneration = 0
    private(set) var ready = false
    /// Set while `mainChanged` runs: what it does changes main's state, which calls it again.
    private var updating = false
    /// After `close`, nothing is prewarmed again.
    private var closed = false
    static let readyTimeout: UInt32 = 20_000
    /// Called when what shows changed (state dumps).
    var onChanged: (() -> Void)?

    init(main: StudioPage, networkSession: NetworkSessionPointer, device: DeviceProfile, parent: @escaping () -> WidgetPointer?) {
        self.main = main
        self.networkSession = networkSession
        self.device = device
        self.parent = parent
        main.onPresentationEffect = { [weak self] effect in
            guard let self, case .openPresentation(let request) = effect else { return }
            self.open(request)
        }
    }

    /// Called as main's state changes: prewarm when it becomes ready for presentations.
    func mainChanged() {
        guard !updating, !closed else { return }
        updating = true
        defer { updating = false }
        let session = main.session
        let wanted = session.frontendReady && session.studioCapabilities.contains(.nativePresentations)
            && !(session.catalog?.isEmpty ?? true)
        if wanted && sheetPage == nil { prewarm() }
        if !wanted && sheetPage != nil && shown == nil { discard() }
    }

    private func prewarm() {
        prewarmGeneration += 1
        let generation = prewarmGeneration
        let page = StudioPage(networkSession: networkSession, context: .presentation, profile: device, serverOrigin: main.serverOrigin,
                              available: [.nativeAlerts, .systemShare, .systemHaptics, .systemQrScanner, .nativeActionMenus, .nativePresentations])
        webkit_settings_set_user_agent(webkit_web_view_get_settings(page.view), device.userAgent)
        g_object_ref_sink(UnsafeMutableRawPointer(page.view))  // owned here until a sheet shows it
        page.onPresentationEffect = { [weak self] effect in self?.sheetEffect(effect) }
        page.onDelivered = { [weak self] message, accepted in
            guard let self, case .presentationShow(let id, _) = message, self.shown?.presentationId == id else { return }
            if accepted {
                // Studio took the path: reveal once it has had a frame to paint.
                MainLoop.after(milliseconds: 50) { [weak self] in self?.sheet?.reveal(); self?.onChanged?() }
            } else {
                self.dismiss()  // the sheet page refused it
            }
        }
        page.onWebProcessTerminated = { [weak self] in
            // A failed page is discarded; a fresh one is prewarmed (the sheet showing, if any, ends).
            guard let self else { return }
            MainLoop.after(milliseconds: 0) { [weak self] in
                guard let self else { return }
                if self.shown != nil { self.dismiss() } else { self.discard(); self.mainChanged() }
            }
        }
        sheetPage = page
        page.load(main.serverOrigin.description + "/__native/modal")
        MainLoop.after(milliseconds: Self.readyTimeout) { [weak self] in
            guard let self, self.prewarmGeneration == generation, !self.ready, self.shown == nil else { return }
            printError("hostshell: the presentation page was not ready within 20 s; sheets are unavailable until it is")
            self.discard()
        }
    }

    private func sheetEffect(_ effect: PageEffect) {
        switch effect {
        case .presentationReady:
            ready = true
            main.apply(.presentationAvailable(true))
        case .presentationUpdated(let update):
            if let header = update.header { sheet?.apply(header: header) }
            sheet?.apply(size: update.size, dismissible: update.dismissible)
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
        guard let page = sheetPage, ready else { return main.apply(.presentationEnded(presentationId: request.presentationId)) }
        shown = request
        ready = false
        main.apply(.presentationAvailable(false))
        let sheet = SheetWindow(page: page, request: request, parent: parent())
        sheet.onDismiss = { [weak self] in self?.dismiss() }
        sheet.onAction = { [weak self] actionId in
            guard let self, let id = self.shown?.presentationId else { return }
            self.sheetPage?.apply(.presentationAction(presentationId: id, actionId: actionId))
        }
        self.sheet = sheet
        page.apply(.showPresentation(presentationId: request.presentationId, path: request.path))
        onChanged?()
    }

    /// Ends the shown sheet: dismissed to the sheet page, ended to main, and a fresh prewarm.
    func dismiss() {
        guard let request = shown else { return }
        shown = nil
        sheetPage?.apply(.dismissPresentation(presentationId: request.presentationId))
        main.apply(.presentationEnded(presentationId: request.presentationId))
        sheet?.close()
        sheet = nil
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
        sheet?.close()
        sheet = nil
        shown = nil
        discard()
    }

    /// For state dumps.
    var stateJSON: JSONValue {
        ["ready": .bool(ready),
         "shown": shown.map { request in
             ["presentationId": .string(request.presentationId), "path": .string(request.path),
              "title": .string(sheet?.titleText ?? request.title), "revealed": .bool(sheet?.isRevealed ?? false),
              "dismissible": .bool(sheet?.isDismissible ?? request.dismissible)] } ?? .null]
    }

    /// The control interface: press a header action of the shown sheet.
    func pressAction(_ actionId: String) -> Bool {
        guard let id = shown?.presentationId else { return false }
        sheetPage?.apply(.presentationAction(presentationId: id, actionId: actionId))
        return true
    }

    var isShowing: Bool { shown != nil }
    var isDismissible: Bool { sheet?.isDismissible ?? false }
}
