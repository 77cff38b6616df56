import HostCore

// The events, effects and pieces of state of `CredentialLifecycle`.

/// Why Studio was reloaded after a sign-in step.
enum ReloadReason: Sendable, Equatable {
    /// Its session was renewed with the credential (`/login` landing).
    case renewal
    /// The sign-in window signed the app in.
    case signIn
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
    /// The life cycle reloaded Studio and the next document has not committed: a
    /// `frontend/ready` heard now comes from the document on its way out, and does not count.
    public var replaced: Bool

    public init(ready: Bool = false, onLoginPage: Bool = false, speaksAuthLifecycle: Bool = false, replaced: Bool = false) {
        self.ready = ready; self.onLoginPage = onLoginPage; self.speaksAuthLifecycle = speaksAuthLifecycle
        self.replaced = replaced
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
    /// A new Studio document committed; `onLoginPage`: Studio's sign-in page (`/login`), where
    /// a signed-out Studio lands.
    case documentCommitted(onLoginPage: Bool)
    /// Studio sent `frontend/ready` in this document; `speaksAuthLifecycle`: it answers
    /// `auth/sign-out-request`.
    case studioReady(speaksAuthLifecycle: Bool)
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
