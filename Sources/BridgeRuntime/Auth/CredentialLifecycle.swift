/// The app credential's life cycle for one server (CONTRACT.md §4 "Sign-in (app credential)"),
/// as a pure state machine: the refresh schedule (60 s before expiry, 30 s after a failed
/// refresh), one refresh exchange at a time with its callers answered by kind, the grant ended
/// by a refused refresh, renewing Studio's session when it lands on `/login`, the sign-in
/// window's outcome, and the sign-out order with its 5 s wait for Studio. HostShell feeds it
/// events (with the wall clock) and carries out its effects with libsoup, WebKit and the store.
public struct CredentialLifecycle: Sendable, Equatable {
    /// Wait this long after a failed refresh (network, 429, 5xx) before trying again.
    public static let retryDelay = 30.0
    /// Wait at most this long for Studio's `auth/signed-out` after asking it to sign out.
    public static let signOutWait = 5.0

    /// The app's credential, while signed in with one. The secret itself: never dumped or logged.
    public private(set) var credential: Credential?
    /// Signed in with an older server that gives a Studio session but no app credential.
    public private(set) var studioSessionOnly = false
    /// The sign-in window is open or its exchange is under way.
    public private(set) var signingIn = false
    /// The last sign-in problem, worded for the person (nil after a good sign-in).
    public private(set) var problem: String?
    public private(set) var timers = TimerSet<CredentialTimer>()
    /// The refresh exchange on the wire (one at a time: the refresh token rotates with each).
    public private(set) var exchange: RefreshExchange?
    public private(set) var signOut = SignOutPhase.none
    /// What is known about the Studio document shown.
    public private(set) var studio = StudioFacts()
    private var nextExchangeId = 1
    private var signInCookiePending = false
    private var closed = false

    public init() {}

    public var signedIn: Bool { credential != nil || studioSessionOnly }

    // MARK: reduce

    public mutating func reduce(_ event: CredentialEvent) -> [CredentialEffect] {
        var effects: [CredentialEffect] = []
        if closed {
            // The session went away: only a refreshed credential is still worth keeping (its
            // predecessor's refresh token is spent).
            if case .refreshAnswered(let id, .credential(let fresh), _, _) = event, id == exchange?.id {
                exchange = nil
                credential = fresh
                effects.append(.storeCredential(fresh))
            }
            return effects
        }
        switch event {
        case .loaded(let stored, let now):
            credential = stored
            if stored != nil { schedule(now: now, &effects) }
        case .signInRequested:
            openSignIn(&effects)
        case .signInEnded(let result, let studioCookie, let now):
            signInEnded(result, studioCookie: studioCookie, now: now, &effects)
        case .refreshRequested(let waiter, let studioSession):
            request(studioSession: studioSession, waiter: waiter, renewsLogin: false, &effects)
        case .refreshAnswered(let id, let result, let studioCookie, let now):
            answered(id, result, studioCookie: studioCookie, now: now, &effects)
        case .studioCookiePut(.signIn):
            guard signInCookiePending else { break }
            signInCookiePending = false
            effects.append(.reloadStudio)
        case .studioCookiePut(.refresh(let id)):
            guard let current = exchange, current.id == id, current.cookiePending else { break }
            settle(current, credentialFresh: true, studioRenewed: true, &effects)
        case .landedOnLogin:
            landedOnLogin(&effects)
        case .studioPage(let facts):
            studio = facts
        case .signOutRequested:
            guard signOut == .none else { break }
            beginSignOut(revoking: credential, askStudio: true, &effects)
        case .studioSignedOut:
            switch signOut {
            case .waitingForStudio:
                if let cancel = timers.cancel(.signOutWait) { effects.append(.timer(cancel)) }
                deleteCookies(&effects)
            case .none:
                // Studio signed out on its own: the app follows, without asking Studio again.
                beginSignOut(revoking: credential, askStudio: false, &effects)
            case .deletingCookies:
                break
            }
        case .cookiesDeleted:
            guard signOut == .deletingCookies else { break }
            signOut = .none
            effects.append(.reloadStudio)
        case .timerFired(let name, let now):
            guard timers.fire(name) else { break }  // cancelled or replaced meanwhile: stale
            timerFired(name, now: now, &effects)
        case .closed:
            closed = true
            effects += timers.cancelAll().map(CredentialEffect.timer)
            if let current = exchange { answerAll(current, ok: false, &effects) }
            exchange?.waiters = []
        }
        return effects
    }

    // MARK: refresh

    private mutating func schedule(now: Double, _ effects: inout [CredentialEffect]) {
        guard let credential else { return }
        effects.append(.timer(timers.start(.refreshDue, after: credential.refreshDue(now: now) - now)))
    }

    private mutating func timerFired(_ name: CredentialTimer, now: Double, _ effects: inout [CredentialEffect]) {
        switch name {
        case .refreshDue:
            guard let credential else { return }
            // The host's timer may fire early (it keeps at most a day): not due yet, wait on.
            guard credential.needsRefresh(now: now) else { return schedule(now: now, &effects) }
            request(studioSession: false, waiter: nil, renewsLogin: false, &effects)
        case .retryRefresh:
            request(studioSession: false, waiter: nil, renewsLogin: false, &effects)
        case .signOutWait:
            guard signOut == .waitingForStudio else { return }
            deleteCookies(&effects)
        }
    }

    /// A refresh is wanted: by a caller (`waiter`), the schedule (no waiter) or a landing on
    /// `/login` (`renewsLogin`).
    private mutating func request(studioSession: Bool, waiter: Int?, renewsLogin: Bool, _ effects: inout [CredentialEffect]) {
        guard let credential else {
            if let waiter { effects.append(.answerRefresh(waiter: waiter, ok: false)) }
            if renewsLogin { openSignIn(&effects) }
            return
        }
        if var current = exchange {
            // One at a time: a caller during a refresh shares it.
            if let waiter { current.waiters.append(.init(id: waiter, studioSession: studioSession)) }
            current.renewsLogin = current.renewsLogin || renewsLogin
            exchange = current
            return
        }
        let started = RefreshExchange(id: nextExchangeId, studioSession: studioSession,
                                      waiters: waiter.map { [.init(id: $0, studioSession: studioSession)] } ?? [],
                                      renewsLogin: renewsLogin)
        nextExchangeId += 1
        exchange = started
        effects.append(.postRefresh(exchange: started.id, credential, studioSession: studioSession))
    }

    private mutating func answered(_ id: Int, _ result: SessionExchangeResult, studioCookie: Bool, now: Double,
                                   _ effects: inout [CredentialEffect]) {
        guard let current = exchange, current.id == id, !current.cookiePending else {
            // Overtaken (a sign-out or a new sign-in): a credential it brought is revoked, never kept.
            if case .credential(let fresh) = result { effects.append(.revoke(fresh)) }
            return
        }
        switch result {
        case .credential(let fresh):
            credential = fresh
            effects.append(.storeCredential(fresh))
            if let cancel = timers.cancel(.retryRefresh) { effects.append(.timer(cancel)) }
            schedule(now: now, &effects)
            effects.append(.changed)
            if studioCookie {
                exchange?.cookiePending = true
                effects.append(.putStudioCookie(.refresh(exchange: id)))
            } else {
                settle(current, credentialFresh: true, studioRenewed: true, &effects)
            }
        case .failed(.rejected(let why)):
            // The server ended the grant (a reused refresh token, a revoked sign-in): sign out.
            answerAll(current, ok: false, &effects)
            exchange = nil
            credential = nil
            studioSessionOnly = false
            let text = "The server ended this sign-in (\(why)); sign in again."
            problem = text
            effects.append(.problem(text))
            beginSignOut(revoking: nil, askStudio: true, &effects)
        case .failed, .studioSessionOnly:
            // Try again later; the credential stays until the server refuses it.
            effects.append(.timer(timers.start(.retryRefresh, after: Self.retryDelay)))
            settle(current, credentialFresh: false, studioRenewed: false, &effects)
        }
    }

    /// The exchange is over: its callers get their answers, a `/login` landing its outcome.
    private mutating func settle(_ done: RefreshExchange, credentialFresh: Bool, studioRenewed: Bool,
                                 _ effects: inout [CredentialEffect]) {
        exchange = nil
        for waiter in done.waiters { effects.append(.answerRefresh(waiter: waiter.id, ok: credentialFresh)) }
        if done.renewsLogin {
            if credentialFresh { effects.append(.reloadStudio) } else { openSignIn(&effects) }
        }
    }

    private func answerAll(_ done: RefreshExchange, ok: Bool, _ effects: inout [CredentialEffect]) {
        for waiter in done.waiters { effects.append(.answerRefresh(waiter: waiter.id, ok: ok)) }
    }

    // MARK: sign-in

    private mutating func openSignIn(_ effects: inout [CredentialEffect]) {
        guard !signingIn, signOut == .none else { return }
        signingIn = true
        problem = nil
        effects += [.openSignInWindow, .changed]
    }

    private mutating func landedOnLogin(_ effects: inout [CredentialEffect]) {
        guard !signingIn, signOut == .none else { return }  // a window is open, or the sign-out reloads
        if credential != nil {
            // The grant is valid: renew Studio's session with it, no window needed.
            request(studioSession: true, waiter: nil, renewsLogin: true, &effects)
        } else {
            openSignIn(&effects)
        }
    }

    private mutating func signInEnded(_ result: SessionExchangeResult, studioCookie: Bool, now: Double,
                                      _ effects: inout [CredentialEffect]) {
        guard signingIn else { return }
        signingIn = false
        switch result {
        case .failed(let why):
            problem = why.description
            effects += [.problem(why.description), .changed]
            return
        case .credential(let fresh):
            if let overtaken = exchange {
                answerAll(overtaken, ok: false, &effects)
                exchange = nil
            }
            credential = fresh
            studioSessionOnly = false
            effects.append(.storeCredential(fresh))
            if let cancel = timers.cancel(.retryRefresh) { effects.append(.timer(cancel)) }
            schedule(now: now, &effects)
        case .studioSessionOnly:
            studioSessionOnly = true
        }
        problem = nil
        effects.append(.changed)
        if studioCookie {
            signInCookiePending = true
            effects.append(.putStudioCookie(.signIn))
        } else {
            effects.append(.reloadStudio)
        }
    }

    // MARK: sign-out

    /// Delete the credential, revoke it (best effort), ask Studio to sign out and wait for it,
    /// delete the server's cookies, reload.
    private mutating func beginSignOut(revoking: Credential?, askStudio: Bool, _ effects: inout [CredentialEffect]) {
        if let overtaken = exchange {
            answerAll(overtaken, ok: false, &effects)
            exchange = nil
        }
        for name in [CredentialTimer.refreshDue, .retryRefresh] {
            if let cancel = timers.cancel(name) { effects.append(.timer(cancel)) }
        }
        effects.append(.deleteCredential)
        if let revoking { effects.append(.revoke(revoking)) }
        credential = nil
        studioSessionOnly = false
        signInCookiePending = false
        effects += [.dropDeepLink, .changed]
        if askStudio && studio.listensForSignOut {
            signOut = .waitingForStudio
            effects += [.askStudioToSignOut, .timer(timers.start(.signOutWait, after: Self.signOutWait))]
        } else {
            deleteCookies(&effects)
        }
    }

    private mutating func deleteCookies(_ effects: inout [CredentialEffect]) {
        signOut = .deletingCookies
        effects.append(.deleteCookies)
    }
}

/// The life cycle's timers, one of each at most.
public enum CredentialTimer: Hashable, Sendable {
    /// The credential's refresh, 60 s before it expires.
    case refreshDue
    /// Another try after a refresh that failed without a refusal.
    case retryRefresh
    /// The wait for Studio's `auth/signed-out` during a sign-out.
    case signOutWait
}

/// A refresh exchange on the wire and who waits for it.
public struct RefreshExchange: Sendable, Equatable {
    public struct Waiter: Sendable, Equatable {
        public var id: Int
        /// The caller needs Studio's session renewed, not only the credential.
        public var studioSession: Bool
    }

    public let id: Int
    /// The request asks the server for a Studio session too (`studio_session`).
    public let studioSession: Bool
    public var waiters: [Waiter]
    /// Studio landed on `/login`: reload it when this renews its session.
    public var renewsLogin: Bool
    /// Answered with a credential; its Studio cookie is being put into the website data.
    public var cookiePending = false
}

public enum SignOutPhase: Sendable, Equatable {
    case none
    /// Studio was asked (`auth/sign-out-request`); waiting ≤ 5 s for `auth/signed-out`.
    case waitingForStudio
    /// The server's cookies are being deleted; Studio reloads next.
    case deletingCookies
}

/// What the host knows about the Studio document on show.
public struct StudioFacts: Sendable, Equatable {
    /// Studio sent `frontend/ready` in this document.
    public var ready: Bool
    /// The document is Studio's sign-in page.
    public var onLoginPage: Bool
    /// Studio speaks the auth lifecycle (it answers `auth/sign-out-request`).
    public var speaksAuthLifecycle: Bool

    public init(ready: Bool = false, onLoginPage: Bool = false, speaksAuthLifecycle: Bool = false) {
        self.ready = ready; self.onLoginPage = onLoginPage; self.speaksAuthLifecycle = speaksAuthLifecycle
    }

    /// Studio can be asked to sign out now.
    public var listensForSignOut: Bool { ready && speaksAuthLifecycle }
}

/// Whose Studio cookie is being put into the website data.
public enum StudioCookieOwner: Sendable, Equatable, Hashable {
    case signIn
    case refresh(exchange: Int)
}

public enum CredentialEvent: Sendable, Equatable {
    /// The session opened with the stored credential (or none), at `now`.
    case loaded(Credential?, now: Double)
    /// The person (or the control interface) asked to sign in.
    case signInRequested
    /// The sign-in window closed: its exchange's result (`.failed(.cancelled)` when the person
    /// closed it), and whether the answer set a Studio session cookie.
    case signInEnded(SessionExchangeResult, studioCookie: Bool, now: Double)
    /// A caller wants a fresh credential; `studioSession`: Studio's session renewed too. The
    /// host answers `waiter` once, with `answerRefresh`.
    case refreshRequested(waiter: Int, studioSession: Bool)
    /// The refresh `exchange` answered; `studioCookie`: it set a Studio session cookie.
    case refreshAnswered(exchange: Int, SessionExchangeResult, studioCookie: Bool, now: Double)
    /// A `putStudioCookie` finished.
    case studioCookiePut(StudioCookieOwner)
    /// Studio's document committed on its sign-in page (`/login`).
    case landedOnLogin
    /// What is known about Studio's document changed.
    case studioPage(StudioFacts)
    /// The person (or the control interface) asked to sign out.
    case signOutRequested
    /// Studio said `auth/signed-out`.
    case studioSignedOut
    /// A `deleteCookies` finished.
    case cookiesDeleted
    case timerFired(CredentialTimer, now: Double)
    /// The session is going away.
    case closed
}

public enum CredentialEffect: Sendable, Equatable {
    case timer(TimerCommand<CredentialTimer>)
    /// `POST /api/v1/oauth/ios-session` with `SessionExchangeResult.refreshBody(credential,
    /// studioSession:)`, answered with `.refreshAnswered(exchange:…)`.
    case postRefresh(exchange: Int, Credential, studioSession: Bool)
    /// Answer the caller `waiter` of a `refreshRequested`.
    case answerRefresh(waiter: Int, ok: Bool)
    /// Keep this credential in the store (replacing the one there).
    case storeCredential(Credential)
    /// Delete this server's credential from the store.
    case deleteCredential
    /// `POST /api/v1/oauth/revoke` with the credential's refresh token (best effort).
    case revoke(Credential)
    /// Put the Studio session cookie that came with `owner`'s answer into the server's website
    /// data, then report `.studioCookiePut(owner)`. A cookie not asked for is dropped.
    case putStudioCookie(StudioCookieOwner)
    case openSignInWindow
    /// Send `auth/sign-out-request`.
    case askStudioToSignOut
    /// Forget a deep link waiting for Studio: it goes with the sign-in.
    case dropDeepLink
    /// Delete the server's cookies, then report `.cookiesDeleted`.
    case deleteCookies
    /// Load Studio's start page.
    case reloadStudio
    /// Tell the person (a notice).
    case problem(String)
    /// The sign-in state changed (credential held, signing in, problem): redraw, tell the page.
    case changed
}
