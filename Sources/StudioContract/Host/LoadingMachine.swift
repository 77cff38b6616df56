import HostCore

/// The timers loading a server's Studio runs.
public enum LoadingTimer: Hashable, Sendable {
    /// The page finished loading without a catalog: it is revealed when this fires.
    case revealDelay
    /// Kiosk: the next attempt after a failure.
    case kioskRetry
    /// The web process has not responded for `LoadingPolicy.unresponsiveLimit`: end it.
    case unresponsive
}

/// Something that happened while a session loads (or shows) its server's Studio.
public enum LoadingEvent: Sendable, Equatable {
    /// The session starts, or the person pressed Retry (or the control interface's reload):
    /// check the server's identity, then load Studio.
    case start
    /// Load Studio's start page again without another identity check (after sign-in or sign-out).
    case loadAgain
    /// The identity check `request` was answered; the verdict compares it with the saved one.
    case identityAnswered(request: Int, IdentityVerdict)
    /// The identity check `request` failed (`message`: how, in the check's own words).
    case identityFailed(request: Int, IdentityFailureKind, message: String)
    /// A main-frame document committed, with its HTTP status (0 when not over HTTP) and URI.
    case loadCommitted(status: Int, uri: String)
    /// WebKit finished loading the main frame.
    case loadFinished
    /// WebKit failed to load `uri`.
    case loadFailed(LoadFailure, uri: String)
    /// The page's catalog arrived (it may be reported again; only the first per document counts).
    case catalogArrived
    /// The page's web process ended, at `at` seconds on a monotonic clock.
    case webProcessEnded(WebProcessEnd, at: Double)
    /// WebKit judged the page's web process responsive again (true) or not (false).
    case webProcessResponsive(Bool)
    /// One of the machine's timers fired.
    case timerFired(LoadingTimer)
    /// The session is a kiosk: nobody presses Retry, so failures are retried unattended.
    case kioskMode
    /// The session is closed: nothing more is done, and its timers stop.
    case closed
}

/// Why WebKit did not load a page.
public enum LoadFailure: Sendable, Equatable {
    /// Another load replaced it (not a failure).
    case cancelled
    /// The navigation policy stopped it (a link sent to the browser; not a failure).
    case policy
    /// A real failure, with WebKit's reason.
    case other(String)
}

/// What the host must do for the machine.
public enum LoadingEffect: Sendable, Equatable {
    /// Ask the server who it is; answer with `identityAnswered`/`identityFailed` and `request`.
    case fetchIdentity(request: Int)
    /// Load Studio's start page (the server's origin, `/`).
    case loadStartPage
    /// Reload the page shown (after its web process ended).
    case reload
    /// End the page's web process (it hung); WebKit then reports it ended.
    case endWebProcess
    /// Show this in the window.
    case show(Screen)
    case timer(TimerCommand<LoadingTimer>)
}

/// A kiosk's next attempt, for state dumps.
public struct KioskRetry: Sendable, Equatable {
    /// Failures in a row so far (1 for the first).
    public let attempt: Int
    /// The pause before the attempt.
    public let inSeconds: Double
    /// What failed (the failure screen's title).
    public let reason: String

    public init(attempt: Int, inSeconds: Double, reason: String) {
        self.attempt = attempt
        self.inSeconds = inSeconds
        self.reason = reason
    }

    public var json: JSONValue {
        ["attempt": .number(Double(attempt)), "inSeconds": .number(inSeconds), "reason": .string(reason)]
    }
}

/// Loading a server's Studio (§4 "Loading" and "Server address"): the loading mark while its
/// identity is checked and the page loads; the page revealed once WebKit finished and a catalog
/// arrived or `LoadingPolicy.revealDelay` passed; an error screen with Retry for every failure
/// (an HTTP error page, a failed load, a web process that keeps dying, an identity that is not
/// the saved one); a reload after each web-process death within `CrashLimiter`'s limit. In a
/// kiosk a failure keeps the loading mark, saying what happened, and is retried after
/// `KioskBackoff`'s pause; a reveal resets the count.
public struct LoadingMachine: Machine, Sendable, Equatable {
    /// Where loading is.
    public enum Phase: Sendable, Equatable {
        /// Not started yet.
        case idle
        /// The identity check `request` is in flight.
        case verifying(request: Int)
        /// A load was asked for; the latest document committed in it so far, if any.
        case loading(Document?)
        /// The page is revealed.
        case shown
        /// A failure is shown (or, in a kiosk, waits for its retry).
        case failed
        case closed
    }

    /// A document committed while loading, and what it has done so far.
    public struct Document: Sendable, Equatable {
        public var status: Int
        public var uri: String
        public var finished = false
        public var catalogArrived = false
    }

    /// The server's name, as the screens say it.
    public let serverName: String
    public private(set) var phase: Phase = .idle
    public private(set) var screen: Screen
    /// Whether failures are retried without a person (a kiosk).
    public private(set) var unattended = false
    /// The kiosk's retry after the latest failure in a row; nil once the page was revealed.
    public private(set) var retry: KioskRetry?
    public private(set) var crashes = CrashLimiter()
    public private(set) var timers = TimerSet<LoadingTimer>()
    /// The latest identity check asked for; answers to earlier ones are stale.
    public private(set) var identityRequest = 0
    /// A hung web process: ended after `LoadingPolicy.unresponsiveLimit`.
    public private(set) var hang = HangWatch(timer: LoadingTimer.unresponsive)

    public init(serverName: String) {
        self.serverName = serverName
        screen = .loading("Connecting to \(serverName)…")
    }

    public mutating func reduce(_ event: LoadingEvent) -> [LoadingEffect] {
        if phase == .closed { return [] }
        switch event {
        case .start:
            return verify()
        case .loadAgain:
            return load(.loadStartPage, saying: "Loading \(serverName)…")
        case .identityAnswered(let request, let verdict):
            guard phase == .verifying(request: request) else { return [] }
            if let explanation = verdict.explanation { return fail(.wrongServer(explanation: explanation)) }
            return load(.loadStartPage, saying: "Loading \(serverName)…")
        case .identityFailed(let request, let kind, let message):
            guard phase == .verifying(request: request) else { return [] }
            return fail(.identity(kind, server: serverName, message: message))
        case .loadCommitted(let status, let uri):
            // Once revealed the page stays: later documents are Studio's own navigation.
            guard case .loading = phase else { return [] }
            phase = .loading(Document(status: status, uri: uri))
            return cancel(.revealDelay)  // the previous document's pause no longer counts
        case .loadFinished:
            guard case .loading(var document?) = phase, !document.finished else { return [] }
            document.finished = true
            phase = .loading(document)
            if document.status >= 400 { return fail(.httpError(document.status, server: serverName, uri: document.uri)) }
            if document.catalogArrived { return reveal() }
            return [.timer(timers.start(.revealDelay, after: LoadingPolicy.revealDelay))]
        case .catalogArrived:
            guard case .loading(var document?) = phase, !document.catalogArrived else { return [] }
            document.catalogArrived = true
            phase = .loading(document)
            return document.finished ? reveal() : []
        case .loadFailed(let failure, let uri):
            guard case .other(let reason) = failure, isLoadingOrShown else { return [] }
            return fail(.loadFailed(server: serverName, reason: reason, uri: uri))
        case .webProcessEnded(let ended, let time):
            let (reason, stop) = hang.ended(ended, &timers)
            let cancelled = stop.map { [LoadingEffect.timer($0)] } ?? []
            // While verifying or failed nothing of the page is shown: the next load replaces it.
            guard isLoadingOrShown else { return cancelled }
            guard crashes.recordDeath(at: time) else { return cancelled + fail(.keepsCrashing(reason)) }
            let saying = reason == .stoppedResponding ? "Studio stopped responding; reloading…" : "Studio stopped unexpectedly; reloading…"
            return cancelled + load(.reload, saying: saying)
        case .webProcessResponsive(let responsive):
            return hang.responsive(responsive, &timers).map { [.timer($0)] } ?? []
        case .timerFired(let name):
            guard timers.fire(name) else { return [] }
            switch name {
            case .revealDelay:
                guard case .loading(let document?) = phase, document.finished else { return [] }
                return reveal()
            case .kioskRetry:
                return verify()
            case .unresponsive:
                // Whatever is shown, a hung process serves nothing: even a Retry would load into it.
                hang.limitReached()
                return [.endWebProcess]
            }
        case .kioskMode:
            unattended = true
            return []
        case .closed:
            phase = .closed
            return timers.cancelAll().map(LoadingEffect.timer)
        }
    }

    private var isLoadingOrShown: Bool {
        switch phase {
        case .loading, .shown: return true
        case .idle, .verifying, .failed, .closed: return false
        }
    }

    /// Checks the identity again; a retry waiting is overtaken.
    private mutating func verify() -> [LoadingEffect] {
        identityRequest += 1
        phase = .verifying(request: identityRequest)
        return cancel(.revealDelay, .kioskRetry) + show(.loading("Connecting to \(serverName)…"))
            + [.fetchIdentity(request: identityRequest)]
    }

    private mutating func load(_ action: LoadingEffect, saying text: String) -> [LoadingEffect] {
        phase = .loading(nil)
        return cancel(.revealDelay, .kioskRetry) + show(.loading(text)) + [action]
    }

    private mutating func reveal() -> [LoadingEffect] {
        phase = .shown
        retry = nil
        return cancel(.revealDelay) + show(.page)
    }

    /// The error screen; in a kiosk the loading mark saying what happened, and a retry timer.
    private mutating func fail(_ error: ScreenError) -> [LoadingEffect] {
        phase = .failed
        let cancelled = cancel(.revealDelay)
        guard unattended else { return cancelled + show(.error(error)) }
        let attempt = (retry?.attempt ?? 0) + 1
        let delay = KioskBackoff.delay(attempt: attempt)
        retry = KioskRetry(attempt: attempt, inSeconds: delay, reason: error.title)
        return cancelled + show(.loading("\(error.title). Trying again in \(Int(delay)) s…"))
            + [.timer(timers.start(.kioskRetry, after: delay))]
    }

    private mutating func show(_ next: Screen) -> [LoadingEffect] {
        screen = next
        return [.show(next)]
    }

    private mutating func cancel(_ names: LoadingTimer...) -> [LoadingEffect] {
        names.compactMap { timers.cancel($0) }.map(LoadingEffect.timer)
    }
}
