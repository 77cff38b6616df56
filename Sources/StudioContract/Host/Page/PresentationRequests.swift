import HostCore

/// A page's side of native presentations (sheets, §4). On the main page: whether a sheet may
/// open now (a ready prewarmed sheet page, none showing, a Studio that asked for them) and which
/// one is open. On the sheet page: the presentation it shows, its updates, close and navigate
/// requests, header actions and dismissal. The sheet's life cycle (prewarm, timing, dismissals)
/// is `PresentationLifecycle`'s; this only answers the page and reports to it.
public struct PresentationRequests: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// Main: `presentation/open`; `studioAsked`: Studio said `nativePresentations` in `frontend/ready`.
        case open(PresentationOpen, id: String?, studioAsked: Bool)
        /// Main: whether a prewarmed sheet page is ready to show a presentation.
        case available(Bool)
        /// Main: the sheet `presentationId` ended (any dismissal); `studioReady`: Studio may be told.
        case ended(presentationId: String, studioReady: Bool)
        /// Sheet: `presentation/ready` — its prewarm finished.
        case ready(id: String?)
        /// Sheet: `presentation/update`, `presentation/close`, `presentation/navigate`.
        case update(PresentationUpdate, id: String?)
        case close(presentationId: String, id: String?)
        case navigate(PresentationNavigate, id: String?)
        /// Sheet: show `presentationId` at `path`; it was dismissed; a header action was pressed.
        case show(presentationId: String, path: String)
        case dismiss(presentationId: String)
        case action(presentationId: String, actionId: String)
    }

    /// Replies, `.openPresentation`, `.presentationReady`, `.presentationUpdated`,
    /// `.closePresentation`, `.navigateFromPresentation`, and `.send` of the presentation
    /// messages (`presentation/show`, `dismissed`, `action`, `ended`).
    public typealias Effect = PageEffect

    public let context: HostContext
    /// `nativePresentations` is offered to this page.
    public let offered: Bool
    /// Main: a sheet page is prewarmed and ready to show a presentation.
    public private(set) var readyToShow = false
    /// Main: the presentation open now, if any. Sheet: the presentation it shows now, if any.
    public private(set) var presentationId: String?

    public init(context: HostContext, offered: Bool) {
        self.context = context
        self.offered = offered
    }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .open(let request, let id, let studioAsked):
            // One sheet at a time, only with a ready prewarmed page, only for a Studio that asked for them.
            guard offered, studioAsked, readyToShow, presentationId == nil else { return [.reply(.failure(id: id, code: .unavailable))] }
            presentationId = request.presentationId
            return [.reply(.ok(id)), .openPresentation(request)]

        case .available(let available):
            readyToShow = available
            return []

        case .ended(let ended, let studioReady):
            guard context == .main, presentationId == ended else { return [] }
            presentationId = nil
            return studioReady ? [.send(.presentationEnded(presentationId: ended))] : []

        case .ready(let id):
            return [.reply(.ok(id)), .presentationReady]

        case .update(let update, let id):
            // A stale id (a sheet already gone, or another one) is ignored.
            return [.reply(.ok(id))] + (update.presentationId == presentationId ? [.presentationUpdated(update)] : [])

        case .close(let closing, let id):
            return [.reply(.ok(id))] + (closing == presentationId ? [.closePresentation(presentationId: closing)] : [])

        case .navigate(let navigate, let id):
            guard navigate.presentationId == presentationId else { return [.reply(.ok(id))] }
            return [.reply(.ok(id)), .navigateFromPresentation(presentationId: navigate.presentationId, path: navigate.path)]

        case .show(let shown, let path):
            guard context == .presentation else { return [] }
            presentationId = shown
            return [.send(.presentationShow(presentationId: shown, path: path))]

        case .dismiss(let dismissed):
            guard context == .presentation, presentationId == dismissed else { return [] }
            presentationId = nil
            return [.send(.presentationDismissed(presentationId: dismissed))]

        case .action(let shown, let actionId):
            guard context == .presentation, presentationId == shown else { return [] }
            return [.send(.presentationAction(presentationId: shown, actionId: actionId))]
        }
    }
}
