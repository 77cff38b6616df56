import HostCore

/// A deep link waiting for Studio: its path and its delivery attempts.
public struct QueuedDeepLink: Sendable, Equatable {
    public var path: String
    public var attempts = 0
    public var inFlight = false

    public init(path: String) { self.path = path }
}

/// The main page's deep-link queue (§4 Deep links): the newest link waits until Studio can take
/// it (ready, with `deepLinks` and a catalog) — no polling: it is tried on the turn after the
/// message that made Studio ready — for 300 s at most; a link Studio does not take is retried
/// 200 ms × attempt later, 10 times at most.
public struct DeepLinkQueue: Machine, Sendable, Equatable {
    /// `studioTakesLinks` (in the events below): Studio said `frontend/ready` with `deepLinks`
    /// in this document and has a catalog with destinations.
    public enum Event: Sendable, Equatable {
        /// A deep link's Studio path: it replaces any waiting link, and goes at once if it can.
        case arrived(path: String, studioTakesLinks: Bool)
        /// A message was answered: Studio may have just become able to take the waiting link.
        case pageAnswered(studioTakesLinks: Bool)
        /// Studio's receiver answered `navigation/open-path` for `path`.
        case delivered(path: String, accepted: Bool)
        /// One of the queue's timers fired.
        case timerFired(PageTimer, studioTakesLinks: Bool)
        /// Forget the waiting link (sign-out, the server was removed).
        case drop
    }

    /// `.send` of `navigation/open-path`, and `.timer` commands for `PageTimer`.
    public typealias Effect = PageEffect

    public let context: HostContext
    /// `deepLinks` is offered to this page.
    public let offered: Bool
    /// The link waiting for Studio (the newest wins), its attempts and whether one is in flight.
    public private(set) var link: QueuedDeepLink?
    /// The timers running: the link's next try and its expiry.
    public private(set) var timers = TimerSet<PageTimer>()

    public init(context: HostContext, offered: Bool) {
        self.context = context
        self.offered = offered
    }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .arrived(let path, let studioTakesLinks):
            guard context == .main else { return [] }
            link = QueuedDeepLink(path: path)
            var effects: [PageEffect] = [.timer(timers.start(.deepLinkExpiry, after: DeepLink.validitySeconds))]
            if let due = timers.cancel(.deepLinkDue) { effects.append(.timer(due)) }  // a retry of the old link
            return effects + deliver(studioTakesLinks: studioTakesLinks)

        case .pageAnswered(let studioTakesLinks):
            // Try on the next turn (after this reply), unless a try is already due.
            guard deliverable(studioTakesLinks: studioTakesLinks), !timers.isRunning(.deepLinkDue) else { return [] }
            return [.timer(timers.start(.deepLinkDue, after: 0))]

        case .delivered(let path, let accepted):
            guard var waiting = link, waiting.path == path, waiting.inFlight else { return [] }
            waiting.inFlight = false
            // Taken, or not taken after the last retry: done with it.
            guard !accepted, waiting.attempts <= DeepLink.maxRetries else { return drop() }
            link = waiting
            return [.timer(timers.start(.deepLinkDue, after: DeepLink.retryDelay(attempt: waiting.attempts)))]

        case .timerFired(let timer, let studioTakesLinks):
            guard timers.fire(timer) else { return [] }  // stale: cancelled or restarted meanwhile
            switch timer {
            case .deepLinkDue: return deliver(studioTakesLinks: studioTakesLinks)
            case .deepLinkExpiry: return drop()
            }

        case .drop:
            return drop()
        }
    }

    /// A link waits, none of its tries is in flight, and Studio can take it now.
    private func deliverable(studioTakesLinks: Bool) -> Bool {
        guard let link, !link.inFlight else { return false }
        return studioTakesLinks && offered
    }

    /// Sends the waiting link when Studio can take it and no retry pause runs; otherwise it
    /// waits for the message that makes Studio ready (no polling) or for its expiry.
    private mutating func deliver(studioTakesLinks: Bool) -> [PageEffect] {
        guard deliverable(studioTakesLinks: studioTakesLinks), !timers.isRunning(.deepLinkDue), var next = link else { return [] }
        next.attempts += 1
        next.inFlight = true
        link = next
        return [.send(.navigationOpenPath(path: next.path))]
    }

    /// Forgets the waiting link and its timers.
    private mutating func drop() -> [PageEffect] {
        link = nil
        return [timers.cancel(.deepLinkDue), timers.cancel(.deepLinkExpiry)].compactMap { $0.map(PageEffect.timer) }
    }
}
