import CGtk
import HostCore

/// What a page's owner hears from WebKit about the page's main frame.
@MainActor
package protocol WebPageObserver: AnyObject {
    /// A new main-frame document committed (its HTTP status is `page.documentStatus`).
    func webPageCommitted(_ page: WebPage)
    /// A main-frame navigation started (its commit may follow, or it may fail or be refused).
    func webPageStarted(_ page: WebPage)
    func webPageFinished(_ page: WebPage)
    /// The page's web process ended (crashed, was killed or ran out of memory).
    func webPageProcessEnded(_ page: WebPage, reason: WebKitWebProcessTerminationReason)
}

extension WebPageObserver {
    package func webPageStarted(_ page: WebPage) {}
}

/// A WebKit web view in a profile's network session, as every hosted app needs it, whatever
/// bridge it speaks: where it runs, loading and the main frame's status, scripts run for the
/// host, the page's own `confirm()` answered for scripted runs, the navigation policy
/// (`WebPage+Policy`), its permission questions (`WebPage+Permissions`), and closing. An app contract's
/// page (Studio's, Capacitor's) owns one and adds its bridge through the content manager.
@MainActor
package final class WebPage {
    package let view: WebViewPointer
    package let manager: ContentManagerPointer
    package weak var observer: (any WebPageObserver)?
    /// Where it may go and what it may hand out (see `WebPage+Policy`, `WebPage+Permissions`).
    package let trust: PageTrust
    /// The navigation policy with what it remembers between an action and its response.
    var navigation: NavigationGuard
    /// Its profile's permission questions and answers.
    package let permissions: PermissionCenter
    /// Told when a system surface (a permission prompt) is shown over the page (true) or
    /// closed (false), by an id; a Capacitor app's lifecycle follows it.
    package var onSystemSurface: ((String, Bool) -> Void)?
    package private(set) var loadFinished = false
    /// A load refused for its certificate was made again (the app's roots vouched for it).
    private var remadeAfterTLS = false
    /// Navigations asked for (the host's `load`, a page's own, not redirects), and how many
    /// there had been when the current load started (`loadEnd`).
    var navigationsAsked = 0
    private var navigationsAtStart = 0
    /// The HTTP status of the document shown (0 when it did not come over HTTP).
    package private(set) var documentStatus = 0
    /// Answers the page's `confirm()` without showing a dialog (scripted tours, tests); nil shows
    /// WebKit's own dialog.
    var confirmAnswer: Bool?
    /// Whether this page runs in another page's web process (which closing it must not end).
    private let sharesProcess: Bool
    private(set) var closed = false
    /// The main frame's confinement (`WebPage+Confinement`): its state, the compile that counts,
    /// the filter in place, the host's own off-origin loads, and a load waiting for it.
    var confinementState = ConfinementState.compiling
    var confinementGeneration = 0
    var confinementFilter: String?
    var confinementHostLoads: [String] = []
    var pendingLoad: String?
    /// Its own web process is not started yet (a view of its own, nothing loaded or run in it):
    /// a load held for the confinement starts it meanwhile (`WebPage+Confinement`).
    var processNotStarted = false
    /// The last redirect WebKit asked about: a blocked load reports the address it started
    /// from, not the one it was redirected to.
    var lastRedirect: String?
    /// Its handlers on the view, disconnected on `close` (the view may outlive the page).
    private var signals: [SignalConnection] = []
    /// Its owner let go of it (see `letGo`): every navigation, pop-up, permission and dialog it
    /// asks for from now on is refused.
    private(set) var lettingGo = false
    /// The last dialog WebKit showed for the page's `alert`/`confirm`/`prompt`, kept so letting
    /// go can end it: a script waiting on a dialog no one can see would never run again.
    private var shownDialog: OpaquePointer?
    /// The host's ping into the page (`WebPage+Responsiveness`), its timer, whoever listens to
    /// the judgement, and the last judgement told.
    var probe = ResponsivenessProbe()
    var probeSource: UInt32 = 0
    var responsivenessListeners: [@MainActor (Bool) -> Void] = []
    var toldResponsive = true
    /// Opens a page of the server in a new window of the app (the policy's `.openWindow`);
    /// nil: such a page is handed to the desktop instead.
    package var onOpenWindow: ((String) -> Void)?
    /// The pages alive, by web view: a download names only its view.
    static var live: [UnsafeMutableRawPointer: Weak] = [:]
    package struct Weak { weak var page: WebPage? }

    /// Where a page's web view runs.
    package enum Home {
        /// A web process of its own on `session`. `automation`: the view is built for a WebDriver
        /// session (`open --automation`); WebKit lets one drive only views made so at construction.
        case own(session: NetworkSessionPointer, automation: Bool)
        /// In `page`'s web process and network session (and its automation mode): a page more,
        /// not a process more.
        case beside(WebPage)
        /// A view made ahead with its own session and web process (a fleet's pool slot), its
        /// manager the one the page is given: the page takes it over.
        case prewarmed(PrewarmedView)
    }

    package init(_ home: Home, manager: ContentManagerPointer, trust: PageTrust) {
        self.manager = manager
        self.trust = trust
        navigation = NavigationGuard(NavigationPolicy.Context(serverOrigin: trust.origin, handsOut: trust.handsOut))
        permissions = PermissionCenter.of(profileData: trust.profileData, attended: trust.attended)
        switch home {
        case .own(let networkSession, let automation):
            view = cgtk_web_view_new(networkSession, manager, automation ? 1 : 0)
            sharesProcess = false
            processNotStarted = true
        case .beside(let other):
            view = cgtk_web_view_new_related(other.view, manager)
            sharesProcess = true
        case .prewarmed(let warm):
            warm.handOver()
            view = warm.view
            sharesProcess = false
        }
        Self.live[UnsafeMutableRawPointer(view)] = Weak(page: self)
        signals = connectNavigationPolicy() + connectPermissions() + [watchResponsiveness()]
        if Self.textZoom != 1 { applyTextZoom() }
        // First of the view's load-failed handlers: a blocked load is settled here, unseen by the owner's.
        signals.append(onLoadFailed(view) { [weak self] uri, error in self?.judgeBlocked(uri, error) ?? false })
        // A certificate the system refuses, let through when the app's own roots vouch for it.
        signals.append(onTLSErrors(view) { [weak self] uri, certificate in
            guard let self, let roots = TrustedRoots.ofThisApp else { return false }
            self.remadeAfterTLS = roots.recover(self, uri: uri, certificate: certificate)
            return self.remadeAfterTLS
        })
        confine()
        signals.append(onLoadChanged(view) { [weak self] event in self?.loadChanged(event) })
        signals.append(onProcessTerminated(view) { [weak self] reason in
            guard let self else { return }
            self.loadFinished = false
            self.observer?.webPageProcessEnded(self, reason: reason)
        })
        signals.append(onScriptDialog(view) { [weak self] dialog in
            guard let self else { return false }
            // Nothing is shown: the dialog ends at once, unanswered (its process, main's too when
            // shared, would otherwise wait on a dialog nobody can see).
            if self.lettingGo || self.outOfSight { return true }
            guard let answer = self.confirmAnswer, webkit_script_dialog_get_dialog_type(dialog) == WEBKIT_SCRIPT_DIALOG_CONFIRM else {
                self.keep(dialog: dialog)
                self.probe.dialogShown()
                return false  // WebKit shows its own dialog
            }
            webkit_script_dialog_confirm_set_confirmed(dialog, answer ? 1 : 0)
            return true
        })
    }

    /// A page dropped without `close` (a bug) still disconnects, so no signal reaches it freed.
    isolated deinit {
        keep(dialog: nil)
        stopProbe()
        guard !closed else { return }  // after close the view may be gone: nothing to undo
        signals.disconnect()
    }

    private func keep(dialog: OpaquePointer?) {
        if let shownDialog { webkit_script_dialog_unref(shownDialog) }
        shownDialog = dialog.map { webkit_script_dialog_ref($0) }
    }

    /// Out of sight but alive (a sheet page waiting, hidden, for its next presentation): a
    /// dialog of WebKit's it has open, or opens meanwhile, is answered as if dismissed — nobody
    /// could answer it, and its process (main's too, when shared) would wait on it.
    package var outOfSight = false {
        didSet { if outOfSight, let shownDialog { webkit_script_dialog_close(shownDialog) } }
    }

    /// The owner let go of the page but keeps its document running, hidden, for a moment (a
    /// sheet page until its replies have run): its observer hears nothing more, its questions
    /// are withdrawn, its loading stops, and whatever it asks beyond its document is refused.
    /// `close` ends it.
    package func letGo() {
        guard !closed, !lettingGo else { return }
        lettingGo = true
        stopProbe()
        observer = nil
        permissions.withdraw(page: self)
        // A dialog still open is answered as if dismissed (nothing, once it was answered).
        if let shownDialog { webkit_script_dialog_close(shownDialog) }
        webkit_web_view_stop_loading(view)
    }

    /// Stops every signal into this page and its loading; ends its web process unless another
    /// page shares it. The owner drops the view.
    package func close() {
        guard !closed else { return }
        closed = true
        stopProbe()
        Self.live[UnsafeMutableRawPointer(view)] = nil
        signals.disconnect()
        signals = []
        permissions.withdraw(page: self)
        if sharesProcess {
            // The process goes on for the other page; this one stops now and is closed in it
            // when its view is finalized.
            webkit_web_view_stop_loading(view)
        } else {
            webkit_web_view_terminate_web_process(view)
        }
    }

    package func load(_ uri: String) {
        navigationsAsked += 1
        let asked = navigationsAsked
        navigation.hostLoads(uri)
        // A private root's certificate is let through first (at once when there is none to check).
        guard let roots = TrustedRoots.ofThisApp else { return loadConfined(uri) }
        roots.prepare(uri, for: self) { [weak self] in
            guard let self, !self.closed, !self.lettingGo, self.navigationsAsked == asked else { return }
            self.loadConfined(uri)
        }
    }

    /// How the load under way ended, from WebKit's `load-failed` error (`LoadEnd`): replaced when
    /// a navigation was asked for since it started or the host stopped the page.
    package func loadEnd(_ error: UnsafeMutablePointer<GError>?) -> LoadEnd {
        guard let error else { return .failed("unknown error") }
        let domain = error.pointee.domain, code = error.pointee.code
        return LoadEnd.of(engineCancelled: domain == webkit_network_error_quark() && code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue,
                          networkCancelled: domain == g_io_error_quark() && code == G_IO_ERROR_CANCELLED.rawValue,
                          policy: domain == webkit_policy_error_quark(),
                          replaced: lettingGo || closed || navigationsAsked != navigationsAtStart,
                          reason: String(cString: error.pointee.message))
    }

    package var uri: String? { webkit_web_view_get_uri(view).map { String(cString: $0) } }
    package var title: String? { webkit_web_view_get_title(view).map { String(cString: $0) } }
    /// The window the page is shown in (the parent for its dialogs), if it is in one.
    package var window: WidgetPointer? { windowOf(cgtk_widget(UnsafeMutableRawPointer(view))) }

    private func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_STARTED:
            loadFinished = false
            navigationsAtStart = navigationsAsked
            observer?.webPageStarted(self)
        case WEBKIT_LOAD_COMMITTED:
            let response = webkit_web_view_get_main_resource(view).flatMap { webkit_web_resource_get_response($0) }
            documentStatus = response.map { Int(webkit_uri_response_get_status_code($0)) } ?? 0
            permissions.withdraw(page: self, document: true)  // the old document's questions go with it
            observer?.webPageCommitted(self)
        case WEBKIT_LOAD_FINISHED:
            // WebKit ends a load it refused a certificate for even when the certificate was let
            // through and the load made again: that load's own events follow, the page is not in.
            if remadeAfterTLS { remadeAfterTLS = false; return }
            loadFinished = true
            observer?.webPageFinished(self)
        default:
            break
        }
    }

    /// Runs a script in the page world, for scripted tours and tests only (never with message content).
    package func evaluate(_ script: String) {
        navigation.personActed()
        webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, nil, nil)
    }

    /// Runs a script in the page world and reports its value as JSON (undefined as null) or the
    /// exception's message. For the control interface's `eval`, which only `--allow-eval` enables.
    /// WebKit runs either as a person's gesture: each is an activation of its own (one pop-up).
    package func evaluate(_ script: String, done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) {
        navigation.personActed()
        webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, AsyncReply.callback, AsyncReply.data { source, result in
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_evaluate_javascript_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            done(Self.scriptOutcome(value, &error))
        })
    }
}
