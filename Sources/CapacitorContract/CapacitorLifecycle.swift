import HostCore

/// The window's facts in iOS's lifecycle meaning (contract §4, issue 13 item 3): focus is
/// "active", being shown (mapped, not minimised) is "foreground". The App plugin turns the
/// changes into its events and keeps their order (`AppPlugin`).
public struct WindowPresence: Sendable, Equatable {
    /// The window has the keyboard focus (GtkWindow `is-active`).
    public var focused: Bool
    /// The window is mapped and not minimised.
    public var shown: Bool
    public init(focused: Bool, shown: Bool) { self.focused = focused; self.shown = shown }

    /// The lifecycle changes going from `old` to `new` means: hidden → `background` (the plugin
    /// sends appStateChange(false) and pause); shown again and focused → `foreground` (resume,
    /// appStateChange(true)); shown without the focus waits for the focus; the focus lost while
    /// shown → `blur`, got → `focus`.
    public static func changes(from old: WindowPresence, to new: WindowPresence) -> [ControlCommand.LifecycleChange] {
        switch (old.shown, new.shown) {
        case (true, false): return [.background]
        case (false, true): return new.focused ? [.foreground] : []
        case (false, false): return []
        case (true, true):
            if old.focused == new.focused { return [] }
            return [new.focused ? .focus : .blur]
        }
    }
}

/// What a Capacitor app's window shows: loading until the first document finished, then the
/// page; an error screen when the document could not be loaded, came as an HTTP error, or its
/// process kept ending. A kiosk retries an error screen after `KioskBackoff`'s pause. Pure; the
/// app draws `screen` and carries out `.reload` and the timer.
public struct CapacitorLoading: Machine, Sendable, Equatable {
    public enum Timer: Hashable, Sendable {
        case kioskRetry
        /// The web process has not responded for `LoadingPolicy.unresponsiveLimit`: end it.
        case unresponsive
    }

    public enum Event: Sendable, Equatable {
        case start
        case committed(status: Int, uri: String)
        case finished
        /// WebKit's own reason; cancelled loads and policy decisions are not failures.
        case failed(reason: String, uri: String)
        case processEnded(WebProcessEnd, at: Double)
        /// WebKit judged the page's web process responsive again (true) or not (false).
        case processResponsive(Bool)
        /// Retry on an error screen.
        case retry
        case timerFired(Timer)
    }

    public enum Effect: Sendable, Equatable {
        case reload
        /// End the page's web process (it hung); WebKit then reports it ended.
        case endWebProcess
        case timer(TimerCommand<Timer>)
    }

    /// The app as the person knows it, for the screens.
    public let appName: String
    /// Unattended: an error screen is retried by itself.
    public let kiosk: Bool
    public private(set) var screen: Screen
    public private(set) var timers = TimerSet<Timer>()
    /// Error screens in a row (a kiosk's backoff), back to 0 when the page shows.
    public private(set) var failuresInARow = 0
    private var crashes = CrashLimiter()
    private var failedDocument = false
    /// A hung web process: ended after `LoadingPolicy.unresponsiveLimit`.
    public private(set) var hang = HangWatch(timer: Timer.unresponsive)

    public init(appName: String, kiosk: Bool = false) {
        self.appName = appName
        self.kiosk = kiosk
        screen = .loading("Loading \(appName)…")
    }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .start:
            screen = .loading("Loading \(appName)…")
            return []
        case .committed(let status, let uri):
            failedDocument = status >= 400
            return failedDocument ? fail(.httpError(status, server: appName, uri: uri)) : []
        case .finished:
            // An error screen stays until Retry; a load that finished reveals the page.
            if case .loading = screen, !failedDocument {
                screen = .page
                failuresInARow = 0
            }
            return []
        case .failed(let reason, let uri):
            return fail(.loadFailed(server: appName, reason: reason, uri: uri))
        case .processEnded(let ended, let time):
            let (end, stop) = hang.ended(ended, &timers)
            let cancelled = stop.map { [Effect.timer($0)] } ?? []
            if crashes.recordDeath(at: time) {
                screen = .loading(end == .stoppedResponding ? "\(appName) stopped responding; loading it again…" : "Loading \(appName) again…")
                return cancelled + [.reload]
            }
            return cancelled + fail(ScreenError(.keepsCrashing, title: "\(appName) keeps stopping",
                                    detail: "The page's process ended more than \(CrashLimiter.maxDeaths) times in \(Int(CrashLimiter.window)) seconds (\(end.wording)).",
                                    icon: "dialog-error-symbolic"))
        case .retry:
            crashes = CrashLimiter()
            screen = .loading("Loading \(appName)…")
            return [.reload] + (timers.cancel(.kioskRetry).map { [.timer($0)] } ?? [])
        case .processResponsive(let responsive):
            return hang.responsive(responsive, &timers).map { [.timer($0)] } ?? []
        case .timerFired(.unresponsive):
            guard timers.fire(.unresponsive) else { return [] }
            hang.limitReached()
            return [.endWebProcess]
        case .timerFired(let timer):
            guard timers.fire(timer), case .error = screen else { return [] }
            screen = .loading("Loading \(appName) again…")
            return [.reload]
        }
    }

    private mutating func fail(_ error: ScreenError) -> [Effect] {
        screen = .error(error)
        guard kiosk else { return [] }
        failuresInARow += 1
        return [.timer(timers.start(.kioskRetry, after: KioskBackoff.delay(attempt: failuresInARow)))]
    }
}
