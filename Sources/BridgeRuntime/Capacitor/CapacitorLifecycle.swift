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
/// process kept ending. Pure; the app draws `screen` and carries out `.reload`.
public struct CapacitorLoading: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        case start
        case committed(status: Int, uri: String)
        case finished
        /// WebKit's own reason; cancelled loads and policy decisions are not failures.
        case failed(reason: String, uri: String)
        case processEnded(WebProcessEnd, at: Double)
        /// Retry on an error screen.
        case retry
    }

    public enum Effect: Sendable, Equatable {
        case reload
    }

    /// The app as the person knows it, for the screens.
    public let appName: String
    public private(set) var screen: Screen
    private var crashes = CrashLimiter()
    private var failedDocument = false

    public init(appName: String) {
        self.appName = appName
        screen = .loading("Loading \(appName)…")
    }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .start:
            screen = .loading("Loading \(appName)…")
            return []
        case .committed(let status, let uri):
            failedDocument = status >= 400
            if failedDocument { screen = .error(.httpError(status, server: appName, uri: uri)) }
            return []
        case .finished:
            // An error screen stays until Retry; a load that finished reveals the page.
            if case .loading = screen, !failedDocument { screen = .page }
            return []
        case .failed(let reason, let uri):
            screen = .error(.loadFailed(server: appName, reason: reason, uri: uri))
            return []
        case .processEnded(let end, let time):
            if crashes.recordDeath(at: time) {
                screen = .loading("Loading \(appName) again…")
                return [.reload]
            }
            screen = .error(ScreenError(.keepsCrashing, title: "\(appName) keeps stopping",
                                        detail: "The page's process ended more than \(CrashLimiter.maxDeaths) times in \(Int(CrashLimiter.window)) seconds (\(end.wording)).",
                                        icon: "dialog-error-symbolic"))
            return []
        case .retry:
            crashes = CrashLimiter()
            screen = .loading("Loading \(appName)…")
            return [.reload]
        }
    }
}
