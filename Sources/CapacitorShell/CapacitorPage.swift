import CGtk
import CapacitorContract
import HostCore
import ShellKit

/// What a Capacitor page's owner hears: its main frame's life, for the loading screen.
@MainActor
protocol CapacitorPageHost: AnyObject {
    func capacitorPageCommitted(_ page: CapacitorPage, status: Int, uri: String)
    func capacitorPageFinished(_ page: CapacitorPage)
    func capacitorPageFailed(_ page: CapacitorPage, reason: String, uri: String)
    /// The load was cut off with nothing after it (`LoadEnd.cutOff`).
    func capacitorPageInterrupted(_ page: CapacitorPage, uri: String)
    func capacitorPageProcessEnded(_ page: CapacitorPage, reason: WebKitWebProcessTerminationReason)
}

/// One Capacitor app's page: a `WebPage` on the app's own profile, with the Capacitor runtime
/// pinned to its main frame on the app's origin (`CapacitorScripts`), run by `CapacitorBridge`.
/// It carries out the bridge's effects: results (answered at once in the message's reply, later
/// through `window.Capacitor.fromNative`), host requests to the plugins' glue
/// (`CapacitorPluginSet`), timers, and records for the bridge log and the event stream.
@MainActor
package final class CapacitorPage {
    package let web: WebPage
    /// `location.origin` of the app's documents.
    package let origin: String
    private let loop: MachineLoop<CapacitorBridge>
    var bridge: CapacitorBridge { loop.machine }
    private let scripts: CapacitorScripts
    /// Its bridge handler on the content manager and its handler on the view, until `disconnect`.
    private var signals: [SignalConnection] = []
    private var glues: [String: any CapacitorPluginGlue] = [:]
    private lazy var timers = TimerBank<CapacitorBridge.Timer> { [weak self] timer in self?.apply(.timerFired(timer)) }
    private let environment: AppEnvironment
    weak var host: (any CapacitorPageHost)?
    /// The page's last console lines and script errors, newest last (for `ctl state`).
    private(set) var console: [JSONValue] = []
    static let consoleKept = 50
    private(set) var refusedMessages = 0
    package private(set) var messagesReceived = 0
    /// Called as each message arrives (benchmarks time the gaps).
    package var onMessageArrived: (() -> Void)?
    /// Called after each bridge call the page made (`--check` waits for the app's boot).
    var onBridgeCall: (() -> Void)?
    /// Called with each result sent to the page, at once or later (`replay` compares them).
    var onResult: ((CapacitorResult) -> Void)?
    private var closed = false
    /// Which plugin methods' values the log hides.
    private let secrets: CapacitorSecrets

    package var view: WebViewPointer { web.view }

    init(app: CapacitorAppInfo, origin: String, session: NetworkSessionPointer, automation: Bool, prewarmed: PrewarmedView? = nil,
         environment: AppEnvironment, trust: PageTrust, plugins: CapacitorPluginSet, glueContext: (CapacitorPage) -> CapacitorGlueContext) {
        self.origin = origin
        self.environment = environment
        loop = MachineLoop(CapacitorBridge(app: app, plugins: plugins.types))
        secrets = plugins.secrets
        var channel = ""
        for _ in 0..<4 { channel += String(UInt32.random(in: .min ... .max), radix: 16) }
        scripts = CapacitorScripts(origin: origin, headers: loop.machine.headers, channel: channel)
        // The page owns this reference to its content manager and drops it in `disconnect`,
        // after unregistering its handler: the web view holds its own. A prewarmed view comes
        // with its manager (the reference is handed over with it).
        let manager = prewarmed?.manager ?? webkit_user_content_manager_new()!
        LiveObjects.track(UnsafeMutableRawPointer(manager), as: .contentManager)
        web = WebPage(prewarmed.map { .prewarmed($0) } ?? .own(session: session, automation: automation), manager: manager, trust: trust)
        LiveObjects.track(UnsafeMutableRawPointer(web.view), as: .webView)
        for (source, world) in [(scripts.runtime, nil as String?), (scripts.relay, CapacitorScripts.worldName)] {
            let script: OpaquePointer? = if let world {
                webkit_user_script_new_for_world(source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)
            } else {
                webkit_user_script_new(source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
            }
            webkit_user_content_manager_add_script(manager, script)
            webkit_user_script_unref(script)
        }
        // Connect before registering, so no message can arrive unheard. The handler holds the
        // page weakly: `close` disconnects it.
        signals.append(onReplyMessage(manager, handler: CapacitorScripts.handlerName) { [weak self] value, reply in
            self?.receive(value, reply)
        })
        webkit_user_content_manager_register_script_message_handler_with_reply(manager, CapacitorScripts.handlerName, CapacitorScripts.worldName)
        web.observer = self
        // Never WebKit's own error page (it would be taken for the app's page): the app's error
        // screen shows a failure; a load replaced by another, or stopped by a policy, shows nothing.
        signals.append(onLoadFailed(web.view) { [weak self] address, error in
            guard let self else { return true }
            switch self.web.loadEnd(error) {
            case .replaced, .policy: break
            case .cutOff: self.host?.capacitorPageInterrupted(self, uri: address)
            case .failed(let reason): self.host?.capacitorPageFailed(self, reason: reason, uri: address)
            }
            return true
        })
        let types = Set(bridge.plugins.map(\.name))
        for (name, make) in plugins.glues where types.contains(name) { glues[name] = make(glueContext(self)) }
    }

    isolated deinit {
        if !closed { disconnect() }
    }

    private func disconnect() {
        guard !signals.isEmpty else { return }
        webkit_user_content_manager_unregister_script_message_handler(web.manager, CapacitorScripts.handlerName, CapacitorScripts.worldName)
        signals.disconnect()
        signals = []
        g_object_unref(UnsafeMutableRawPointer(web.manager))
    }

    /// Stops the bridge, the timers, the glue and every signal into this page.
    package func close() {
        guard !closed else { return }
        closed = true
        timers.cancelAll()
        disconnect()
        for glue in glues.values { glue.close() }
        glues = [:]
        host = nil
        web.close()
    }

    package func load(_ uri: String) { web.load(uri) }

    /// Offers a host event to the plugins; false when none took it. (One offered from inside
    /// the page's own effects waits its turn, and counts as taken.)
    @discardableResult
    package func post(_ event: PluginHostEvent) -> Bool {
        var taken = true
        loop.send(.host(event)) { effect in
            if case .unhandled = effect { taken = false }
            if let result = self.perform(effect) { self.deliver(result) }
        }
        return taken
    }

    private func apply(_ event: CapacitorBridge.Event) {
        guard !closed else { return }
        loop.send(event) { effect in if let result = self.perform(effect) { self.deliver(result) } }
    }

    private func receive(_ value: JSValuePointer, _ reply: OpaquePointer) {
        messagesReceived += 1
        onMessageArrived?()
        let started = monotonicSeconds()
        let text = javaScriptText(value) ?? "null"  // with its length: a NUL does not end it
        var results: [CapacitorResult] = []
        let callsBefore = bridge.callsReceived
        if !closed { loop.send(.received(text)) { effect in if let result = self.perform(effect) { results.append(result) } } }
        if bridge.callsReceived > callsBefore { MainLoop.whenIdle { [weak self] in self?.onBridgeCall?() } }
        if let onResult { for result in results { onResult(result) } }
        let answer = "[" + results.map(\.text).joined(separator: ",") + "]"
        let result = jsc_value_new_string(jsc_value_get_context(value), answer)
        webkit_script_message_reply_return_value(reply, result)
        unref(result)
        let elapsed = (monotonicSeconds() - started) * 1e6
        environment.record(CapacitorLog.inbound(at: wallClockSeconds(), text: text, results: results, latencyMicroseconds: elapsed, secrets: secrets))
    }

    /// Carries out one effect; a result to send is returned, for the message's reply
    /// or for `deliver`, whichever the caller is.
    private func perform(_ effect: CapacitorBridge.Effect) -> CapacitorResult? {
        switch effect {
        case .send(let result):
            return result
        case .ask(let request):
            guard let glue = glues[request.plugin] else {
                let ticket = request.ticket
                MainLoop.whenIdle { [weak self] in
                    self?.apply(.answered(ticket: ticket, .failure(HostFailure("\(request.plugin) cannot do \(request.action) in this shell"))))
                }
                return nil
            }
            var answered = false
            glue.perform(request) { [weak self] outcome in
                guard !answered else { return }
                answered = true
                self?.apply(.answered(ticket: request.ticket, outcome))
            }
        case .console(let level, let message):
            keep(["level": .string(level), "message": .string(message)])
            environment.record(CapacitorLog.console(at: wallClockSeconds(), level: level, message: message))
        case .jsError(let message, let url, let line, let column):
            keep(["level": "js.error", "message": .string(message), "url": url.map(JSONValue.string) ?? .null,
                  "line": line.map { .number(Double($0)) } ?? .null, "column": column.map { .number(Double($0)) } ?? .null])
            environment.record(CapacitorLog.note(at: wallClockSeconds(), kind: "js.error", text: message))
        case .refused(let why):
            refusedMessages += 1
            environment.record(CapacitorLog.note(at: wallClockSeconds(), kind: "refused", text: why))
        case .note(let plugin, let text):
            environment.record(CapacitorLog.note(at: wallClockSeconds(), kind: "note", text: "\(plugin): \(text)"))
        case .timer(let command):
            timers.perform(command)
        case .unhandled:
            break  // `post` reports it to whoever asked
        }
        return nil
    }

    private func keep(_ entry: JSONObject) {
        console.append(.object(entry))
        if console.count > Self.consoleKept { console.removeFirst(console.count - Self.consoleKept) }
    }

    /// A result that was not answered in its message's reply: through `fromNative`, the result
    /// as an argument, never as script text.
    private func deliver(_ result: CapacitorResult) {
        environment.record(CapacitorLog.outbound(at: wallClockSeconds(), result: result, secrets: secrets))
        onResult?(result)
        let dict = g_variant_dict_new(nil)
        g_variant_dict_insert_value(dict, "results", g_variant_new_string("[" + result.text + "]"))
        let arguments = g_variant_dict_end(dict)
        g_variant_dict_unref(dict)
        webkit_web_view_call_async_javascript_function(web.view, scripts.deliver, -1, arguments, nil, nil, nil, nil, nil)
    }

    /// The Capacitor side of `ctl state`.
    var json: JSONObject {
        var object = bridge.json.objectValue ?? [:]
        object["console"] = .array(console)
        object["messages"] = .number(Double(messagesReceived))
        object["refused"] = .number(Double(refusedMessages))
        object["origin"] = .string(origin)
        return object
    }
}

extension CapacitorPage: WebPageObserver {
    package func webPageCommitted(_ page: WebPage) {
        apply(.documentCommitted)
        host?.capacitorPageCommitted(self, status: page.documentStatus, uri: page.uri ?? "")
    }

    package func webPageFinished(_ page: WebPage) { host?.capacitorPageFinished(self) }

    package func webPageProcessEnded(_ page: WebPage, reason: WebKitWebProcessTerminationReason) {
        apply(.documentCommitted)
        host?.capacitorPageProcessEnded(self, reason: reason)
    }
}
