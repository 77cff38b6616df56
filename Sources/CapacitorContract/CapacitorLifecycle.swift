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

/// The app's state as iOS has it (`UIApplication.State`): active (in front, taking input),
/// inactive (in front, something of the system's over it or the focus elsewhere), background.
public enum AppState: String, Sendable, Equatable, CaseIterable {
    case active, inactive, background

    /// iOS's transitions between two states, in the order it posts them.
    public enum Transition: String, Sendable, Equatable {
        case willResignActive, didEnterBackground, willEnterForeground, didBecomeActive
    }

    /// The transitions from `self` to `new`, in order (none when they are the same).
    public func transitions(to new: AppState) -> [Transition] {
        switch (self, new) {
        case (.active, .inactive): [.willResignActive]
        case (.active, .background): [.willResignActive, .didEnterBackground]
        case (.inactive, .active): [.didBecomeActive]
        case (.inactive, .background): [.didEnterBackground]
        case (.background, .inactive): [.willEnterForeground]
        case (.background, .active): [.willEnterForeground, .didBecomeActive]
        default: []
        }
    }
}

/// The app's lifecycle as iOS would run it (contract §4; issue 28 items 1 and 3): the window's
/// facts, or `ctl lifecycle` once it has taken over, and on top of them the system's own
/// surfaces shown over the app (a permission dialog, a share sheet, a file chooser, a
/// notification banner), each by an id. A surface shown resigns active; the last one closed
/// makes the app active again — the focus back in the page — unless it went to the background
/// meanwhile. A notification opened while the app is in the background brings it forward in
/// iOS's order: willEnterForeground, the notification response, didBecomeActive. The plugins are
/// told the new state (`PluginHostEvent.appState`); the App plugin turns it into its events.
public struct AppLifecycle: Machine, Sendable, Equatable {
    /// Who drives the window's facts: the window itself until `ctl lifecycle` (or a replay) does.
    public enum Source: String, Sendable, Equatable { case window, control, replay }

    public enum Event: Sendable, Equatable {
        /// The window's focus or visibility changed (followed while the window drives).
        case window(ControlCommand.LifecycleChange)
        /// `ctl lifecycle`: the control interface drives from now on.
        case control(ControlCommand.LifecycleChange)
        /// Another driver takes over (a replay): the window is no longer followed.
        case drivenBy(Source)
        /// A system surface with this id is shown over the app, or closed.
        case surfaceShown(String)
        case surfaceClosed(String)
        /// A person opened one of the app's notifications; `response` is the plugins' event for it.
        case notificationOpened(response: PluginHostEvent)
    }

    public enum Effect: Sendable, Equatable {
        /// Offer this event to the plugins (in order).
        case post(PluginHostEvent)
        /// Raise the app's window and put the keyboard focus back in its page.
        case returnFocus
    }

    public private(set) var source: Source = .window
    /// The window's facts as the driver last said them.
    public private(set) var focused = true
    public private(set) var shown = true
    /// The system's surfaces over the app, oldest first.
    public private(set) var surfaces: [String] = []
    /// The state the plugins were last told.
    public private(set) var state: AppState = .active
    /// How many times the focus was given back to the page (for `ctl state`).
    public private(set) var focusReturns = 0

    public init() {}

    /// What the facts and the surfaces make the app now.
    public var derived: AppState { !shown ? .background : focused && surfaces.isEmpty ? .active : .inactive }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .window(let change):
            guard source == .window else { return [] }
            apply(change)
            return settle()
        case .control(let change):
            source = .control
            apply(change)
            return settle()
        case .drivenBy(let driver):
            source = driver
            return []
        case .surfaceShown(let id):
            guard !surfaces.contains(id) else { return [] }
            surfaces.append(id)
            return settle()
        case .surfaceClosed(let id):
            guard let index = surfaces.firstIndex(of: id) else { return [] }
            surfaces.remove(at: index)
            // The system gives the app back its focus when the last of its surfaces goes.
            guard surfaces.isEmpty, shown else { return settle() }
            focused = true
            return settle() + returnFocus()
        case .notificationOpened(let response):
            // iOS's order for a notification opened while the app is in the background:
            // willEnterForeground, then the response (the app is inactive when it gets it), then
            // didBecomeActive — as measured and reported for iOS 10 and later ("Opening push when
            // backgrounded", newbe.dev and medium.com/@jigarm, "Delegate methods called when
            // opening app"); Apple's UNUserNotificationCenterDelegate page does not spell it out.
            var effects: [Effect] = []
            if !shown {
                shown = true
                state = .inactive  // willEnterForeground first, then the response
                effects.append(.post(.appState(.inactive)))
            }
            effects.append(.post(response))
            focused = true
            return effects + settle() + returnFocus()
        }
    }

    private mutating func apply(_ change: ControlCommand.LifecycleChange) {
        switch change {
        case .blur: focused = false
        case .background: shown = false
        case .focus, .foreground: focused = true; shown = true
        }
    }

    private mutating func returnFocus() -> [Effect] {
        focusReturns += 1
        return [.returnFocus]
    }

    private mutating func settle() -> [Effect] {
        let now = derived
        guard now != state else { return [] }
        state = now
        return [.post(.appState(now))]
    }

    /// `ctl state`'s `capacitor.lifecycle`.
    public var json: JSONValue {
        ["state": .string(state.rawValue), "source": .string(source.rawValue), "focused": .bool(focused), "shown": .bool(shown),
         "surfaces": .array(surfaces.map(JSONValue.string)), "focusReturns": .number(Double(focusReturns))]
    }
}

/// What a Capacitor app's window shows: loading until a document came and finished, then the
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
        /// The document's load was cut off (the network layer cancelled it, no other load
        /// replaced it: WebKit reports a refused certificate so when busy). Made again once while
        /// loading, as the person would press Retry; an error screen the second time.
        case interrupted(uri: String)
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
    /// A document came since the load started (a load that finished without one shows nothing).
    private var documentCommitted = false
    /// The load under way was already made again once after being cut off.
    private var madeAgainAfterCutOff = false
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
            documentCommitted = false
            madeAgainAfterCutOff = false
            return []
        case .committed(let status, let uri):
            failedDocument = status >= 400
            documentCommitted = true
            madeAgainAfterCutOff = false
            return failedDocument ? fail(.httpError(status, server: appName, uri: uri)) : []
        case .finished:
            // An error screen stays until Retry; a load that finished with its document reveals
            // the page (one that ended without a document was replaced or cut off: what follows
            // decides).
            if case .loading = screen, !failedDocument, documentCommitted {
                screen = .page
                failuresInARow = 0
            }
            return []
        case .failed(let reason, let uri):
            return fail(.loadFailed(server: appName, reason: reason, uri: uri))
        case .interrupted(let uri):
            guard case .loading = screen else { return [] }  // a page shown, or an error, stays
            if !madeAgainAfterCutOff {
                madeAgainAfterCutOff = true
                documentCommitted = false
                return [.reload]
            }
            return fail(.loadFailed(server: appName, reason: "The load was cut off twice before the page came (Operation was cancelled)", uri: uri))
        case .processEnded(let ended, let time):
            let (end, stop) = hang.ended(ended, &timers)
            let cancelled = stop.map { [Effect.timer($0)] } ?? []
            if crashes.recordDeath(at: time) {
                documentCommitted = false
                screen = .loading(end == .stoppedResponding ? "\(appName) stopped responding; loading it again…" : "Loading \(appName) again…")
                return cancelled + [.reload]
            }
            return cancelled + fail(ScreenError(.keepsCrashing, title: "\(appName) keeps stopping",
                                    detail: "The page's process ended more than \(CrashLimiter.maxDeaths) times in \(Int(CrashLimiter.window)) seconds (\(end.wording)).",
                                    icon: "dialog-error-symbolic"))
        case .retry:
            crashes = CrashLimiter()
            screen = .loading("Loading \(appName)…")
            documentCommitted = false
            madeAgainAfterCutOff = false
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
            documentCommitted = false
            madeAgainAfterCutOff = false
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
