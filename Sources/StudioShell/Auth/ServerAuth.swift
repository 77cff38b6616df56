import CGtk
import HostCore
import ShellKit
import StudioContract

/// One server's sign-in on the host side, carried out. `CredentialLifecycle` (BridgeRuntime)
/// decides — the refresh schedule, one exchange at a time, the grant ended, the /login renewal,
/// the sign-out order; this object feeds it events and does its effects: the exchange and
/// revocation over libsoup, the credential store, the Studio cookie and the server's cookies in
/// WebKit, the authentication window, and its timers with a `TimerBank`. Effects that concern
/// Studio's page go to `onStudioEffect`. The credential never leaves this object except as an
/// Authorization header on the app's own requests.
@MainActor
package final class ServerAuth {
    let record: ServerRecord
    let store: CredentialStore
    private let networkSession: NetworkSessionPointer
    /// The life cycle, run by the one perform loop: an event that an effect causes at once
    /// waits until they are all done.
    private let loop = MachineLoop(CredentialLifecycle())
    var lifecycle: CredentialLifecycle { loop.machine }
    private lazy var timers = TimerBank<CredentialTimer> { [weak self] name in
        self?.send(.timerFired(name, now: wallClockSeconds()))
    }
    private var authWindow: AuthWindow?
    private var windowFailure: SignInProblem?
    /// The callers of `refresh`, until the life cycle answers them.
    private var waiters: [Int: @MainActor (Bool) -> Void] = [:]
    private var nextWaiter = 1
    /// Studio session cookies that came with answers (owned), until the life cycle asks for them.
    private var cookies: [StudioCookieOwner: OpaquePointer] = [:]
    /// Carries out what concerns Studio's page: reload it, ask it to sign out, drop a deep link,
    /// tell the person a problem, redraw after a change.
    var onStudioEffect: ((CredentialEffect) -> Void)?
    /// The window the authentication window belongs to.
    var parentWindow: (() -> WidgetPointer?)?

    init(record: ServerRecord, store: CredentialStore, networkSession: NetworkSessionPointer) {
        self.record = record
        self.store = store
        self.networkSession = networkSession
        send(.loaded(store.load(record.id), now: wallClockSeconds()))
    }

    package var credential: Credential? { lifecycle.credential }
    /// Signed in with an older server that gives a Studio session but no app credential.
    var studioSessionOnly: Bool { lifecycle.studioSessionOnly }
    var signingIn: Bool { lifecycle.signingIn }
    var signedIn: Bool { lifecycle.signedIn }

    /// Stops timers and closes a sign-in window: the session is going away. A refresh on the
    /// wire is still kept when it answers (the credential it replaces is spent).
    package func close() {
        onStudioEffect = nil
        parentWindow = nil
        send(.closed)
        authWindow?.finish(nil)
    }

    /// The person's (or the control interface's) answer: close the authentication window.
    func cancelSignIn() { authWindow?.finish(nil) }

    /// Refreshes the credential; `studioSession` also renews Studio's cookie. Callers are
    /// answered once, by a refresh that did what they asked (see `CredentialLifecycle`).
    package func refresh(studioSession: Bool, done: @escaping @MainActor (Bool) -> Void) {
        let waiter = nextWaiter
        nextWaiter += 1
        waiters[waiter] = done
        send(.refreshRequested(waiter: waiter, studioSession: studioSession))
    }

    /// Feeds the life cycle one event and carries out its effects, in order: an event that an
    /// effect causes at once waits until they are all done.
    func send(_ event: CredentialEvent) {
        guard loop.send(event, perform: perform) else { return }  // queued behind the effects running
        // A cookie the life cycle did not ask for at its answer is not wanted.
        for cookie in cookies.values { soup_cookie_free(cookie) }
        cookies = [:]
    }

    private func perform(_ effect: CredentialEffect) {
        switch effect {
        case .timer(let command):
            timers.perform(command)
        case .postRefresh(let exchange, let credential, let studioSession):
            // `self` is kept until the answer: after `close` a refreshed credential is still stored.
            SessionExchange.post(SessionExchangeResult.refreshBody(credential, studioSession: studioSession),
                                 to: record.address.origin) { answer in
                self.answered(.refresh(exchange: exchange), answer) {
                    .refreshAnswered(exchange: exchange, answer.result, studioCookie: $0, now: wallClockSeconds())
                }
            }
        case .answerRefresh(let waiter, let ok):
            waiters.removeValue(forKey: waiter)?(ok)
        case .storeCredential(let credential):
            store.save(credential, for: record.id, label: record.name) { error in
                printError("hostshell: warning: \(error.message); the sign-in lasts until the app quits")
            }
        case .deleteCredential:
            store.deleteAfterWrites(record.id)
        case .revoke(let credential):
            SessionExchange.post(["token": .string(credential.refreshToken)], to: record.address.origin,
                                 path: "/api/v1/oauth/revoke") { answer in
                if let cookie = answer.studioCookie { soup_cookie_free(cookie) }
            }
        case .putStudioCookie(let owner):
            guard let cookie = cookies.removeValue(forKey: owner) else { return send(.studioCookiePut(owner)) }
            StudioCookies.put(cookie, into: networkSession) { [weak self] in self?.send(.studioCookiePut(owner)) }
        case .deleteCookies:
            StudioCookies.deleteAll(in: networkSession) { [weak self] in self?.send(.cookiesDeleted) }
        case .openSignInWindow:
            openWindow()
        case .problem(let text):
            printError("hostshell: \(TerminalText.escaped(record.name)): \(text)")
            onStudioEffect?(effect)
        case .askStudioToSignOut, .dropDeepLink, .reloadStudio, .changed:
            onStudioEffect?(effect)
        }
    }

    /// An exchange answered: its Studio cookie waits for the life cycle, which hears `event`.
    private func answered(_ owner: StudioCookieOwner, _ answer: SessionExchange.Answer,
                          _ event: (_ studioCookie: Bool) -> CredentialEvent) {
        if let cookie = answer.studioCookie {
            if let earlier = cookies.updateValue(cookie, forKey: owner) { soup_cookie_free(earlier) }
        }
        send(event(answer.studioCookie != nil))
    }

    // MARK: the authentication window

    /// Opens the server's approve page; the callback's code is exchanged, and the outcome told
    /// to the life cycle.
    private func openWindow() {
        guard authWindow == nil else { return }
        var generator = SystemRandomNumberGenerator()
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in generator.next() } }
        let request = SignInRequest(stateBytes: random(SignInRequest.stateByteCount), verifierBytes: random(SignInRequest.verifierByteCount))
        windowFailure = nil
        let window = AuthWindow(title: "Sign in to \(record.name)", url: request.approveURL(origin: record.address.origin),
                                parent: parentWindow?()) { [weak self] callback in
            guard let self else { return }
            self.authWindow = nil
            guard let callback else { return self.signInEnded(.failed(self.windowFailure ?? .cancelled)) }
            switch SignInCallback.code(from: callback, request: request, serverOrigin: self.record.address.origin) {
            case .failure(let problem): self.signInEnded(.failed(problem))
            case .success(let code): self.exchange(code: code, request: request)
            }
        }
        window.onLoadFailed = { [weak self, weak window] reason in
            self?.windowFailure = .unavailable(reason)
            window?.finish(nil)
        }
        authWindow = window
        window.present()
    }

    private func signInEnded(_ result: SessionExchangeResult) {
        send(.signInEnded(result, studioCookie: false, now: wallClockSeconds()))
    }

    private func exchange(code: String, request: SignInRequest) {
        SessionExchange.post(request.exchangeBody(code: code), to: record.address.origin) { [weak self] answer in
            guard let self else {
                if let cookie = answer.studioCookie { soup_cookie_free(cookie) }
                return
            }
            self.answered(.signIn, answer) { .signInEnded(answer.result, studioCookie: $0, now: wallClockSeconds()) }
        }
    }

    // MARK: reports

    /// What the account menu says.
    var summary: String {
        let kept = store.kind == .secretService ? "your keyring" : "an owner-only file"
        if credential != nil { return "Signed in to \(record.name). The app's credential is kept in \(kept)." }
        if studioSessionOnly { return "Signed in to \(record.name)'s Studio. This server is older and gives the app no credential, so uploads use Studio's own uploader." }
        return "Not signed in to \(record.name)."
    }

    /// For state dumps: whether a credential is held and where; never the credential itself.
    var stateJSON: JSONValue {
        var state: JSONObject = ["store": .string(store.kind.rawValue), "credential": .bool(credential != nil),
                                 "studioSessionOnly": .bool(studioSessionOnly), "signingIn": .bool(signingIn),
                                 "refreshing": .bool(lifecycle.exchange != nil)]
        state["expiresIn"] = credential.map { .number((($0.expiresAt - wallClockSeconds()) * 10).rounded() / 10) } ?? .null
        state["problem"] = lifecycle.problem.map(JSONValue.string) ?? .null
        return .object(state)
    }
}
