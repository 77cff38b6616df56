/// What a state machine asks the host to do with one of its timers. Timers are named by purpose
/// (an enum per machine): at most one runs per name, so starting a running one restarts it.
public enum TimerCommand<Name: Hashable & Sendable>: Sendable, Equatable {
    /// Start `name` to fire once after `after` seconds, replacing one of that name that runs.
    case start(Name, after: Double)
    /// Stop `name`; it will not fire.
    case cancel(Name)
}

/// The timers a state machine has running, kept in its state so tests can see them: the host
/// only carries out the commands and reports a fire. A fire for a timer that is not running
/// (cancelled or replaced meanwhile) is stale and ignored.
public struct TimerSet<Name: Hashable & Sendable>: Sendable, Equatable {
    /// The running timers and the delay each was started with, in seconds.
    public private(set) var running: [Name: Double] = [:]

    public init() {}

    public func isRunning(_ name: Name) -> Bool { running[name] != nil }

    /// Starts (or restarts) `name`; returns the command for the host.
    public mutating func start(_ name: Name, after seconds: Double) -> TimerCommand<Name> {
        let delay = seconds.isFinite ? max(0, seconds) : 0
        running[name] = delay
        return .start(name, after: delay)
    }

    /// Stops `name`; nil when it was not running (nothing for the host to do).
    public mutating func cancel(_ name: Name) -> TimerCommand<Name>? {
        running.removeValue(forKey: name) == nil ? nil : .cancel(name)
    }

    /// Stops every timer (the machine's owner is going away).
    public mutating func cancelAll() -> [TimerCommand<Name>] {
        defer { running = [:] }
        return running.keys.map { .cancel($0) }
    }

    /// The host reports that `name` fired: true when it was running (and so is no more).
    public mutating func fire(_ name: Name) -> Bool {
        running.removeValue(forKey: name) != nil
    }
}
