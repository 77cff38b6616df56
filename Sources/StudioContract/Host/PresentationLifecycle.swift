import HostCore

/// The native presentations (sheets) of one main page (CONTRACT.md §4, §6), as one pure owner:
/// when a sheet page is wanted, its 20 s ready limit, the pause after memory pressure, opening on
/// demand, the shown sheet's header, size and dismissibility, every dismissal, a shown page's
/// failure and Retry, and how long a page let go of is kept for its replies. One page serves
/// every presentation, waiting hidden between them; it is discarded only for §6's reasons (main
/// no longer ready — catalog withdrawn, new document —, `/login` or sign-out, memory pressure
/// while hidden, its failure, the session closing). The host carries out; it decides nothing.
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
        /// It said `presentation/ready` once: its document booted.
        public var booted = false
        /// It booted and nothing is shown on it now: a prewarmed page, or one waiting, hidden,
        /// for its next presentation.
        public var ready = false
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
        /// The sheet page answered `presentation/show` at `now`: `accepted` is its receiver's `true`.
        case showAnswered(presentationId: String, accepted: Bool, now: Double)
        /// The sheet page painted after taking `presentation/show`, at `now` — or the paint wait
        /// ran out (`seen` false: revealed at the time limit, without Studio's paint seen). The
        /// sheet is revealed once this and the show's acceptance both arrived.
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
        /// The person pressed Retry on a failed sheet, at `now` (monotonic s): a new page for it.
        case retryPressed(now: Double)
        /// The sheet page's web process ended; main reports its readiness again afterwards.
        /// Hidden, the page is rebuilt on the next open; shown, its sheet fails (`.ended`).
        case pageFailed(page: Int)
        /// Page `page`, let go of, said the replies to everything it posted have run in it — or
        /// it could not be asked (its document is gone): nothing of it is waited for any more.
        case repliesRun(page: Int)
        /// Main went to `/login` or was signed out (a hidden page would carry the old sign-in): the
        /// page waiting hidden goes. Memory pressure does the same and pauses prewarming too.
        case discardHidden
        case memoryPressure
        case timerFired(Timer)
        /// The session is going away: nothing is made again.
        case close
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
    /// How many sheet pages were made (each boots Studio once): one for any number of sheets,
    /// unless a page was discarded for one of §6's reasons.
    public private(set) var pagesMade = 0
    /// The hidden page failed: none is prewarmed for main's document; its next open builds one (§6).
    public private(set) var rebuildOnOpen = false
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
            // Main's new document gets a page prewarmed afresh only once it says it is ready: one made beside
            // main while its process is dead (before its reload) would start main a blank process the reload then goes to.
            rebuildOnOpen = false
            mainReady = false
            return dismiss()

        case .open(let request, let now):
            guard shown == nil else { return [] }
            var effects: [Effect] = []
            let warm = page?.ready == true
            if page == nil { effects += makePage() }
            rebuildOnOpen = false
            page?.ready = false  // in use
            shown = Shown(request: request, title: request.title, subtitle: request.subtitle, size: request.size,
                          dismissible: request.dismissible, waitingForReady: !warm, openedAt: now, prewarmed: warm)
            lastSize = request.size
            // Warm: Studio starts drawing first, while the sheet is shown. Otherwise once it is ready.
            if warm { effects += show(request) }
            return effects + [.showSheet(request)]

        case .pageReady(let id):
            guard page?.id == id else { return [] }
            page?.booted = true
            var effects = timers.cancel(.ready).map { [Effect.timer($0)] } ?? []
            if var shown, shown.waitingForReady, shown.failure == nil {
                shown.waitingForReady = false
                self.shown = shown
                effects += show(shown.request)
            } else if shown == nil {
                page?.ready = true
            }
            return effects

        case .showAnswered(let id, let accepted, let now):
            guard var shown, shown.presentationId == id, !shown.accepted, shown.failure == nil else { return [] }
            guard accepted else { return fail(.refused) }  // the sheet page refused it
            shown.accepted = true
            self.shown = shown
            return revealIfPainted(now: now)

        case .painted(let id, let now, let seen):
            guard var shown, shown.presentationId == id, shown.paintedAt == nil, shown.failure == nil else { return [] }
            shown.paintedAt = now
            shown.paintSeen = seen
            self.shown = shown
            return revealIfPainted(now: now)

        case .updated(let update):
            guard var shown, shown.presentationId == update.presentationId, shown.failure == nil else { return [] }
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

        case .retryPressed(let now):
            guard let failed = shown, failed.failure != nil else { return [] }
            let request = failed.request
            shown = Shown(request: request, title: request.title, subtitle: request.subtitle, size: failed.size,
                          dismissible: request.dismissible, waitingForReady: true, openedAt: now, prewarmed: false)
            return discardPage() + makePage() + [.showSheet(request)]

        case .pageFailed(let id):
            guard page?.id == id else { return [] }
            // The sheet page runs in main's web process, so main's page has most likely died with
            // it: nothing is made until main reports that it is ready again (a page made now
            // would start in a process being replaced). Its document died with the process:
            // nothing of it is waited for. Shown, its sheet stays, failed; hidden, the page is
            // rebuilt on the next open.
            mainReady = false
            if shown?.failure == nil, shown != nil { return fail(.ended, waiting: false) }
            if shown == nil { rebuildOnOpen = true }
            return discardPage(waiting: false)

        case .repliesRun(let id):
            return release(id)

        case .discardHidden:
            // The page goes with the sign-in it booted with, and none is made for main's current
            // document: it is on its way out (a sign-out reloads, `/login` navigates). A page made
            // now would boot beside a main that is deleting its cookies and starting a load; main's
            // next document gets one once it is ready, and an open before then builds its own.
            guard shown == nil else { return [] }
            rebuildOnOpen = true
            return discardPage()

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
                guard page?.booted == false else { return [] }
                if shown?.waitingForReady == true {
                    return [.report("the presentation page was not ready within \(Int(Self.readyTimeout)) s; the sheet shows Retry")]
                        + fail(.unavailable)
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

    /// Sends `presentation/show` for `request` and waits for the page's paint after it.
    private func show(_ request: PresentationOpen) -> [Effect] {
        [.toSheet(.showPresentation(presentationId: request.presentationId, path: request.path)),
         .waitForPaint(presentationId: request.presentationId)]
    }

    /// Reveals the shown sheet once Studio both accepted the show and painted after it; the
    /// open's timing runs to then (`now`).
    private mutating func revealIfPainted(now: Double) -> [Effect] {
        guard var shown, shown.accepted, shown.paintedAt != nil, !shown.revealed else { return [] }
        shown.revealed = true
        self.shown = shown
        lastOpen = OpenTiming(milliseconds: (now - shown.openedAt) * 1000, prewarmed: shown.prewarmed, painted: shown.paintSeen)
        return [.reveal]
    }

    /// Ends the shown sheet: dismissed to the sheet page (which withdraws what it had open),
    /// ended to main, and the sheet hidden. The page is kept: once booted it waits, hidden, for
    /// the next open (settling discards it when main is no longer ready or nothing is prewarmed).
    private mutating func dismiss() -> [Effect] {
        guard let shown else { return [] }
        self.shown = nil
        let id = shown.presentationId
        if var page {
            page.ready = page.booted
            self.page = page
        }
        return (page != nil ? [.toSheet(.dismissPresentation(presentationId: id))] : [])
            + [.toMain(.presentationEnded(presentationId: id)), .hideSheet]
    }

    /// The shown sheet's page failed: the sheet stays open, failed, and may always be closed;
    /// the page is let go of (`waiting`: unless its document is gone). Retry makes another.
    private mutating func fail(_ failure: PresentationFailure, waiting: Bool = true) -> [Effect] {
        guard var shown else { return [] }
        shown.failure = failure
        shown.accepted = false
        shown.dismissible = true
        self.shown = shown
        return [.showFailure(failure)] + discardPage(waiting: waiting)
    }

    private mutating func makePage() -> [Effect] {
        nextPageId += 1
        pagesMade += 1
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

    /// After every event: keep one page, prewarmed or reused, while main wants sheets; drop it
    /// when main does not (or nothing is prewarmed: sheets then load on demand, each on a page
    /// of its own), and tell main when whether it can open a sheet changed.
    private mutating func settle() -> [Effect] {
        var effects: [Effect] = []
        if shown == nil {
            if !mainReady || !prewarmingNow {
                effects += discardPage()
            } else if page == nil && !rebuildOnOpen {
                effects += makePage()
            }
        }
        // Prewarming: a ready page. Not prewarming, or the hidden page failed: built on open.
        let available = mainReady && shown == nil && (!prewarmingNow || rebuildOnOpen || page?.ready == true)
        if available != availableToMain {
            availableToMain = available
            effects.append(.toMain(.presentationAvailable(available)))
        }
        return effects
    }
}
