import BridgeRuntime
import CGtk

/// One server's sign-in state on the host side: the app's credential (kept in the credential
/// store, refreshed 60 s before expiry, one refresh at a time), the sign-in flow through the
/// authentication window, the Studio session cookie put into that server's own website data,
/// and the pieces of sign-out. The credential never leaves this object except as an
/// Authorization header on the app's own requests.
@MainActor
final class ServerAuth {
    let record: ServerRecord
    let store: CredentialStore
    private let networkSession: NetworkSessionPointer
    private(set) var credential: Credential?
    /// Signed in with an older server that gives a Studio session but no app credential.
    private(set) var studioSessionOnly = false
    private(set) var lastProblem: String?
    private var authWindow: AuthWindow?
    private var refreshWaiters: [@MainActor (Bool) -> Void]?
    private var timerGeneration = 0
    /// Called when a sign-in succeeded (Studio should load again) or the state changed.
    var onSignedIn: (() -> Void)?
    var onChanged: (() -> Void)?
    /// Called when the server ended the grant (a refresh was refused): the app signs out.
    var onGrantEnded: ((String) -> Void)?
    /// Called with a sign-in problem worded for the person (shown as a notice).
    var onProblem: ((String) -> Void)?

    init(record: ServerRecord, store: CredentialStore, networkSession: NetworkSessionPointer) {
        self.record = record
        self.store = store
        self.networkSession = networkSession
        credential = store.load(record.id)
        scheduleRefresh()
    }

    var signingIn: Bool { authWindow != nil }

    /// Stops timers and closes a sign-in window: the session is going away.
    func close() {
        timerGeneration += 1
        onSignedIn = nil
        onChanged = nil
        onGrantEnded = nil
        onProblem = nil
        authWindow?.finish(nil)
    }

    // MARK: sign-in

    /// Opens the authentication window on the server's approve page (once at a time).
    func signIn(parent: WidgetPointer?) {
        guard authWindow == nil else { return }
        var generator = SystemRandomNumberGenerator()
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in generator.next() } }
        let request = SignInRequest(stateBytes: random(24), verifierBytes: random(32))
        lastProblem = nil
        let window = AuthWindow(title: "Sign in to \(record.name)", url: request.approveURL(origin: record.address.origin),
                                parent: parent) { [weak self] callback in
            guard let self else { return }
            self.authWindow = nil
            guard let callback else { return self.failed(.cancelled) }
            switch SignInCallback.code(from: callback, request: request, serverOrigin: self.record.address.origin) {
            case .failure(let problem): self.failed(problem)
            case .success(let code): self.exchange(code: code, request: request)
            }
        }
        window.onLoadFailed = { [weak self, weak window] reason in
            window?.finish(nil)
            self?.failed(.unavailable(reason))
        }
        authWindow = window
        window.present()
        onChanged?()
    }

    /// The person's (or the server's) answer, as a control command would give it.
    func cancelSignIn() { authWindow?.finish(nil) }

    private func failed(_ problem: SignInProblem) {
        lastProblem = problem.description
        printError("hostshell: \(record.name): \(problem.description)")
        onProblem?(problem.description)
        onChanged?()
    }

    private func exchange(code: String, request: SignInRequest) {
        SessionExchange.post(request.exchangeBody(code: code), to: record.address.origin) { [weak self] answer in
            guard let self else { return }
            switch answer.result {
            case .failed(let problem):
                if let cookie = answer.studioCookie { soup_cookie_free(cookie) }
                self.failed(problem)
            case .credential(let credential):
                self.studioSessionOnly = false
                self.install(credential)
                self.putStudioCookie(answer.studioCookie) { self.onSignedIn?() }
            case .studioSessionOnly:
                self.studioSessionOnly = true
                self.putStudioCookie(answer.studioCookie) { self.onSignedIn?() }
            }
            self.onChanged?()
        }
    }

    private func install(_ credential: Credential) {
        self.credential = credential
        do throws(UsageError) { try store.save(credential, for: record.id, label: record.name) } catch {
            printError("hostshell: warning: \(error.message); the sign-in lasts until the app quits")
        }
        scheduleRefresh()
    }

    /// Puts the server's `tilecast_session` cookie into this server's own website data.
    private func putStudioCookie(_ cookie: OpaquePointer?, then: @escaping @MainActor () -> Void) {
        guard let cookie else { return then() }
        let manager = webkit_network_session_get_cookie_manager(networkSession)
        let box = Unmanaged.passRetained(ClosureBox(then)).toOpaque()
        webkit_cookie_manager_add_cookie(manager, cookie, nil, { source, result, data in
            let box = Unmanaged<ClosureBox>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            _ = webkit_cookie_manager_add_cookie_finish(OpaquePointer(source), result, &error)
            g_clear_error(&error)
            MainActor.assumeIsolated { box.body() }
        }, box)
        soup_cookie_free(cookie)
    }

    // MARK: refresh

    private func scheduleRefresh() {
        timerGeneration += 1
        guard let credential else { return }
        let generation = timerGeneration
        let delay = max(0, credential.refreshDue(now: wallClockSeconds()) - wallClockSeconds())
        MainLoop.after(milliseconds: UInt32(min(delay, 86_400) * 1000)) { [weak self] in
            guard let self, self.timerGeneration == generation else { return }
            self.refresh(studioSession: false) { _ in }
        }
    }

    /// Refreshes the credential; callers during a refresh share it (one request at a time).
    /// `studioSession` also renews Studio's cookie. A refused refresh ends the grant.
    func refresh(studioSession: Bool, done: @escaping @MainActor (Bool) -> Void) {
        guard let credential else { return done(false) }
        if refreshWaiters != nil {
            refreshWaiters!.append(done)
            return
        }
        refreshWaiters = [done]
        let body = SessionExchangeResult.refreshBody(credential, studioSession: studioSession)
        SessionExchange.post(body, to: record.address.origin) { [weak self] answer in
            guard let self else { return }
            let waiters = self.refreshWaiters ?? []
            self.refreshWaiters = nil
            switch answer.result {
            case .credential(let fresh):
                self.install(fresh)
                self.putStudioCookie(answer.studioCookie) { waiters.forEach { $0(true) } }
            case .failed(.rejected(let why)):
                if let cookie = answer.studioCookie { soup_cookie_free(cookie) }
                self.forget(revoke: false)
                waiters.forEach { $0(false) }
                self.onGrantEnded?("the server ended this sign-in (\(why))")
            case .failed, .studioSessionOnly:
                // Try again later; the credential stays until it is refused.
                if let cookie = answer.studioCookie { soup_cookie_free(cookie) }
                self.timerGeneration += 1
                let generation = self.timerGeneration
                MainLoop.after(milliseconds: 30_000) { [weak self] in
                    guard let self, self.timerGeneration == generation else { return }
                    self.refresh(studioSession: false) { _ in }
                }
                waiters.forEach { $0(false) }
            }
            self.onChanged?()
        }
    }

    // MARK: sign-out

    /// Deletes the credential (and, best effort, revokes it at the server).
    func forget(revoke: Bool = true) {
        if revoke, let credential {
            SessionExchange.post(["token": .string(credential.refreshToken)], to: record.address.origin, path: "/api/v1/oauth/revoke") { answer in
                if let cookie = answer.studioCookie { soup_cookie_free(cookie) }
            }
        }
        credential = nil
        studioSessionOnly = false
        timerGeneration += 1
        CredentialStore.delete(record.id)
        onChanged?()
    }

    /// Deletes this server's cookies: its website data is its own, so nothing else is touched.
    func deleteCookies(then: @escaping @MainActor () -> Void) {
        let manager = webkit_network_session_get_website_data_manager(networkSession)
        let box = Unmanaged.passRetained(ClosureBox(then)).toOpaque()
        webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_COOKIES, 0, nil, { source, result, data in
            let box = Unmanaged<ClosureBox>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            _ = webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error)
            g_clear_error(&error)
            MainActor.assumeIsolated { box.body() }
        }, box)
    }

    /// What the account menu says.
    var summary: String {
        let kept = store.kind == .secretService ? "your keyring" : "an owner-only file"
        if credential != nil { return "Signed in to \(record.name). The app's credential is kept in \(kept)." }
        if studioSessionOnly { return "Signed in to \(record.name)'s Studio. This server is older and gives the app no credential, so uploads use Studio's own uploader." }
        return "Not signed in to \(record.name)."
    }

    var signedIn: Bool { credential != nil || studioSessionOnly }

    /// For state dumps: whether a credential is held and where; never the credential itself.
    var stateJSON: JSONValue {
        var state: JSONObject = ["store": .string(store.kind.rawValue), "credential": .bool(credential != nil),
                                 "studioSessionOnly": .bool(studioSessionOnly), "signingIn": .bool(signingIn)]
        state["expiresIn"] = credential.map { .number((($0.expiresAt - wallClockSeconds()) * 10).rounded() / 10) } ?? .null
        state["problem"] = lastProblem.map(JSONValue.string) ?? .null
        return .object(state)
    }
}
