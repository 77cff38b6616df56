/// How `hostshell kiosk` runs a Studio unattended.
public struct KioskOptions: Sendable, Equatable {
    /// Show the native chrome (header bar, native tabs or sidebar); by default Studio draws its
    /// own navigation and the window is only the page.
    public var chrome: Bool
    /// Seconds without pointer movement before the pointer is hidden.
    public var cursorTimeout: Double
    /// The cursor timeouts `--cursor-timeout` takes, in seconds.
    public static let cursorTimeoutRange = 0.1...3600.0

    public init(chrome: Bool = false, cursorTimeout: Double = 3) {
        self.chrome = chrome
        self.cursorTimeout = cursorTimeout
    }
}

/// The pause before the next attempt when a kiosk's Studio failed (unreachable, an error page,
/// a web process that keeps crashing): 1 s, doubling after each failure in a row, at most 60 s.
public enum KioskBackoff {
    public static let longest = 60.0

    public static func delay(attempt: Int) -> Double {
        guard attempt > 1 else { return 1 }
        return min(longest, Double(1 << min(attempt - 1, 10)))
    }
}
