import HostCore

extension PresentationLifecycle {
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
        /// When the page had painted after taking `presentation/show` (the wait starts with the
        /// show, so it does not wait for the answer first), and whether the paint was seen.
        public var paintedAt: Double?
        public var paintSeen = false
        /// When it was asked for (monotonic seconds) and whether a prewarmed page took it.
        public let openedAt: Double
        public let prewarmed: Bool
        /// Its page failed while it showed (§6): the sheet stays, in a failed state with Retry.
        public var failure: PresentationFailure?

        public var presentationId: String { request.presentationId }

        /// The header's leading button: Back whenever Studio asks for it (it reports `back`,
        /// it does not dismiss); otherwise Close, only while the sheet may be dismissed. A failed
        /// sheet can always be closed: nothing of Studio's is left in it to say otherwise.
        public var navigationButton: HeaderNavigation? {
            if failure != nil { return .close }
            if header?.navigation == .back { return .back }
            return dismissible ? .close : nil
        }

        /// Whether `actionId` is a header action or an enabled menu item Studio offered.
        public func offers(_ actionId: String) -> Bool {
            guard failure == nil, let header else { return false }
            if actionId == "back" && header.navigation == .back { return true }
            return header.actions.contains { $0.id == actionId } || header.menu.contains { $0.id == actionId && !$0.disabled }
        }
    }
}

/// Why the page of a shown sheet failed (§6): the sheet stays open in a failed state, and Retry
/// builds a new page for it.
public enum PresentationFailure: String, Sendable, Equatable {
    /// The page's web process ended.
    case ended
    /// The page did not say `presentation/ready` within `PresentationLifecycle.readyTimeout`.
    case unavailable
    /// Its receiver answered `presentation/show` with anything but `true`.
    case refused

    /// What the failed sheet says to the person.
    public var message: String {
        switch self {
        case .ended: "The page of this sheet stopped working."
        case .unavailable: "The page of this sheet did not load in time."
        case .refused: "The page of this sheet could not show it."
        }
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
