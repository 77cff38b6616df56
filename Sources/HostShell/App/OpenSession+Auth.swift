import BridgeRuntime
import CGtk

/// The session's sign-in glue: Studio landing on `/login` opens the authentication window (or,
/// while the grant is valid, renews Studio's cookie without it); sign-out follows the contract's
/// order — delete the credential and revoke it, ask Studio to sign out and wait up to 5 s for
/// `auth/signed-out`, delete this server's cookies, reload.
extension OpenSession {
    static let signOutWait: UInt32 = 5000

    func connectAuth() {
        auth.onSignedIn = { [weak self] in self?.loadStudio() }
        auth.onChanged = { [weak self] in
            guard let self else { return }
            self.page.setCredentialAvailable(self.auth.credential != nil)
            self.onScreenChanged?()
        }
        auth.onGrantEnded = { [weak self] reason in
            printError("hostshell: \(self?.record.name ?? "server"): \(reason); signing out")
            self?.signOut()
        }
        auth.onProblem = { [weak self] text in self?.onNotice?(text) }
        page.setCredentialAvailable(auth.credential != nil)
        page.onDocumentCommitted = { [weak self] uri in self?.documentCommitted(uri) }
        page.onStudioSignedOut = { [weak self] in
            guard let self else { return }
            if let pending = self.pendingSignOut {
                self.pendingSignOut = nil
                pending()
            } else {
                // Studio signed out on its own: the app follows, without asking Studio again.
                self.signOut(askStudio: false)
            }
        }
    }

    private var window: WidgetPointer? {
        windowOf(view.widget)
    }

    private func documentCommitted(_ uri: String) {
        guard SignInRequest.isLoginPage(uri, origin: record.address.origin) else { return }
        presentations?.discard()  // a prewarmed sheet page would carry the old sign-in
        if auth.credential != nil {
            // The grant is valid: renew Studio's session with it, no window needed.
            auth.refresh(studioSession: true) { [weak self] ok in
                guard let self else { return }
                if ok { self.loadStudio() } else { self.auth.signIn(parent: self.window) }
            }
        } else {
            auth.signIn(parent: window)
        }
    }

    /// Opens the authentication window (the app menu's and the control interface's Sign In).
    func signIn() { auth.signIn(parent: window) }

    func signOut(askStudio: Bool = true) {
        auth.forget()
        page.dropDeepLink()  // a link waiting for Studio goes with the sign-in
        let finish: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            self.pendingSignOut = nil
            self.auth.deleteCookies { [weak self] in self?.loadStudio() }
        }
        if askStudio && page.session.frontendReady && page.session.studioCapabilities.contains(.authLifecycle) {
            var done = false
            let once: @MainActor () -> Void = { if !done { done = true; finish() } }
            pendingSignOut = once
            page.requestSignOut()
            MainLoop.after(milliseconds: Self.signOutWait) { once() }
        } else {
            finish()
        }
    }
}
