import BridgeRuntime
import CGtk
import Glibc

/// One Studio page: a web view on a server's network session with the bridge, its
/// `PageSession`, and the effects carried out — replies, receiver calls, chrome redraws.
@MainActor
final class StudioPage {
    let view: WebViewPointer
    let serverOrigin: Origin
    private(set) var session: PageSession
    private let channel: ScriptMessageChannel
    private let manager: ContentManagerPointer
    /// The session's timers (the deep link's), fired back into it.
    private lazy var timers = TimerBank<PageTimer> { [weak self] timer in self?.handle(.timerFired(timer)) }
    /// Called with every chrome change, for the window to redraw.
    var onChromeChanged: ((NativeChrome) -> Void)?
    /// Called after every event, for observers (state dumps, probes).
    var onStateChanged: (() -> Void)?
    /// Called when Studio reports it signed out (`auth/signed-out`).
    var onStudioSignedOut: (() -> Void)?
    /// Called when Studio asked for a native media intake (the reply already said yes).
    var onMediaIntake: ((MediaIntakeRequest) -> Void)?
    /// Called to make a haptic feedback visible, and to open the share panel.
    var onHaptic: ((HapticFeedback) -> Void)?
    var onShare: ((ShareRequest) -> Void)?
    /// Called when the page's web process ended (crashed or was killed), for owners without
    /// their own handler (the prewarmed sheet page).
    var onWebProcessTerminated: (() -> Void)?
    /// Called with the presentation effects (open a sheet; the sheet page is ready, updated,
    /// closing or navigating), for the presentation controller.
    var onPresentationEffect: ((PageEffect) -> Void)?
    /// Called when the page's receiver answered a host message (true: a subscriber took it).
    var onDelivered: ((HostMessage, Bool) -> Void)?
    /// Called with the menu effects: the armed menu or triggers changed, show or hide a menu.
    var onMenuEffect: ((PageEffect) -> Void)?
    /// Called to start, or take away, a QR scan.
    var onStartQRScan: ((String) -> Void)?
    var onWithdrawQRScan: ((String) -> Void)?
    /// Called to show, or take away without an answer, this page's alert.
    var onShowAlert: ((AlertRequest) -> Void)?
    var onWithdrawAlert: ((String) -> Void)?
    /// Called when a new main-frame document commits, with its URI.
    var onDocumentCommitted: ((String) -> Void)?
    /// Answers the page's `confirm()` without showing a dialog (scripted tours, tests); nil shows
    /// WebKit's own dialog.
    var confirmAnswer: Bool?
    /// Messages that reached the host through the bridge (decoded or not).
    private(set) var messagesReceived = 0
    private(set) var loadFinished = false
    /// The HTTP status of the document shown (0 when it did not come over HTTP).
    private(set) var documentStatus = 0

    /// Where a page's web view runs.
    enum Home {
        /// A web process of its own on `session`. `automation`: the view is built for a WebDriver
        /// session (`open --automation`); WebKit lets one drive only views made so at construction.
        case own(session: NetworkSessionPointer, automation: Bool)
        /// In `page`'s web process and network session (and its automation mode): a page more,
        /// not a process more.
        case beside(StudioPage)
    }

    /// Whether this page runs in another page's web process (which closing it must not end).
    private let sharesProcess: Bool

    init(_ home: Home, context: HostContext, profile: DeviceProfile, serverOrigin: Origin, available: Set<HostCapability>) {
        self.serverOrigin = serverOrigin
        if case .beside = home { sharesProcess = true } else { sharesProcess = false }
        session = PageSession(context: context, profile: profile, available: available, serverOrigin: serverOrigin)
        manager = webkit_user_content_manager_new()
        var channelName = ""
        for _ in 0..<4 { channelName += String(UInt32.random(in: .min ... .max), radix: 16) }
        channel = ScriptMessageChannel(manager: manager, scripts: BridgeScripts(serverOrigin: serverOrigin, channel: channelName))
        switch home {
        case .own(let networkSession, let automation): view = cgtk_web_view_new(networkSession, manager, automation ? 1 : 0)
        case .beside(let other): view = cgtk_web_view_new_related(other.view, manager)
        }
        channel.handler = { [unowned self] text in self.receive(text) }
        cgtk_connect_load_changed(view, { _, event, data in
            let page = Unmanaged<StudioPage>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { page.loadChanged(event) }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        cgtk_connect_process_terminated(view, { _, _, data in
            let page = Unmanaged<StudioPage>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { page.webProcessEnded() }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        cgtk_connect_script_dialog(view, { _, dialog, data in
            let page = Unmanaged<StudioPage>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard let answer = page.confirmAnswer, webkit_script_dialog_get_dialog_type(dialog) == WEBKIT_SCRIPT_DIALOG_CONFIRM else {
                    return 0  // WebKit shows its own dialog
                }
                webkit_script_dialog_confirm_set_confirmed(dialog, answer ? 1 : 0)
                return 1
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// A page dropped without `close` (a bug) still stops its bridge, so no message can reach
    /// the freed page.
    isolated deinit {
        guard !closed else { return }  // after close the view may be gone: nothing to undo
        channel.close()
        g_signal_handlers_disconnect_matched(UnsafeMutableRawPointer(view), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                                             Unmanaged.passUnretained(self).toOpaque())
    }

    private var closed = false

    /// Stops the bridge and every signal into this page; the caller drops the view.
    func close() {
        guard !closed else { return }
        closed = true
        timers.cancelAll()
        channel.close()
        g_signal_handlers_disconnect_matched(UnsafeMutableRawPointer(view), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                                             Unmanaged.passUnretained(self).toOpaque())
        onChromeChanged = nil
        onStateChanged = nil
        onStudioSignedOut = nil
        onDocumentCommitted = nil
        onMediaIntake = nil
        onShowAlert = nil
        onHaptic = nil
        onShare = nil
        onStartQRScan = nil
        onMenuEffect = nil
        onPresentationEffect = nil
        onDelivered = nil
        onWebProcessTerminated = nil
        onWithdrawQRScan = nil
        onWithdrawAlert = nil
        if sharesProcess {
            // The process goes on for the other page; this one stops now and is closed in it
            // when its view is finalized.
            webkit_web_view_stop_loading(view)
        } else {
            webkit_web_view_terminate_web_process(view)
        }
    }

    /// Runs a script in the page world, for scripted tours and tests only (never with message content).
    func evaluate(_ script: String) {
        webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, nil, nil)
    }

    /// Runs a script in the page world and reports its value as JSON (undefined as null) or the
    /// exception's message. For the control interface's `eval`, which only `--allow-eval` enables.
    func evaluate(_ script: String, done: @escaping @MainActor (Result<JSONValue, ControlError>) -> Void) {
        let box = Unmanaged.passRetained(ScriptResultBox(done)).toOpaque()
        webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, { source, result, data in
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_evaluate_javascript_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            ScriptResultBox.finish(data, value: value, error: &error)
        }, box)
    }

    func load(_ uri: String) {
        webkit_web_view_load_uri(view, uri)
    }

    var uri: String? { webkit_web_view_get_uri(view).map { String(cString: $0) } }

    // MARK: events in

    private func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_STARTED:
            loadFinished = false
        case WEBKIT_LOAD_COMMITTED:
            // A new main-frame document: it must negotiate again.
            let response = webkit_web_view_get_main_resource(view).flatMap { webkit_web_resource_get_response($0) }
            documentStatus = response.map { Int(webkit_uri_response_get_status_code($0)) } ?? 0
            handle(.documentCommitted)
            onDocumentCommitted?(uri ?? "")
        case WEBKIT_LOAD_FINISHED:
            loadFinished = true
            onStateChanged?()
        default:
            break
        }
    }

    /// The document died with its process: nothing of it is shown any more, and whatever it
    /// negotiated or left open is gone, as with a new document.
    private func webProcessEnded() {
        loadFinished = false
        handle(.documentCommitted)
        onWebProcessTerminated?()
    }

    /// The window the page is shown in (the parent for its dialogs), if it is in one.
    var window: WidgetPointer? { windowOf(cgtk_widget(UnsafeMutableRawPointer(view))) }

    var title: String? { webkit_web_view_get_title(view).map { String(cString: $0) } }

    /// Called as each message arrives, before it is decoded (benchmarks time the gaps).
    var onMessageArrived: (() -> Void)?

    private func receive(_ text: String) -> String {
        messagesReceived += 1
        onMessageArrived?()
        let started = monotonicSeconds()
        var reply: Reply = .failure(id: nil, code: .unavailable)
        let event: PageEvent
        switch StudioMessageDecoder.decode(text, context: session.context) {
        case .success(let inbound): event = .received(inbound)
        case .failure(let failure): event = .rejected(failure)
        }
        for effect in reduce(event) {
            if case .reply(let r) = effect { reply = r }
        }
        BridgeLogFile.record(BridgeLog.inbound(at: wallClockSeconds(), context: session.context, text: text, reply: reply,
                                                        latencyMicroseconds: (monotonicSeconds() - started) * 1e6))
        return reply.text
    }

    /// The user tapped a destination or the back button.
    func tap(destination: String) { handle(.tapDestination(destination)) }
    func tapBack() { handle(.tapBack) }
    /// Asks Studio to sign out (when it speaks the auth lifecycle); tells it whether uploads
    /// with the app's credential are possible.
    func requestSignOut() { handle(.requestSignOut) }
    func setCredentialAvailable(_ available: Bool) { handle(.credentialAvailable(available)) }
    /// The share panel closed.
    func shareClosed() { handle(.shareClosed) }
    /// The person chose in, or closed, a menu.
    func menuChosen(_ menuId: String, actionId: String) { handle(.menuChosen(menuId: menuId, actionId: actionId)) }
    func menuDismissed(_ menuId: String) { handle(.menuDismissed(menuId: menuId)) }
    /// Queues a deep link's Studio path until Studio can take it; or forgets it.
    func openDeepLink(_ path: String) { handle(.deepLink(path: path)) }
    func dropDeepLink() { handle(.dropDeepLink) }
    /// A QR scan ended: the text, or nil when cancelled.
    func finishQRScan(_ requestId: String, value: String?) { handle(.qrScanFinished(requestId: requestId, value: value)) }

    /// The person pressed a button of the page's alert.
    func answerAlert(_ alertId: String, actionId: String) { handle(.alertAnswered(alertId: alertId, actionId: actionId)) }

    /// Reports the end of a native media intake to Studio.
    func finishMediaIntake(_ requestId: String, outcome: MediaIntakeOutcome, uploadedCount: Int) {
        handle(.mediaIntakeFinished(requestId: requestId, outcome: outcome, uploadedCount: uploadedCount))
    }

    /// Feeds the page an event from the host side (the presentation controller's).
    func apply(_ event: PageEvent) { handle(event) }

    // MARK: effects out

    private func handle(_ event: PageEvent) { _ = reduce(event) }

    /// Reduces and carries out every effect but replies, which the caller returns to the page.
    private func reduce(_ event: PageEvent) -> [PageEffect] {
        let effects = session.reduce(event)
        for effect in effects {
            switch effect {
            case .reply: break
            case .send(let message): send(message)
            case .chromeChanged(let chrome): onChromeChanged?(chrome)
            case .studioSignedOut: onStudioSignedOut?()
            case .startMediaIntake(let request): onMediaIntake?(request)
            case .showAlert(let request): onShowAlert?(request)
            case .haptic(let feedback): onHaptic?(feedback)
            case .showShare(let request): onShare?(request)
            case .menusChanged, .showMenu, .hideMenu: onMenuEffect?(effect)
            case .timer(let command): timers.perform(command)
            case .startQRScan(let requestId): onStartQRScan?(requestId)
            case .withdrawQRScan(let requestId): onWithdrawQRScan?(requestId)
            case .withdrawAlert(let alertId): onWithdrawAlert?(alertId)
            case .openPresentation, .presentationReady, .presentationUpdated, .closePresentation, .navigateFromPresentation:
                onPresentationEffect?(effect)
            }
        }
        onStateChanged?()
        return effects
    }

    /// Calls the page's receiver with the message as an argument, and reports the answer.
    private func send(_ message: HostMessage) {
        let dict = g_variant_dict_new(nil)
        g_variant_dict_insert_value(dict, "message", g_variant_new_string(message.envelope.text))
        let arguments = g_variant_dict_end(dict)
        g_variant_dict_unref(dict)
        let box = Unmanaged.passRetained(DeliveryBox(page: self, message: message, sent: monotonicSeconds())).toOpaque()
        webkit_web_view_call_async_javascript_function(view, BridgeScripts.receiverCall, -1, arguments, nil, nil, nil, { source, result, data in
            let box = Unmanaged<DeliveryBox>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_call_async_javascript_function_finish(WebViewPointer(OpaquePointer(source)), result, &error)
            let accepted = value.map { jsc_value_is_boolean($0) != 0 && jsc_value_to_boolean($0) != 0 } ?? false
            unref(value)
            if error != nil { g_error_free(error) }
            MainActor.assumeIsolated {
                if let page = box.page {
                    BridgeLogFile.record(BridgeLog.outbound(at: wallClockSeconds(), context: page.session.context, message: box.message,
                                                                     accepted: accepted, latencyMicroseconds: (monotonicSeconds() - box.sent) * 1e6))
                }
                box.page?.handle(.delivered(box.message, accepted: accepted))
                box.page?.onDelivered?(box.message, accepted)
            }
        }, box)
    }
}

/// Carries a sent message to the receiver's answer.
private final class DeliveryBox {
    weak var page: StudioPage?
    let message: HostMessage
    let sent: Double
    @MainActor init(page: StudioPage, message: HostMessage, sent: Double) { self.page = page; self.message = message; self.sent = sent }
}
