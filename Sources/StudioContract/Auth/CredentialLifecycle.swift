import HostCore

/// The app credential's life cycle for one server (CONTRACT.md §4 "Sign-in (app credential)"),
/// as a pure state machine: the refresh schedule (60 s before expiry, 30 s after a failed
/// refresh), one refresh exchange at a time with its callers answered by kind, the grant ended
/// by a refused refresh, renewing Studio's session when it lands on `/login`, the sign-in
/// window's outcome, and the sign-out order with its 5 s wait for Studio. HostShell feeds it
/// events (with the wall clock) and carries out its effects with libsoup, WebKit and the store.
public struct CredentialLifecycle: Machine, Sendable, Equatable {
    /// Wait this long after a failed refresh (network, 429, 5xx) before trying again.
    public static let retryDelay = 30.0
    /// Wait at most this long for Studio's `auth/signed-out` after asking it to sign out.
    public static let signOutWait = 5.0
    /// An exchange with `POST /api/v1/oauth/ios-session` (sign-in, refresh) or the revocation
    /// endpoint that has not been answered within this many seconds has failed as a network
    /// error would (`unavailable`; a refresh is then tried again after `retryDelay`). Shorter
    /// than `Credential.refreshLead`, so a refresh begun on time has ended before the access
    /// token expires.
    public static let exchangeTimeout = 30.0

    /// The app's credential, while signed in with one. The secret itself: never dumped or logged.
    public private(set) var credential: Credential?
    /// Signed in with an older server that gives a Studio session but no app credential.
    public private(set) var studioSessionOnly = false
    /// The sign-in window is open or its exchange is under way.
    public private(set) var signingIn = false
    /// The last sign-in problem, worded for the person (nil after a good sign-in, and once a
    /// reload to sign Studio in shows a signed-in page).
    public private(set) var problem: String?
    public private(set) var timers = TimerSet<CredentialTimer>()
    /// The refresh exchange on the wire (one at a time: the refresh token rotates with each).
    public private(set) var exchange: RefreshExchange?
    /// A refresh that must renew Studio's session, asked while a credential-only one is on the
    /// wire: that one cannot answer it, and a second exchange beside it would reuse its token.
    /// It goes out next, with the rotated credential.
    public private(set) var queued: RefreshExchange?
    public private(set) var signOut = SignOutPhase.none
    /// What is known about the Studio document shown (from the events, not the web view's
    /// address, which already names a load that has not committed).
    public private(set) var studio = StudioFacts()
    private var nextExchangeId = 1
    private var signInCookiePending = false
    /// Studio was reloaded to be signed in and has not shown a signed-in page yet: landing on
    /// `/login` now means that did not work, and is not tried again by itself.
    private var reloadedToSignIn: ReloadReason?
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
            reload(.signIn, &effects)
        case .studioCookiePut(.refresh(let id)):
            guard let current = exchange, current.id == id, current.cookiePending else { break }
            settle(current, credentialFresh: true, studioRenewed: true, &effects)
        case .documentCommitted(let onLoginPage):
            studio = StudioFacts(ready: false, onLoginPage: onLoginPage, speaksAuthLifecycle: false)
            if onLoginPage { landedOnLogin(&effects) }
        case .studioReady(let speaksAuthLifecycle):
            guard !studio.replaced else { break }  // the document a reload replaces: not the reload's
            studio.ready = true
            studio.speaksAuthLifecycle = speaksAuthLifecycle
            if !studio.onLoginPage { signedInPageShown(&effects) }
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
            reloadStudio(&effects)
        case .timerFired(let name, let now):
            guard timers.fire(name) else { break }  // cancelled or replaced meanwhile: stale
            timerFired(name, now: now, &effects)
        case .closed:
            closed = true
            effects += timers.cancelAll().map(CredentialEffect.timer)
            if let current = exchange { answerAll(current, ok: false, &effects) }
            exchange?.waiters = []
            if let waiting = queued { answerAll(waiting, ok: false, &effects) }
            queued = nil
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
        let joining = waiter.map { [RefreshExchange.Waiter(id: $0, studioSession: studioSession)] } ?? []
        if var current = exchange {
            if current.studioSession || !studioSession {
                // One at a time: a caller the refresh on the wire answers shares it.
                current.waiters += joining
                current.renewsLogin = current.renewsLogin || renewsLogin
                exchange = current
            } else {
                // It renews no Studio session: this one goes next, on its own.
                var next = queued ?? RefreshExchange(id: 0, studioSession: true, waiters: [], renewsLogin: false)
                next.waiters += joining
                next.renewsLogin = next.renewsLogin || renewsLogin
                queued = next
            }
            return
        }
        start(studioSession: studioSession, waiters: joining, renewsLogin: renewsLogin, with: credential, &effects)
    }

    private mutating func start(studioSession: Bool, waiters: [RefreshExchange.Waiter], renewsLogin: Bool,
                                with credential: Credential, _ effects: inout [CredentialEffect]) {
        exchange = RefreshExchange(id: nextExchangeId, studioSession: studioSession, waiters: waiters, renewsLogin: renewsLogin)
        effects.append(.postRefresh(exchange: nextExchangeId, credential, studioSession: studioSession))
        nextExchangeId += 1
    }

    /// The exchange on the wire ended: the queued one goes out now, with the credential there is.
    private mutating func startQueued(_ effects: inout [CredentialEffect]) {
        guard exchange == nil, let next = queued else { return }
        queued = nil
        guard let credential else {
            answerAll(next, ok: false, &effects)
            if next.renewsLogin { openSignIn(&effects) }
            return
        }
        start(studioSession: true, waiters: next.waiters, renewsLogin: next.renewsLogin, with: credential, &effects)
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
                settle(current, credentialFresh: true, studioRenewed: false, &effects)
            }
        case .failed(.rejected(let why)):
            // The server ended the grant (a reused refresh token, a revoked sign-in): sign out.
            abandonRefreshes(&effects)
            credential = nil
            studioSessionOnly = false
            let text = "The server ended this sign-in (\(why)); sign in again."
            problem = text
            effects.append(.problem(text))
            beginSignOut(revoking: nil, askStudio: true, &effects)
        case .failed(let why):
            // Try again later; the credential stays until the server refuses it.
            effects.append(.timer(timers.start(.retryRefresh, after: Self.retryDelay)))
            settle(current, credentialFresh: false, studioRenewed: false, failure: why.description, &effects)
        case .studioSessionOnly:
            effects.append(.timer(timers.start(.retryRefresh, after: Self.retryDelay)))
            settle(current, credentialFresh: false, studioRenewed: false, failure: "the answer had no credential", &effects)
        }
    }

    /// The exchange is over: each caller hears whether it got what it asked for (a fresh
    /// credential; with `studioSession`, Studio's session renewed too), a `/login` landing its
    /// outcome; then a queued refresh goes out.
    private mutating func settle(_ done: RefreshExchange, credentialFresh: Bool, studioRenewed: Bool, failure: String? = nil,
                                 _ effects: inout [CredentialEffect]) {
        exchange = nil
        for waiter in done.waiters {
            effects.append(.answerRefresh(waiter: waiter.id, ok: waiter.studioSession ? studioRenewed : credentialFresh))
        }
        if done.renewsLogin {
            if studioRenewed {
                reload(.renewal, &effects)
            } else if credentialFresh {
                // Reloading would land on /login again, and again: sign in instead.
                fallBackToSignIn("The server renewed the app's credential but gave no Studio session; sign in again.", &effects)
            } else {
                fallBackToSignIn("Studio's session could not be renewed: \(failure ?? "no answer")", &effects)
            }
        }
        startQueued(&effects)
    }

    private func answerAll(_ done: RefreshExchange, ok: Bool, _ effects: inout [CredentialEffect]) {
        for waiter in done.waiters { effects.append(.answerRefresh(waiter: waiter.id, ok: ok)) }
    }

    /// The refreshes asked so far are not wanted any more (sign-out, a new sign-in, the grant
    /// ended): their callers hear no now, and a late answer is stale.
    private mutating func abandonRefreshes(_ effects: inout [CredentialEffect]) {
        for abandoned in [exchange, queued].compactMap({ $0 }) { answerAll(abandoned, ok: false, &effects) }
        exchange = nil
        queued = nil
    }

    private mutating func reload(_ reason: ReloadReason, _ effects: inout [CredentialEffect]) {
        reloadedToSignIn = reason
        reloadStudio(&effects)
    }

    /// Until the reload's document commits, the one on show speaks for nothing.
    private mutating func reloadStudio(_ effects: inout [CredentialEffect]) {
        studio.replaced = true
        effects.append(.reloadStudio)
    }

    /// Studio said `frontend/ready` on a page that is not `/login`: it is signed in. A reload to
    /// sign it in worked, and whatever problem kept it signed out is over.
    private mutating func signedInPageShown(_ effects: inout [CredentialEffect]) {
        guard reloadedToSignIn != nil else { return }
        reloadedToSignIn = nil
        guard problem != nil else { return }
        problem = nil
        effects.append(.changed)
    }

    // MARK: sign-in

    private mutating func openSignIn(_ effects: inout [CredentialEffect]) {
        guard !signingIn, signOut == .none else { return }
        signingIn = true
        problem = nil
        effects += [.openSignInWindow, .changed]
    }

    /// Studio's session was not renewed: the sign-in window, saying why.
    private mutating func fallBackToSignIn(_ why: String, _ effects: inout [CredentialEffect]) {
        openSignIn(&effects)
        problem = why
        effects.append(.problem(why))
    }

    private mutating func landedOnLogin(_ effects: inout [CredentialEffect]) {
        guard !signingIn, signOut == .none else { return }  // a window is open, or the sign-out reloads
        if let reason = reloadedToSignIn {
            // Studio was reloaded to be signed in and is at /login again: once is enough.
            reloadedToSignIn = nil
            switch reason {
            case .renewal:
                fallBackToSignIn("Studio did not accept the renewed session; sign in again.", &effects)
            case .signIn:
                let text = "The app signed in, but Studio still asks to sign in: the server's session did not take."
                problem = text
                effects += [.problem(text), .changed]
            }
        } else if credential != nil {
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
            abandonRefreshes(&effects)  // they carry the grant this sign-in replaces
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
            // Without a Studio session a reload only lands on /login again.
            let text = "The server signed the app in but gave no Studio session, so Studio stays signed out."
            problem = text
            effects.append(.problem(text))
        }
    }

    // MARK: sign-out

    /// Delete the credential, revoke it (best effort), ask Studio to sign out and wait for it,
    /// delete the server's cookies, reload.
    private mutating func beginSignOut(revoking: Credential?, askStudio: Bool, _ effects: inout [CredentialEffect]) {
        abandonRefreshes(&effects)
        for name in [CredentialTimer.refreshDue, .retryRefresh] {
            if let cancel = timers.cancel(name) { effects.append(.timer(cancel)) }
        }
        effects.append(.deleteCredential)
        if let revoking { effects.append(.revoke(revoking)) }
        credential = nil
        studioSessionOnly = false
        signInCookiePending = false
        reloadedToSignIn = nil
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
