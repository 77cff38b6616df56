import CGtk
import HostCore
import ShellKit
import StudioContract

/// What a Studio page's owner carries out for it: every effect of its session except replies,
/// messages to Studio's receiver and timers (the page does those itself), and the page's life.
/// One owner per page — main's session, or the presentation controller for the sheet page.
@MainActor
package protocol StudioPageHost: AnyObject {
    func perform(_ effect: PageEffect, for page: StudioPage)
    /// Studio's receiver answered a host message: `accepted` is its `true`.
    func studioPage(_ page: StudioPage, delivered message: HostMessage, accepted: Bool)
    /// A new main-frame document committed (the session has already started over).
    func studioPageCommitted(_ page: StudioPage)
    /// After every event (and when loading finished): state dumps, the reveal rule.
    func studioPageChanged(_ page: StudioPage)
    /// The page's web process ended (the session has already dropped the document).
    func studioPageProcessEnded(_ page: StudioPage, reason: WebKitWebProcessTerminationReason)
}

extension StudioPageHost {
    package func studioPage(_ page: StudioPage, delivered message: HostMessage, accepted: Bool) {}
    package func studioPageCommitted(_ page: StudioPage) {}
    package func studioPageChanged(_ page: StudioPage) {}
    package func studioPageProcessEnded(_ page: StudioPage, reason: WebKitWebProcessTerminationReason) {}
}

/// One Studio page: a `WebPage` with the Studio bridge pinned to its main frame (see
/// `BridgeScripts`), its `PageSession` run by a `PageDriver`, and the effects only the page can
/// carry out — replies, calls to Studio's receiver, the session's timers. Everything else goes
/// to its `host`.
@MainActor
package final class StudioPage {
    package let web: WebPage
    let serverOrigin: Origin
    private let driver: PageDriver
    private let channel: ScriptMessageChannel
    private lazy var timers = TimerBank<PageTimer> { [weak self] timer in self?.apply(.timerFired(timer)) }
    package weak var host: (any StudioPageHost)?
    /// Messages that reached the host through the bridge (decoded or not).
    package private(set) var messagesReceived = 0
    /// Called as each message arrives, before it is decoded (benchmarks time the gaps).
    package var onMessageArrived: (() -> Void)?
    /// When the latest message arrived (monotonic seconds), before it was decoded.
    package private(set) var lastArrival = 0.0
    private var closed = false

    package var view: WebViewPointer { web.view }
    package var session: PageSession { driver.session }

    /// Where the page runs: a web process of its own, or beside another Studio page.
    package enum Home {
        case own(session: NetworkSessionPointer, automation: Bool)
        case beside(StudioPage)
        /// On a fleet's prewarmed slot (a WebDriver session's app, `fleet --webdriver`): its
        /// view and web process made ahead on the session the page would have had.
        case prewarmed(PrewarmedView)
    }

    /// Where its bridge records go (see `AppEnvironment`).
    private let environment: AppEnvironment

    package init(_ home: Home, context: HostContext, profile: DeviceProfile, serverOrigin: Origin, available: Set<HostCapability>,
         environment: AppEnvironment, trust: PageTrust? = nil) {
        // Without an app's trust (probe, bench): nothing kept, and no one is asked.
        let trust = trust ?? PageTrust(origin: serverOrigin, handsOut: true, profileData: nil, handoff: environment.handoff, attended: false)
        self.serverOrigin = serverOrigin
        self.environment = environment
        driver = PageDriver(PageSession(context: context, profile: profile, available: available, serverOrigin: serverOrigin))
        let manager: ContentManagerPointer
        if case .prewarmed(let warm) = home { manager = warm.manager } else { manager = webkit_user_content_manager_new()! }
        LiveObjects.track(UnsafeMutableRawPointer(manager), as: .contentManager)
        var channelName = ""
        for _ in 0..<4 { channelName += String(UInt32.random(in: .min ... .max), radix: 16) }
        channel = ScriptMessageChannel(manager: manager, scripts: BridgeScripts(serverOrigin: serverOrigin, channel: channelName))
        switch home {
        case .own(let session, let automation): web = WebPage(.own(session: session, automation: automation), manager: manager, trust: trust)
        case .beside(let other): web = WebPage(.beside(other.web), manager: manager, trust: trust)
        case .prewarmed(let warm): web = WebPage(.prewarmed(warm), manager: manager, trust: trust)
        }
        LiveObjects.track(UnsafeMutableRawPointer(web.view), as: .webView)
        driver.performer = self
        web.observer = self
        channel.handler = { [unowned self] text in self.receive(text) }
    }

    /// A page dropped without `close` (a bug) still stops its bridge, so no message can reach it.
    isolated deinit {
        if !closed { channel.close() }
    }

    /// Stops the bridge, the timers and every signal into this page; the caller drops the view.
    package func close() {
        letGo()
        web.close()
    }

    /// Stops the bridge (what the page posts from now on is answered `unavailable` in it), the
    /// timers and every event into the host, but leaves the document running, refused anything
    /// beyond itself (`WebPage.letGo`), so the replies to what it posted still reach it. `close`
    /// ends it.
    func letGo() {
        guard !closed else { return }
        closed = true
        timers.cancelAll()
        channel.close()
        driver.performer = nil
        host = nil
        onMessageArrived = nil
        web.letGo()
    }

    /// Calls `done` once the replies to every message the page posted have run in it (or it
    /// cannot tell: its document, or the bridge's, is gone). For a page let go of.
    func whenRepliesRun(_ done: @escaping @MainActor () -> Void) {
        web.callAsync(BridgeScripts.repliesRunCall, world: BridgeScripts.worldName) { _ in done() }
    }

    package func load(_ uri: String) { web.load(uri) }
    package var uri: String? { web.uri }
    package var window: WidgetPointer? { web.window }

    /// Feeds the page's session an event from the native side and carries out its effects.
    package func apply(_ event: PageEvent) { driver.handle(event) }

    private func receive(_ text: String) -> String {
        messagesReceived += 1
        onMessageArrived?()
        let started = monotonicSeconds()
        lastArrival = started
        let reply = driver.receive(text)
        environment.record(BridgeLog.inbound(at: wallClockSeconds(), context: session.context, text: text, reply: reply,
                                               latencyMicroseconds: (monotonicSeconds() - started) * 1e6))
        return reply.text
    }

    // The person's and the host's events, by name.
    func tap(destination: String) { apply(.tapDestination(destination)) }
    func tapBack() { apply(.tapBack) }
    func requestSignOut() { apply(.requestSignOut) }
    func setCredentialAvailable(_ available: Bool) { apply(.credentialAvailable(available)) }
    func shareClosed() { apply(.shareClosed) }
    func menuChosen(_ menuId: String, actionId: String) { apply(.menuChosen(menuId: menuId, actionId: actionId)) }
    func menuDismissed(_ menuId: String) { apply(.menuDismissed(menuId: menuId)) }
    func openDeepLink(_ path: String) { apply(.deepLink(path: path)) }
    func dropDeepLink() { apply(.dropDeepLink) }
    func finishQRScan(_ requestId: String, value: String?) { apply(.qrScanFinished(requestId: requestId, value: value)) }
    func answerAlert(_ alertId: String, actionId: String) { apply(.alertAnswered(alertId: alertId, actionId: actionId)) }
    func finishMediaIntake(_ requestId: String, outcome: MediaIntakeOutcome, uploadedCount: Int) {
        apply(.mediaIntakeFinished(requestId: requestId, outcome: outcome, uploadedCount: uploadedCount))
    }

    /// Calls Studio's receiver with the message as an argument, and reports the answer.
    private func send(_ message: HostMessage) {
        let dict = g_variant_dict_new(nil)
        g_variant_dict_insert_value(dict, "message", g_variant_new_string(message.envelope.text))
        let arguments = g_variant_dict_end(dict)
        g_variant_dict_unref(dict)
        let sent = monotonicSeconds()
        // Recorded whatever becomes of the page meanwhile: a sheet page let go of right after
        // its presentation/dismissed still sent it (§6: the log has every message).
        let (environment, context) = (environment, session.context)
        webkit_web_view_call_async_javascript_function(view, BridgeScripts.receiverCall, -1, arguments, nil, nil, nil,
                                                       AsyncReply.callback, AsyncReply.data { [weak self] source, result in
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_call_async_javascript_function_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            let accepted = value.map { jsc_value_is_boolean($0) != 0 && jsc_value_to_boolean($0) != 0 } ?? false
            unref(value)
            if error != nil { g_error_free(error) }
            environment.record(BridgeLog.outbound(at: wallClockSeconds(), context: context, message: message,
                                                  accepted: accepted, latencyMicroseconds: (monotonicSeconds() - sent) * 1e6))
            guard let self, !self.closed else { return }
            self.apply(.delivered(message, accepted: accepted))
            self.host?.studioPage(self, delivered: message, accepted: accepted)
        })
    }
}

extension StudioPage: PageEffectPerformer {
    package func perform(_ effect: PageEffect) {
        switch effect {
        case .reply: break  // returned to the page by the driver
        case .send(let message): send(message)
        case .timer(let command): timers.perform(command)
        default: host?.perform(effect, for: self)
        }
    }

    package func sessionChanged() { host?.studioPageChanged(self) }
}

extension StudioPage: WebPageObserver {
    /// A main-frame navigation started: what the page had open goes now, not at the commit (§6).
    package func webPageStarted(_ page: WebPage) { apply(.navigationStarted) }

    /// A new main-frame document: it must negotiate again.
    package func webPageCommitted(_ page: WebPage) {
        apply(.documentCommitted)
        host?.studioPageCommitted(self)
    }

    package func webPageFinished(_ page: WebPage) { host?.studioPageChanged(self) }

    /// The document died with its process: nothing of it is shown any more, and whatever it
    /// negotiated or left open is gone, as with a new document.
    package func webPageProcessEnded(_ page: WebPage, reason: WebKitWebProcessTerminationReason) {
        apply(.documentCommitted)
        host?.studioPageProcessEnded(self, reason: reason)
    }
}
