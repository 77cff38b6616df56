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

/// Where a main-frame navigation may go: the server's own origin stays in the app; anything
/// else on the web opens in the system browser; other schemes are refused.
public enum NavigationTarget: Sendable, Equatable {
    case stay
    case openInBrowser
    case refuse

    /// `about:blank` (in any ASCII case, optionally with a query or fragment) stays; a
    /// `mailto:` address goes to the system's handler. Both are read on scalars (§5), so
    /// `about:blankx` or `about:blank` followed by a mark is neither.
    public static func decide(url: String, serverOrigin: Origin) -> NavigationTarget {
        if isAboutBlank(url) { return .stay }
        guard let origin = Origin(url: url) else {
            return url.hasPrefixFoldingASCII("mailto:") ? .openInBrowser : .refuse
        }
        return origin == serverOrigin ? .stay : .openInBrowser
    }

    static func isAboutBlank(_ url: String) -> Bool {
        guard url.hasPrefixFoldingASCII("about:blank") else { return false }
        let next = url.utf8.dropFirst("about:blank".utf8.count).first
        return next == nil || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
    }
}
