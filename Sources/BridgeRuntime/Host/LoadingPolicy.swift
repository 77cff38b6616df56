/// When the page is revealed (§4 "Loading"; `LoadingMachine` applies it).
public enum LoadingPolicy {
    /// Reveal the page once WebKit finished loading and either a catalog arrived or this much
    /// time passed since, so Studio's own chrome never flashes before the native one.
    public static let revealDelay = 0.3
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
