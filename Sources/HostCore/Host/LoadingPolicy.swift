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
