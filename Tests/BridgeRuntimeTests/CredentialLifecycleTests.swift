import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("The app credential's life cycle: refresh schedule, one exchange at a time, grant ended, /login renewal, sign-out order")
struct CredentialLifecycleTests {
    static let first = Credential(accessToken: "tca_1", refreshToken: "tcr_1", expiresAt: 1000)
    static let second = Credential(accessToken: "tca_2", refreshToken: "tcr_2", expiresAt: 2000)
    static let third = Credential(accessToken: "tca_3", refreshToken: "tcr_3", expiresAt: 3000)
    /// Signed in with `first` at t = 100, Studio's start page shown, by default ready and
    /// speaking the auth lifecycle.
    static func signedIn(ready: Bool = true, speaksAuthLifecycle: Bool = true) -> CredentialLifecycle {
        var machine = CredentialLifecycle()
        _ = machine.reduce(.loaded(first, now: 100))
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        if ready { _ = machine.reduce(.studioReady(speaksAuthLifecycle: speaksAuthLifecycle)) }
        return machine
    }

    static func posts(_ effects: [CredentialEffect]) -> [CredentialEffect] {
        effects.filter { if case .postRefresh = $0 { return true } else { return false } }
    }

    // MARK: schedule

    @Test("the refresh is scheduled 60 s before expiry, goes out when due, and the next follows the new expiry")
    func schedule() {
        var machine = CredentialLifecycle()
        #expect(machine.reduce(.loaded(Self.first, now: 100)) == [.timer(.start(.refreshDue, after: 840))])
        let due = machine.reduce(.timerFired(.refreshDue, now: 940))
        #expect(due == [.postRefresh(exchange: 1, Self.first, studioSession: false)])
        let answered = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 941))
        #expect(answered == [.storeCredential(Self.second), .timer(.start(.refreshDue, after: 999)), .changed])
        #expect(machine.credential == Self.second)
        #expect(machine.timers.running == [.refreshDue: 999])
    }

    @Test("an overdue credential refreshes at once; a timer that fired early (the host keeps at most a day) waits on")
    func overdueAndEarly() {
        var overdue = CredentialLifecycle()
        #expect(overdue.reduce(.loaded(Self.first, now: 5000)) == [.timer(.start(.refreshDue, after: 0))])
        var early = CredentialLifecycle()
        _ = early.reduce(.loaded(Self.first, now: 100))
        #expect(early.reduce(.timerFired(.refreshDue, now: 500)) == [.timer(.start(.refreshDue, after: 440))])
        var none = CredentialLifecycle()
        #expect(none.reduce(.loaded(nil, now: 100)).isEmpty, "no credential, nothing to schedule")
    }

    @Test("a failed refresh (network, 429, 5xx, no credential in the answer) keeps the credential and retries in 30 s")
    func retryAfterFailure() {
        for failure: SessionExchangeResult in [.failed(.unavailable("HTTP 503")), .failed(.unavailable("too many attempts (HTTP 429)")), .studioSessionOnly] {
            var machine = Self.signedIn()
            _ = machine.reduce(.refreshRequested(waiter: 7, studioSession: false))
            let failed = machine.reduce(.refreshAnswered(exchange: 1, failure, studioCookie: false, now: 200))
            #expect(failed == [.timer(.start(.retryRefresh, after: 30)), .answerRefresh(waiter: 7, ok: false)])
            #expect(machine.credential == Self.first)
            #expect(machine.exchange == nil)
            let retry = machine.reduce(.timerFired(.retryRefresh, now: 230))
            #expect(retry == [.postRefresh(exchange: 2, Self.first, studioSession: false)])
            let good = machine.reduce(.refreshAnswered(exchange: 2, .credential(Self.second), studioCookie: false, now: 231))
            #expect(good.contains(.storeCredential(Self.second)))
            #expect(!machine.timers.isRunning(.retryRefresh))
        }
    }

    @Test("a refused refresh ends the grant: every caller hears no, the credential goes (not revoked), and the sign-out follows")
    func grantEnded() {
        var machine = Self.signedIn()
        _ = machine.reduce(.refreshRequested(waiter: 1, studioSession: false))
        _ = machine.reduce(.refreshRequested(waiter: 2, studioSession: false))
        let refused = machine.reduce(.refreshAnswered(exchange: 1, .failed(.rejected("reuse")), studioCookie: false, now: 200))
        let text = "The server ended this sign-in (reuse); sign in again."
        #expect(refused == [.answerRefresh(waiter: 1, ok: false), .answerRefresh(waiter: 2, ok: false), .problem(text),
                            .timer(.cancel(.refreshDue)), .deleteCredential, .dropDeepLink, .changed,
                            .askStudioToSignOut, .timer(.start(.signOutWait, after: 5))])
        #expect(machine.credential == nil && machine.problem == text)
        #expect(machine.signOut == .waitingForStudio)
        #expect(machine.reduce(.refreshRequested(waiter: 3, studioSession: false)) == [.answerRefresh(waiter: 3, ok: false)])
        #expect(machine.reduce(.studioSignedOut) == [.timer(.cancel(.signOutWait)), .deleteCookies])
        #expect(machine.reduce(.cookiesDeleted) == [.reloadStudio])
        // The reload lands on /login: nothing to renew with, so the sign-in window opens.
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)) == [.openSignInWindow, .changed])
    }

    // MARK: one exchange at a time

    @Test("callers during a refresh share it: one request, every caller answered once")
    func sharedRefresh() {
        var machine = Self.signedIn()
        let asked = (1...3).flatMap { machine.reduce(.refreshRequested(waiter: $0, studioSession: false)) }
        #expect(asked == [.postRefresh(exchange: 1, Self.first, studioSession: false)])
        let answered = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 200))
        #expect(answered.filter { if case .answerRefresh = $0 { return true } else { return false } }
            == [.answerRefresh(waiter: 1, ok: true), .answerRefresh(waiter: 2, ok: true), .answerRefresh(waiter: 3, ok: true)])
        // The scheduled refresh that comes due meanwhile rides along too.
        var scheduled = Self.signedIn()
        _ = scheduled.reduce(.refreshRequested(waiter: 1, studioSession: false))
        #expect(scheduled.reduce(.timerFired(.refreshDue, now: 940)).isEmpty)
    }

    @Test("a refresh that renews Studio's session answers a credential-only caller that joins it, cookie or not")
    func credentialOnlyJoinsStudioRefresh() {
        var machine = Self.signedIn()
        #expect(machine.reduce(.refreshRequested(waiter: 1, studioSession: true)) == [.postRefresh(exchange: 1, Self.first, studioSession: true)])
        #expect(machine.reduce(.refreshRequested(waiter: 2, studioSession: false)).isEmpty)
        let answered = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
        #expect(answered.last == .putStudioCookie(.refresh(exchange: 1)))
        #expect(!answered.contains { if case .answerRefresh = $0 { return true } else { return false } }, "not before the cookie is in")
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 1))) == [.answerRefresh(waiter: 1, ok: true), .answerRefresh(waiter: 2, ok: true)])
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 1))).isEmpty, "reported twice: once is enough")

        // Answered without a cookie: the credential-only caller got what it asked for, the other did not.
        var cookieless = Self.signedIn()
        _ = cookieless.reduce(.refreshRequested(waiter: 1, studioSession: true))
        _ = cookieless.reduce(.refreshRequested(waiter: 2, studioSession: false))
        let answers = cookieless.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 200))
        #expect(answers.suffix(2) == [.answerRefresh(waiter: 1, ok: false), .answerRefresh(waiter: 2, ok: true)])
    }

    @Test("a refused refresh also answers the Studio-session refresh queued behind it, and sends nothing more")
    func refusalAnswersQueued() {
        var machine = Self.signedIn()
        _ = machine.reduce(.refreshRequested(waiter: 1, studioSession: false))
        _ = machine.reduce(.refreshRequested(waiter: 2, studioSession: true))
        _ = machine.reduce(.refreshRequested(waiter: 3, studioSession: true))
        #expect(machine.queued?.waiters.map(\.id) == [2, 3], "both wait for one exchange of their own")
        let refused = machine.reduce(.refreshAnswered(exchange: 1, .failed(.rejected("invalid_grant")), studioCookie: false, now: 200))
        #expect(Array(refused.prefix(3)) == [.answerRefresh(waiter: 1, ok: false), .answerRefresh(waiter: 2, ok: false),
                                             .answerRefresh(waiter: 3, ok: false)])
        #expect(Self.posts(refused).isEmpty && machine.queued == nil && machine.exchange == nil)
    }

    // MARK: /login

    @Test("Studio on /login with a valid grant: the session is renewed with the credential, the cookie put, then Studio reloads")
    func loginRenewal() {
        var machine = Self.signedIn()
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)) == [.postRefresh(exchange: 1, Self.first, studioSession: true)])
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)).isEmpty, "landing again while it runs asks nothing more")
        let answered = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
        #expect(answered == [.storeCredential(Self.second), .timer(.start(.refreshDue, after: 1740)), .changed,
                             .putStudioCookie(.refresh(exchange: 1))])
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 1))) == [.reloadStudio])
    }

    @Test("Studio on /login without a credential, or with the window open: the window, once")
    func loginWithoutCredential() {
        var machine = CredentialLifecycle()
        _ = machine.reduce(.loaded(nil, now: 100))
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)) == [.openSignInWindow, .changed])
        #expect(machine.signingIn)
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)).isEmpty)
        #expect(machine.reduce(.signInRequested).isEmpty, "one window at a time")
    }

    @Test("a renewal that fails without a refusal opens the sign-in window and retries the credential later")
    func loginRenewalUnavailable() {
        var machine = Self.signedIn()
        _ = machine.reduce(.documentCommitted(onLoginPage: true))
        let failed = machine.reduce(.refreshAnswered(exchange: 1, .failed(.unavailable("HTTP 502")), studioCookie: false, now: 200))
        #expect(failed.contains(.timer(.start(.retryRefresh, after: 30))))
        #expect(failed.contains(.openSignInWindow))
        #expect(!failed.contains(.reloadStudio))
        #expect(machine.credential == Self.first)
    }

    // MARK: the sign-in window

    @Test("a sign-in keeps the credential, schedules its refresh, puts Studio's cookie, then reloads")
    func signIn() {
        var machine = CredentialLifecycle()
        _ = machine.reduce(.loaded(nil, now: 100))
        #expect(machine.reduce(.signInRequested) == [.openSignInWindow, .changed])
        let ended = machine.reduce(.signInEnded(.credential(Self.first), studioCookie: true, now: 100))
        #expect(ended == [.storeCredential(Self.first), .timer(.start(.refreshDue, after: 840)), .changed, .putStudioCookie(.signIn)])
        #expect(!machine.signingIn && machine.credential == Self.first)
        #expect(machine.reduce(.studioCookiePut(.signIn)) == [.reloadStudio])

        var older = CredentialLifecycle()
        _ = older.reduce(.signInRequested)
        #expect(older.reduce(.signInEnded(.studioSessionOnly, studioCookie: true, now: 100)) == [.changed, .putStudioCookie(.signIn)])
        #expect(older.studioSessionOnly && older.signedIn && older.credential == nil)
    }

    @Test("a failed or cancelled sign-in is a problem for the person; asking again clears it")
    func signInProblem() {
        var machine = CredentialLifecycle()
        _ = machine.reduce(.signInRequested)
        let denied = SignInProblem.rejected("access was denied")
        #expect(machine.reduce(.signInEnded(.failed(denied), studioCookie: false, now: 1)) == [.problem(denied.description), .changed])
        #expect(machine.problem == denied.description && !machine.signingIn)
        #expect(machine.reduce(.signInEnded(.failed(.cancelled), studioCookie: false, now: 1)).isEmpty, "no window, nothing ended")
        _ = machine.reduce(.signInRequested)
        #expect(machine.problem == nil)
    }

    // MARK: sign-out

    @Test("sign-out order: delete the credential, revoke, ask Studio, Studio answers, delete cookies, reload")
    func signOutWithStudio() {
        var machine = Self.signedIn()
        let asked = machine.reduce(.signOutRequested)
        #expect(asked == [.timer(.cancel(.refreshDue)), .deleteCredential, .revoke(Self.first), .dropDeepLink, .changed,
                          .askStudioToSignOut, .timer(.start(.signOutWait, after: 5))])
        #expect(machine.credential == nil && !machine.signedIn)
        #expect(machine.reduce(.signOutRequested).isEmpty, "one sign-out at a time")
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)).isEmpty, "Studio going to /login meanwhile opens nothing")
        #expect(machine.reduce(.studioSignedOut) == [.timer(.cancel(.signOutWait)), .deleteCookies])
        #expect(machine.reduce(.timerFired(.signOutWait, now: 300)).isEmpty, "the wait was cancelled: a late fire is stale")
        #expect(machine.reduce(.studioSignedOut).isEmpty, "cookies are going already")
        #expect(machine.reduce(.cookiesDeleted) == [.reloadStudio])
        #expect(machine.signOut == .none)
        #expect(machine.reduce(.cookiesDeleted).isEmpty)
    }

    @Test("sign-out when Studio stays silent: the 5 s wait ends it; a Studio that cannot be asked is not waited for")
    func signOutWaitExpires() {
        var machine = Self.signedIn()
        _ = machine.reduce(.signOutRequested)
        #expect(machine.reduce(.timerFired(.signOutWait, now: 105)) == [.deleteCookies])
        #expect(machine.reduce(.studioSignedOut).isEmpty, "Studio answering late changes nothing")
        #expect(machine.reduce(.cookiesDeleted) == [.reloadStudio])

        for var machine in [Self.signedIn(ready: false), Self.signedIn(speaksAuthLifecycle: false)] {
            let effects = machine.reduce(.signOutRequested)
            #expect(effects.last == .deleteCookies)
            #expect(!effects.contains(.askStudioToSignOut) && !machine.timers.isRunning(.signOutWait))
        }
    }

    @Test("a new document is not ready until it says so: a sign-out meanwhile does not wait for it")
    func newDocumentNotReady() {
        var machine = Self.signedIn()
        #expect(machine.studio.listensForSignOut)
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        #expect(!machine.studio.listensForSignOut)
        #expect(machine.reduce(.signOutRequested).last == .deleteCookies)
    }

    @Test("Studio's own sign-out signs the app out too, without asking Studio again")
    func studioSignsOut() {
        var machine = Self.signedIn()
        #expect(machine.reduce(.studioSignedOut) == [.timer(.cancel(.refreshDue)), .deleteCredential, .revoke(Self.first),
                                                     .dropDeepLink, .changed, .deleteCookies])
    }

    @Test("timer fires that were cancelled or replaced are ignored")
    func staleFires() {
        var machine = Self.signedIn()
        _ = machine.reduce(.signOutRequested)
        #expect(machine.reduce(.timerFired(.refreshDue, now: 940)).isEmpty, "the sign-out cancelled the refresh")
        #expect(machine.reduce(.timerFired(.retryRefresh, now: 940)).isEmpty, "never started")
        var refreshed = Self.signedIn()
        _ = refreshed.reduce(.timerFired(.refreshDue, now: 940))
        _ = refreshed.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 941))
        #expect(refreshed.reduce(.timerFired(.retryRefresh, now: 960)).isEmpty)
    }

    @Test("sign-out while a refresh is in flight: its callers hear no at once, and its late credential is revoked, not kept")
    func signOutDuringRefresh() {
        var machine = Self.signedIn()
        _ = machine.reduce(.refreshRequested(waiter: 1, studioSession: false))
        let signedOut = machine.reduce(.signOutRequested)
        #expect(signedOut.first == .answerRefresh(waiter: 1, ok: false))
        #expect(machine.exchange == nil)
        let late = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
        #expect(late == [.revoke(Self.second)])
        #expect(machine.credential == nil && machine.timers.running == [.signOutWait: 5])
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 1))).isEmpty)
    }

    @Test("closing the session stops its timers; a refresh answered after it is still kept (its predecessor is spent)")
    func closing() {
        var machine = Self.signedIn()
        _ = machine.reduce(.refreshRequested(waiter: 1, studioSession: false))
        let closed = machine.reduce(.closed)
        #expect(closed == [.timer(.cancel(.refreshDue)), .answerRefresh(waiter: 1, ok: false)])
        #expect(machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
            == [.storeCredential(Self.second)])
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)).isEmpty && machine.reduce(.signOutRequested).isEmpty)
    }

    // MARK: defects fixed (each failed on the rules this machine replaced)

    @Test("defect: a refresh that must renew Studio's session is not answered by a credential-only one in flight; it goes next, with the rotated token")
    func studioRefreshNotAnsweredByCredentialOnly() {
        var machine = Self.signedIn()
        #expect(machine.reduce(.refreshRequested(waiter: 1, studioSession: false)) == [.postRefresh(exchange: 1, Self.first, studioSession: false)])
        #expect(machine.reduce(.refreshRequested(waiter: 2, studioSession: true)).isEmpty,
                "one exchange on the wire at a time: a second with the same refresh token would be a reuse")
        let firstAnswer = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 200))
        #expect(firstAnswer.contains(.answerRefresh(waiter: 1, ok: true)))
        #expect(!firstAnswer.contains { if case .answerRefresh(2, _) = $0 { return true } else { return false } },
                "the Studio-session caller is not answered by a refresh that brought no Studio session")
        #expect(Self.posts(firstAnswer) == [.postRefresh(exchange: 2, Self.second, studioSession: true)])
        let secondAnswer = machine.reduce(.refreshAnswered(exchange: 2, .credential(Self.third), studioCookie: true, now: 201))
        #expect(secondAnswer.last == .putStudioCookie(.refresh(exchange: 2)))
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 2))) == [.answerRefresh(waiter: 2, ok: true)])
    }

    @Test("defect: Studio landing on /login during a scheduled refresh gets its own renewal, and reloads only with a cookie")
    func loginDuringScheduledRefresh() {
        var machine = Self.signedIn()
        _ = machine.reduce(.timerFired(.refreshDue, now: 940))
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)).isEmpty)
        let scheduled = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 941))
        #expect(!scheduled.contains(.reloadStudio), "no Studio session came: a reload would land on /login again")
        #expect(Self.posts(scheduled) == [.postRefresh(exchange: 2, Self.second, studioSession: true)])
        _ = machine.reduce(.refreshAnswered(exchange: 2, .credential(Self.third), studioCookie: true, now: 942))
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 2))) == [.reloadStudio])
    }

    @Test("defect: a renewal that brings a credential but no Studio session opens the sign-in window instead of reloading into /login")
    func renewalWithoutStudioSession() {
        var machine = Self.signedIn()
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)) == [.postRefresh(exchange: 1, Self.first, studioSession: true)])
        let answered = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: false, now: 200))
        #expect(answered.contains(.storeCredential(Self.second)), "the rotated credential is kept all the same")
        #expect(!answered.contains(.reloadStudio))
        #expect(answered.contains(.openSignInWindow))
        #expect(machine.signingIn)
        #expect(machine.problem?.contains("no Studio session") == true)
    }

    @Test("defect: /login → renewal → reload → /login again stops after one attempt: the window opens, no second renewal")
    func renewalLoopStops() {
        var machine = Self.signedIn()
        _ = machine.reduce(.documentCommitted(onLoginPage: true))
        _ = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 1))) == [.reloadStudio])
        // The reload's document commits, and Studio sends itself to /login again (the cookie did
        // not take), where it is ready too: that is no signed-in page.
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        let again = machine.reduce(.documentCommitted(onLoginPage: true))
        _ = machine.reduce(.studioReady(speaksAuthLifecycle: true))
        #expect(Self.posts(again).isEmpty, "no second renewal")
        #expect(again.contains(.openSignInWindow))
        // Once Studio has shown a signed-in page, a later /login (a session that expired) is renewed again.
        var later = Self.signedIn()
        _ = later.reduce(.documentCommitted(onLoginPage: true))
        _ = later.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
        _ = later.reduce(.studioCookiePut(.refresh(exchange: 1)))
        _ = later.reduce(.documentCommitted(onLoginPage: false))
        _ = later.reduce(.studioReady(speaksAuthLifecycle: true))
        #expect(Self.posts(later.reduce(.documentCommitted(onLoginPage: true))) == [.postRefresh(exchange: 2, Self.second, studioSession: true)])
    }

    @Test("defect: a sign-in whose session ended before Studio checked it is a problem until a renewal signs Studio in; that clears it")
    func workingRenewalClearsProblem() {
        var machine = CredentialLifecycle()
        _ = machine.reduce(.loaded(nil, now: 100))
        _ = machine.reduce(.documentCommitted(onLoginPage: true))
        _ = machine.reduce(.signInEnded(.credential(Self.first), studioCookie: true, now: 100))
        #expect(machine.reduce(.studioCookiePut(.signIn)) == [.reloadStudio])
        // The reload's document commits, the server ends the session before Studio asks it who is
        // signed in, and Studio sends itself to /login: from here that is a session that did not take.
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        let text = "The app signed in, but Studio still asks to sign in: the server's session did not take."
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)) == [.problem(text), .changed])
        // The person reloads; Studio lands on /login again and is renewed with the credential.
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        #expect(machine.reduce(.documentCommitted(onLoginPage: true)) == [.postRefresh(exchange: 1, Self.first, studioSession: true)])
        _ = machine.reduce(.refreshAnswered(exchange: 1, .credential(Self.second), studioCookie: true, now: 200))
        #expect(machine.reduce(.studioCookiePut(.refresh(exchange: 1))) == [.reloadStudio])
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        #expect(machine.problem == text, "not before Studio shows a signed-in page")
        #expect(machine.reduce(.studioReady(speaksAuthLifecycle: true)) == [.changed])
        #expect(machine.problem == nil, "Studio is signed in: the problem is over")
        #expect(machine.reduce(.studioReady(speaksAuthLifecycle: true)).isEmpty, "said once")
    }

    @Test("defect: a frontend/ready from the document a reload replaces is not the reload's signed-in page")
    func readyFromReplacedDocument() {
        // Studio's start page committed and has not said frontend/ready when the person signs in.
        var machine = Self.signedIn(ready: false)
        _ = machine.reduce(.signInRequested)
        _ = machine.reduce(.signInEnded(.credential(Self.second), studioCookie: true, now: 100))
        #expect(machine.reduce(.studioCookiePut(.signIn)) == [.reloadStudio])
        // The old document gets its frontend/ready out before the reload's document commits.
        #expect(machine.reduce(.studioReady(speaksAuthLifecycle: true)).isEmpty)
        #expect(!machine.studio.ready, "it spoke for a document on its way out")
        _ = machine.reduce(.documentCommitted(onLoginPage: false))
        let landed = machine.reduce(.documentCommitted(onLoginPage: true))
        #expect(Self.posts(landed).isEmpty, "the sign-in's reload did not sign Studio in: no renewal behind it")
        #expect(landed.contains(.problem("The app signed in, but Studio still asks to sign in: the server's session did not take.")))
        // The reload's own document is heard.
        _ = machine.reduce(.studioReady(speaksAuthLifecycle: true))
        #expect(machine.studio.ready && machine.studio.onLoginPage)
    }

    @Test("defect: a sign-in whose answer set no Studio session says so instead of reloading into /login")
    func signInWithoutStudioSession() {
        var machine = CredentialLifecycle()
        _ = machine.reduce(.signInRequested)
        let ended = machine.reduce(.signInEnded(.credential(Self.first), studioCookie: false, now: 100))
        #expect(ended.contains(.storeCredential(Self.first)))
        #expect(!ended.contains(.reloadStudio))
        #expect(machine.problem?.contains("no Studio session") == true)
    }
}
