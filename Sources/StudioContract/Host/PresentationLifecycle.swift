import HostCore

/// The native presentations (sheets) of one main page, from prewarm to discard (CONTRACT.md §4
/// "Presentations"), as one pure owner: when a sheet page is wanted, its 20 s ready limit, the
/// pause after memory pressure, opening on demand, the shown sheet's header, size and
/// dismissibility, every kind of dismissal, the discard that follows, and how long a page let go
/// of is kept for its replies. The host makes and drops the sheet page and its widgets and
/// passes page events on; it decides nothing.
public struct PresentationLifecycle: Machine, Sendable, Equatable {
    /// A sheet page that is not ready this long after it was made is given up on (§4).
    public static let readyTimeout = 20.0
    /// After memory pressure nothing is prewarmed for this long; sheets open on demand.
    public static let pressurePause = 60.0
    /// A sheet is revealed once Studio's paint of what it accepted was seen, or after this long
    /// without it (the page never paints): the loading mark does not stay for good.
    public static let paintWaitLimit = 2.0
    /// A sheet page let go of is kept — hidden, its bridge closed — until it says the replies to
    /// what it posted have reached it (a message it posted as the host let go is answered
    /// `unavailable`, and it hears so), and this long at most: a page that never says so (its
    /// script stuck) is released all the same.
    public static let letGoLimit = 10.0

    public enum Timer: Hashable, Sendable {
        /// The sheet page being made must say `presentation/ready` before this fires.
        case ready
        /// Prewarming is paused after memory pressure.
        case pressurePause
        /// Page `page`, let go of, is released when this fires if it has not said its replies ran.
        case letGo(page: Int)
    }

    /// The sheet page the host keeps for this main page, by the id the host was given.
    public struct SheetPage: Sendable, Equatable {
        public let id: Int
        /// It said `presentation/ready` and nothing is shown on it yet: a prewarmed page.
        public var ready = false
    }

    /// The sheet shown, as the person sees it.
    public struct Shown: Sendable, Equatable {
        public let request: PresentationOpen
        public var title: String
        public var subtitle: String?
        public var header: PresentationHeader?
        public var size: PresentationSize
        public var dismissible: Bool
        /// Opened before its page was ready: `presentation/show` waits for `presentation/ready`.
        public var waitingForReady: Bool
        /// The sheet page accepted `presentation/show`; it is revealed once that was painted.
        public var accepted = false
        public var revealed = false
        /// When it was asked for (monotonic seconds) and whether a prewarmed page took it.
        public let openedAt: Double
        public let prewarmed: Bool

        public var presentationId: String { request.presentationId }

        /// The header's leading button: Back whenever Studio asks for it (it reports `back`,
        /// it does not dismiss); otherwise Close, only while the sheet may be dismissed.
        public var navigationButton: HeaderNavigation? {
            if header?.navigation == .back { return .back }
            return dismissible ? .close : nil
        }

        /// Whether `actionId` is a header action or an enabled menu item Studio offered.
        public func offers(_ actionId: String) -> Bool {
            guard let header else { return false }
            if actionId == "back" && header.navigation == .back { return true }
            return header.actions.contains { $0.id == actionId } || header.menu.contains { $0.id == actionId && !$0.disabled }
        }
    }

    public enum Event: Sendable, Equatable {
        /// Main's readiness for presentations: ready, `nativePresentations`, a non-empty catalog.
        case mainReady(Bool)
        /// Main's page has a new document: a sheet it had open belonged to the old one.
        case mainDocumentChanged
        /// Main's page asked for a sheet (its reply already said yes), at `now` (monotonic s).
        case open(PresentationOpen, now: Double)
        /// The sheet page `page` said `presentation/ready`.
        case pageReady(page: Int)
        /// The sheet page answered `presentation/show`: `accepted` is its receiver's `true`.
        case showAnswered(presentationId: String, accepted: Bool)
        /// What the sheet page accepted has been painted, at `now` — or the paint wait ran out
        /// (`seen` false: revealed at the time limit, without Studio's paint seen).
        case painted(presentationId: String, now: Double, seen: Bool)
        /// The sheet page's messages about the sheet shown (stale ids were dropped by its session).
        case updated(PresentationUpdate)
        case closeRequested(presentationId: String)
        case navigateRequested(presentationId: String, path: String)
        /// The person asked to dismiss: Escape, the dimmed page, the Close button, `ctl sheet-dismiss`.
        case dismissRequested
        /// The person pressed the header's leading button (Close or Back).
        case navigationPressed
        /// The person pressed a header action or chose a header menu item.
        case actionPressed(String)
        /// The sheet page's web process ended; main reports its readiness again afterwards.
        case pageFailed(page: Int)
        /// Page `page`, let go of, said the replies to everything it posted have run in it — or
        /// it could not be asked (its document is gone): nothing of it is waited for any more.
        case repliesRun(page: Int)
        /// Main went to `/login` (a prewarmed page would carry the old sign-in), or the system is
        /// short of memory (pauses prewarming too).
        case discardPrewarmed
        case memoryPressure
        case timerFired(Timer)
        /// The session is going away: nothing is made again.
        case close
    }

    public enum Effect: Sendable, Equatable {
        /// Make sheet page `id` (at `/__native/modal`, its sheet laid out at `size`, hidden).
        case makePage(id: Int, size: PresentationSize)
        /// Let go of sheet page `id`: its sheet goes, nothing of it shows or can be reached, its
        /// bridge is closed (what it posts from now on is answered `unavailable` in the page) and
        /// nothing it asks beyond its own document is allowed. Its document runs on until
        /// `.releasePage`.
        case discardPage(id: Int)
        /// Ask page `id`, let go of, to say (`.repliesRun`) once the replies to every message it
        /// posted have run in it.
        case confirmRepliesRun(page: Int)
        /// Drop page `id`, let go of before: its web view and its document end.
        case releasePage(id: Int)
        /// Show the sheet for the request, under the loading mark.
        case showSheet(PresentationOpen)
        /// Take the loading mark away once the page has painted what it accepted.
        case waitForPaint(presentationId: String)
        case reveal
        case applyHeader(PresentationHeader, navigation: HeaderNavigation?)
        case applySize(PresentationSize)
        case applyDismissible(Bool, navigation: HeaderNavigation?)
        /// An event for the sheet page's or main's page session.
        case toSheet(PageEvent)
        case toMain(PageEvent)
        case timer(TimerCommand<Timer>)
        /// Say this on standard error (the host has no one else to tell).
        case report(String)
    }

    public let prewarms: Bool
    public private(set) var page: SheetPage?
    public private(set) var shown: Shown?
    public private(set) var timers = TimerSet<Timer>()
    /// What main's session was last told: whether a `presentation/open` can be taken.
    public private(set) var availableToMain = false
    public private(set) var mainReady = false
    public private(set) var closed = false
    /// Pages let go of and not yet released (kept until their replies have run in them).
    public private(set) var lettingGo: Set<Int> = []
    /// The size the last sheet opened at: a new page waits laid out at it (sheets tend to repeat).
    public private(set) var lastSize = PresentationSize.full
    /// How long the last sheet took from open to Studio's paint, and whether it was prewarmed.
    public private(set) var lastOpen: OpenTiming?
    private var nextPageId = 0

    public init(prewarms: Bool) { self.prewarms = prewarms }

    /// Pages are prewarmed now: asked for, and not paused after memory pressure.
    public var prewarmingNow: Bool { prewarms && !timers.isRunning(.pressurePause) }

    public mutating func reduce(_ event: Event) -> [Effect] {
        guard !closed else { return [] }
        var effects = handle(event)
        if !closed { effects += settle() }
        return effects
    }

    private mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .mainReady(let ready):
            mainReady = ready
            return []

        case .mainDocumentChanged:
            return dismiss()

        case .open(let request, let now):
            guard shown == nil else { return [] }
            var effects: [Effect] = []
            let warm = page?.ready == true
            if page == nil { effects += makePage() }
            page?.ready = false  // in use
            shown = Shown(request: request, title: request.title, subtitle: request.subtitle, size: request.size,
                          dismissible: request.dismissible, waitingForReady: !warm, openedAt: now, prewarmed: warm)
            lastSize = request.size
            effects.append(.showSheet(request))
            // Warm: Studio starts drawing while the sheet is built. Otherwise once it is ready.
            if warm { effects.append(.toSheet(.showPresentation(presentationId: request.presentationId, path: request.path))) }
            return effects

        case .pageReady(let id):
            guard page?.id == id else { return [] }
            var effects = timers.cancel(.ready).map { [Effect.timer($0)] } ?? []
            if var shown, shown.waitingForReady {
                shown.waitingForReady = false
                self.shown = shown
                effects.append(.toSheet(.showPresentation(presentationId: shown.presentationId, path: shown.request.path)))
            } else if shown == nil {
                page?.ready = true
            }
            return effects

        case .showAnswered(let id, let accepted):
            guard var shown, shown.presentationId == id, !shown.accepted else { return [] }
            guard accepted else { return dismiss() }  // the sheet page refused it
            shown.accepted = true
            self.shown = shown
            return [.waitForPaint(presentationId: id)]

        case .painted(let id, let now, let seen):
            guard var shown, shown.presentationId == id, shown.accepted, !shown.revealed else { return [] }
            shown.revealed = true
            self.shown = shown
            lastOpen = OpenTiming(milliseconds: (now - shown.openedAt) * 1000, prewarmed: shown.prewarmed, painted: seen)
            return [.reveal]

        case .updated(let update):
            guard var shown, shown.presentationId == update.presentationId else { return [] }
            var effects: [Effect] = []
            if let header = update.header {
                shown.header = header
                shown.title = header.title
                shown.subtitle = header.subtitle
                effects.append(.applyHeader(header, navigation: shown.navigationButton))
            }
            if let size = update.size {
                shown.size = size
                effects.append(.applySize(size))
            }
            if let dismissible = update.dismissible {
                shown.dismissible = dismissible
                effects.append(.applyDismissible(dismissible, navigation: shown.navigationButton))
            }
            self.shown = shown
            return effects

        case .closeRequested(let id):
            guard shown?.presentationId == id else { return [] }
            return dismiss()

        case .navigateRequested(let id, let path):
            guard shown?.presentationId == id else { return [] }
            // Delivered to main as navigation/open-path, with the deep link's readiness rules.
            return dismiss() + [.toMain(.deepLink(path: path))]

        case .dismissRequested:
            guard let shown, shown.dismissible else { return [] }
            return dismiss()

        case .navigationPressed:
            guard let shown else { return [] }
            switch shown.navigationButton {
            case .back: return [.toSheet(.presentationAction(presentationId: shown.presentationId, actionId: "back"))]
            case .close: return dismiss()
            case nil: return []
            }

        case .actionPressed(let actionId):
            // Only what Studio offered in the header it sent (an id it never gave is not reported).
            guard let shown, shown.offers(actionId) else { return [] }
            return [.toSheet(.presentationAction(presentationId: shown.presentationId, actionId: actionId))]

        case .pageFailed(let id):
            guard page?.id == id else { return [] }
            // The sheet showing, if any, ends. The sheet page runs in main's web process, so
            // main's page has most likely died with it: a fresh page waits until main reports
            // that it is ready again (a page made now would start in a process being replaced).
            // Its document died with the process: nothing of it is waited for.
            mainReady = false
            return shown != nil ? dismiss(waiting: false) : discardPage(waiting: false)

        case .repliesRun(let id):
            return release(id)

        case .discardPrewarmed:
            return shown == nil ? discardPage() : []

        case .memoryPressure:
            let pause = timers.start(.pressurePause, after: Self.pressurePause)
            return [.timer(pause)] + (shown == nil ? discardPage() : [])

        case .timerFired(let timer):
            guard timers.fire(timer) else { return [] }
            switch timer {
            case .pressurePause:
                return []  // settle prewarms again
            case .letGo(let id):
                return release(id)
            case .ready:
                guard page?.ready == false else { return [] }
                if shown?.waitingForReady == true {
                    return [.report("the presentation page was not ready within \(Int(Self.readyTimeout)) s; the sheet is closed")] + dismiss()
                }
                guard shown == nil else { return [] }
                return [.report("the presentation page was not ready within \(Int(Self.readyTimeout)) s; sheets are unavailable until it is")]
                    + discardPage()
            }

        case .close:
            // Nothing waits any more: every page goes now, with its document.
            closed = true
            var effects = discardPage(waiting: false)
            shown = nil
            for id in lettingGo.sorted() { effects += release(id) }
            effects += timers.cancelAll().map(Effect.timer)
            if availableToMain { availableToMain = false; effects.append(.toMain(.presentationAvailable(false))) }
            return effects
        }
    }

    /// Ends the shown sheet: dismissed to the sheet page (which withdraws what it had open),
    /// ended to main, and the used page discarded (settling prewarms a fresh one).
    private mutating func dismiss(waiting: Bool = true) -> [Effect] {
        guard let shown else { return [] }
        self.shown = nil
        return [.toSheet(.dismissPresentation(presentationId: shown.presentationId)),
                .toMain(.presentationEnded(presentationId: shown.presentationId))] + discardPage(waiting: waiting)
    }

    private mutating func makePage() -> [Effect] {
        nextPageId += 1
        page = SheetPage(id: nextPageId)
        return [.makePage(id: nextPageId, size: lastSize), .timer(timers.start(.ready, after: Self.readyTimeout))]
    }

    /// Lets go of the page. `waiting`: it is kept until the replies to what it posted have run
    /// in it (`letGoLimit` at most); otherwise (its document is gone, or the session is) it goes now.
    private mutating func discardPage(waiting: Bool = true) -> [Effect] {
        guard let page else { return [] }
        self.page = nil
        var effects: [Effect] = [.discardPage(id: page.id)] + (timers.cancel(.ready).map { [Effect.timer($0)] } ?? [])
        guard waiting else { return effects + [.releasePage(id: page.id)] }
        lettingGo.insert(page.id)
        effects.append(.confirmRepliesRun(page: page.id))
        effects.append(.timer(timers.start(.letGo(page: page.id), after: Self.letGoLimit)))
        return effects
    }

    /// Drops page `id`, let go of before, once: its replies have run, or it waited long enough.
    private mutating func release(_ id: Int) -> [Effect] {
        guard lettingGo.remove(id) != nil else { return [] }
        return [.releasePage(id: id)] + (timers.cancel(.letGo(page: id)).map { [Effect.timer($0)] } ?? [])
    }

    /// After every event: keep a prewarmed page while main wants one, drop it when main does
    /// not, and tell main when whether it can open a sheet changed.
    private mutating func settle() -> [Effect] {
        var effects: [Effect] = []
        if shown == nil {
            if !mainReady { effects += discardPage() } else if prewarmingNow && page == nil { effects += makePage() }
        }
        // Prewarming: a ready page. Not prewarming: sheets load when opened.
        let available = mainReady && shown == nil && (prewarmingNow ? page?.ready == true : true)
        if available != availableToMain {
            availableToMain = available
            effects.append(.toMain(.presentationAvailable(available)))
        }
        return effects
    }
}

/// How long a sheet took from `presentation/open` to Studio's paint, and whether a prewarmed
/// page took it.
public struct OpenTiming: Sendable, Equatable {
    public let milliseconds: Double
    public let prewarmed: Bool
    /// False when the sheet was revealed at the paint wait's limit, without Studio's paint seen
    /// (a benchmark must not count such an open).
    public let painted: Bool

    public init(milliseconds: Double, prewarmed: Bool, painted: Bool = true) {
        self.milliseconds = milliseconds; self.prewarmed = prewarmed; self.painted = painted
    }
}
