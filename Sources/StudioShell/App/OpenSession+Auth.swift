import CGtk
import ShellKit
import StudioContract

/// The session's sign-in glue: what Studio's page does that the credential's life cycle must
/// know (a document committed, on `/login` or not; `frontend/ready`; `auth/signed-out`), and the
/// life cycle's effects on the page (reload, `auth/sign-out-request`, drop a waiting deep link,
/// notices). The rules themselves are `CredentialLifecycle`'s.
extension OpenSession {
    func connectAuth() {
        auth.parentWindow = { [weak self] in self.flatMap { windowOf($0.view.widget) } }
        auth.onStudioEffect = { [weak self] effect in self?.performAuth(effect) }
        page.setCredentialAvailable(auth.credential != nil)
    }

    /// The authentication window (the app menu's and the control interface's Sign In).
    func signIn() { auth.send(.signInRequested) }

    /// Signs out in the contract's order (see `CredentialLifecycle`). The sheet page waiting
    /// hidden goes at once: it carries the sign-in that is ending (§6).
    func signOut() {
        presentations?.discard()
        auth.send(.signOutRequested)
    }

    private func performAuth(_ effect: CredentialEffect) {
        switch effect {
        case .reloadStudio: loadStudio()
        case .askStudioToSignOut: page.requestSignOut()
        case .dropDeepLink: page.dropDeepLink()
        case .problem(let text): onNotice?(text)
        case .changed:
            page.setCredentialAvailable(auth.credential != nil)
            onScreenChanged?()
        default: break  // ServerAuth carries out the rest
        }
    }

    func documentCommitted(_ uri: String) {
        let onLoginPage = SignInRequest.isLoginPage(uri, origin: record.address.origin)
        if onLoginPage { presentations?.discard() }  // a hidden sheet page would carry the old sign-in
        auth.send(.documentCommitted(onLoginPage: onLoginPage))
    }

    /// Tells the life cycle that the document on show sent `frontend/ready`, until it has heard
    /// it (it does not count the word of a document its own reload is replacing).
    func reportReady() {
        guard page.session.frontendReady, !auth.lifecycle.studio.ready else { return }
        auth.send(.studioReady(speaksAuthLifecycle: page.session.studioCapabilities.contains(.authLifecycle)))
    }
}
