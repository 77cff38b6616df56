/// When the page is revealed (§4 "Loading"; `LoadingMachine` applies it).
public enum LoadingPolicy {
    /// Reveal the page once WebKit finished loading and either a catalog arrived or this much
    /// time passed since, so Studio's own chrome never flashes before the native one.
    public static let revealDelay = 0.3
    /// How long the page's web process may stay unresponsive (WebKit's own judgement: it stopped
    /// answering WebKit's pings, a script stuck in a loop) before the host ends it and reloads, as
    /// a person would. A kiosk has nobody to do it, and a hung page never comes back by itself.
    public static let unresponsiveLimit = 15.0
}

/// How a page's main load ended without its document, as the engine's error sorts it: what
/// either kind of app shows for it.
public enum LoadEnd: Sendable, Equatable {
    /// Another load replaced it, or the host stopped it: nothing to show.
    case replaced
    /// The navigation policy stopped it (a link handed out, a download): nothing to show.
    case policy
    /// The network layer cancelled it and nothing replaced it: a busy WebKit reports a
    /// certificate it refused so. A failure (never the engine's own error page).
    case cutOff(String)
    /// A failure, with the engine's reason.
    case failed(String)

    /// Sorts the engine's error: its own cancellation, the network layer's, a policy's, or
    /// another reason; `replaced` when a navigation was asked for since the load started, or
    /// the host stopped the page.
    public static func of(engineCancelled: Bool, networkCancelled: Bool, policy: Bool, replaced: Bool, reason: String) -> LoadEnd {
        if engineCancelled || (networkCancelled && replaced) { return .replaced }
        if networkCancelled { return .cutOff(reason) }
        if policy { return .policy }
        return .failed(reason)
    }
}

/// Counts web-process deaths: reload after each, but more than two within 30 s shows an
/// error screen instead of another reload.
public struct CrashLimiter: Sendable, Equatable {
    public static let window = 30.0
    public static let maxDeaths = 2
    public private(set) var deaths: [Double] = []

    public init() {}

    /// Records a death at `time` (seconds, any monotonic clock); true means reload.
    public mutating func recordDeath(at time: Double) -> Bool {
        deaths = deaths.filter { time - $0 < Self.window } + [time]
        return deaths.count <= Self.maxDeaths
    }
}

/// Ends a hung web process, for either kind of app's loading machine: when WebKit judges the
/// page's process unresponsive, `timer` runs for `LoadingPolicy.unresponsiveLimit`; responsive
/// again cancels it; when it fires the machine asks the host to end the process, and the end
/// WebKit then reports is named `stoppedResponding` (and counts as a death, so a page that hangs
/// every time ends on the "keeps stopping" screen instead of reloading for ever).
public struct HangWatch<Name: Hashable & Sendable>: Sendable, Equatable {
    public let timer: Name
    /// The host was asked to end the process for hanging, and it has not ended yet.
    public private(set) var endingHungProcess = false
    /// Hung processes ended so far (state reports show it).
    public private(set) var processesEnded = 0

    public init(timer: Name) { self.timer = timer }

    /// WebKit's judgement changed: the timer command to carry out, if any.
    public mutating func responsive(_ yes: Bool, _ timers: inout TimerSet<Name>) -> TimerCommand<Name>? {
        if yes { return timers.cancel(timer) }
        guard !timers.isRunning(timer), !endingHungProcess else { return nil }
        return timers.start(timer, after: LoadingPolicy.unresponsiveLimit)
    }

    /// The limit passed: the machine asks for the process's end.
    public mutating func limitReached() { endingHungProcess = true }

    /// The process ended: what to call the end, and the timer to cancel (a new process answers).
    public mutating func ended(_ end: WebProcessEnd, _ timers: inout TimerSet<Name>) -> (end: WebProcessEnd, cancel: TimerCommand<Name>?) {
        defer { endingHungProcess = false }
        if endingHungProcess { processesEnded += 1 }
        return (endingHungProcess ? .stoppedResponding : end, timers.cancel(timer))
    }
}

/// The host's own check that a page's web process still runs scripts. WebKit judges
/// responsiveness only while it waits on the process for something (input, closing), so a page
/// that spins with nobody touching it (`for(;;){}` in a kiosk) is never judged at all. The host
/// sends a ping of its own — a trivial script in a world of its own, which runs only when the
/// page's scripts yield — every `interval`, one at a time; one unanswered for `deadline` judges
/// the process unresponsive (and `HangWatch` takes it from there), its answer responsive again.
///
/// A script dialog (`alert`, `confirm`, `prompt`) holds the page's scripts while it is shown, as
/// it should: the process waits on the person, not hung. From a dialog's opening until a ping is
/// answered (the scripts run again, so the dialog is closed), nothing is judged. What remains: a
/// page that spins right after its dialog is closed is not judged until it is reloaded.
public struct ResponsivenessProbe: Sendable, Equatable {
    public static let interval = 5.0
    public static let deadline = 5.0

    public enum Step: Sendable, Equatable {
        /// Run ping `id` in the page.
        case send(UInt64)
        /// The process is (true) or is not (false) running the page's scripts, newly so.
        case judged(Bool)
    }

    /// The ping awaiting its answer, and when it was sent.
    public private(set) var outstanding: (id: UInt64, sentAt: Double)?
    /// A dialog opened since the last answer: nothing is judged until one comes.
    public private(set) var excused = false
    /// The last judgement: the process answers.
    public private(set) var answering = true
    private var lastID: UInt64 = 0

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.outstanding?.id == b.outstanding?.id && a.outstanding?.sentAt == b.outstanding?.sentAt
            && a.excused == b.excused && a.answering == b.answering && a.lastID == b.lastID
    }

    /// The interval passed: send a ping, or judge the one still out.
    public mutating func tick(now: Double) -> Step? {
        guard let outstanding else {
            lastID += 1
            self.outstanding = (lastID, now)
            return .send(lastID)
        }
        guard !excused, answering, now - outstanding.sentAt >= Self.deadline else { return nil }
        answering = false
        return .judged(false)
    }

    /// Ping `id` came back (with a value or an error: either way the process ran it).
    public mutating func answered(_ id: UInt64) -> Step? {
        guard outstanding?.id == id else { return nil }
        outstanding = nil
        excused = false
        guard !answering else { return nil }
        answering = true
        return .judged(true)
    }

    /// The page showed a script dialog.
    public mutating func dialogShown() { excused = true }
}
