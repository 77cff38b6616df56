import HostCore

/// A Capacitor page's bridge, as a machine: decodes what the page posts, hands calls to their
/// plugin, keeps the listener registry and the retained events, numbers the host requests and
/// drops whatever belongs to a document that is gone. One per page; the glue
/// (`CapacitorPage`) feeds it events and carries out its effects.
public struct CapacitorBridge: Machine, Sendable {
    /// A plugin's named timer.
    public struct Timer: Hashable, Sendable {
        public var plugin: String
        public var name: String
        public init(plugin: String, name: String) { self.plugin = plugin; self.name = name }
    }

    public enum Event: Sendable, Equatable {
        /// A message's JSON text from the page's main frame.
        case received(String)
        /// A new main-frame document: its listeners and waiting calls are gone.
        case documentCommitted
        /// The glue finished a `HostRequest`.
        case answered(ticket: Int, HostOutcome)
        /// Something the host reports, offered to the plugins.
        case host(PluginHostEvent)
        case timerFired(Timer)
    }

    public enum Effect: Sendable, Equatable {
        /// Hand to `window.Capacitor.fromNative`.
        case send(CapacitorResult)
        /// Work for the plugin's glue; answer with `.answered(ticket:)`.
        case ask(HostRequest)
        /// The page's console output (bridge log, event stream).
        case console(level: String, message: String)
        case jsError(message: String, url: String?, line: Int?, column: Int?)
        /// A message that could not be read, and why; the page gets nothing.
        case refused(String)
        /// A plugin's note for people.
        case note(plugin: String, String)
        case timer(TimerCommand<Timer>)
        /// No plugin took this host event (a control command the app cannot carry out).
        case unhandled(PluginHostEvent)
    }

    public struct Listener: Sendable, Equatable {
        public var plugin: String
        public var event: String
        public var callbackId: String
    }

    public struct RetainedEvent: Sendable, Equatable {
        public var plugin: String
        public var event: String
        public var data: JSONObject
    }

    /// Most listeners one document may hold; more are refused.
    public static let maxListeners = 512
    /// Most events kept per plugin and event name for a listener to come; the oldest goes first.
    public static let maxRetained = 32

    public private(set) var plugins: [any CapacitorPlugin]
    /// Counts main-frame documents; calls carry the one they came from.
    public private(set) var document = 0
    public private(set) var listeners: [Listener] = []
    public private(set) var retained: [RetainedEvent] = []
    /// Calls made, by `Plugin.method`.
    public private(set) var calls: [String: Int] = [:]
    /// Calls of a plugin or method the shell does not have (answered UNIMPLEMENTED), by `Plugin.method`.
    public private(set) var unimplemented: [String: Int] = [:]
    /// Every call the page made, known or not (`--check` waits for the first).
    public private(set) var callsReceived = 0
    /// Results not sent because their document was gone.
    public private(set) var staleDropped = 0
    public private(set) var timers = TimerSet<Timer>()
    private var asks: [Int: (plugin: String, action: String, arguments: JSONObject, call: CapacitorCall?)] = [:]
    private var nextTicket = 1

    public init(plugins: [any CapacitorPlugin]) { self.plugins = plugins }

    /// The built-in plugins (`CapacitorPlugins.standard`, or the ones given) made for `app`.
    public init(app: CapacitorAppInfo, plugins types: [any CapacitorPlugin.Type] = CapacitorPlugins.standard) {
        self.init(plugins: types.map { $0.init(app) })
    }

    /// `window.Capacitor.PluginHeaders`.
    public var headers: JSONValue { CapacitorPluginHeader.all(plugins.map { type(of: $0) }) }

    /// Requests the glue has not answered yet.
    public var pendingRequests: Int { asks.count }

    public func plugin(named name: String) -> (any CapacitorPlugin)? { plugins.first { $0.name == name } }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .received(let text):
            switch CapacitorWire.decode(text) {
            case .failure(let error):
                // A call that could still be told is answered: its promise settles, rejected.
                guard var call = error.call else { return [.refused(error.reason)] }
                call.document = document
                return [.refused(error.reason)] + answer(call, .failure(.unreadable(error.reason)))
            case .success(.console(let level, let message)): return [.console(level: level, message: message)]
            case .success(.jsError(let message, let url, let line, let column)):
                return [.jsError(message: message, url: url, line: line, column: column)]
            case .success(.call(var call)):
                callsReceived += 1
                call.document = document
                return receive(call)
            }
        case .documentCommitted:
            document += 1
            listeners = []
            return []
        case .answered(let ticket, let outcome):
            guard let ask = asks.removeValue(forKey: ticket), let index = index(of: ask.plugin) else { return [] }
            let answer = HostAnswer(action: ask.action, arguments: ask.arguments, call: ask.call, outcome: outcome)
            let effects = plugins[index].answered(answer)
            return carryOut(effects, from: index)
        case .host(let hostEvent):
            if case .timerFired = hostEvent { return [] }  // only through `.timerFired(Timer)`
            switch hostEvent {
            case .lifecycle, .appState: return broadcast(hostEvent)
            default: break
            }
            for index in plugins.indices {
                if let effects = plugins[index].hostEvent(hostEvent) { return carryOut(effects, from: index) }
            }
            return [.unhandled(hostEvent)]
        case .timerFired(let timer):
            guard timers.fire(timer), let index = index(of: timer.plugin) else { return [] }
            return carryOut(plugins[index].hostEvent(.timerFired(timer.name)) ?? [], from: index)
        }
    }

    private func index(of plugin: String) -> Int? { plugins.firstIndex { $0.name == plugin } }

    /// The window's lifecycle is every plugin's to see (App answers for it; PushNotifications
    /// judges from it whether a push arrives in the foreground); unhandled only if none takes it.
    private mutating func broadcast(_ hostEvent: PluginHostEvent) -> [Effect] {
        var out: [Effect] = []
        var taken = false
        for index in plugins.indices {
            guard let effects = plugins[index].hostEvent(hostEvent) else { continue }
            taken = true
            out += carryOut(effects, from: index)
        }
        return taken ? out : [.unhandled(hostEvent)]
    }

    private mutating func receive(_ call: CapacitorCall) -> [Effect] {
        guard let index = index(of: call.pluginId) else {
            unimplemented["\(call.pluginId).\(call.methodName)", default: 0] += 1
            return answer(call, .failure(.unknownPlugin(call.pluginId)))
        }
        calls["\(call.pluginId).\(call.methodName)", default: 0] += 1
        let type = type(of: plugins[index])
        switch call.methodName {
        case "addListener": return addListener(call, plugin: index)
        case "removeListener":
            let target = call.string("callbackId")
            listeners.removeAll { $0.plugin == call.pluginId && $0.callbackId == target }
            return []
        case "removeAllListeners":
            listeners.removeAll { $0.plugin == call.pluginId }
            return answer(call, .success(nil))
        default: break
        }
        guard type.methods.contains(where: { $0.name == call.methodName }) else {
            if call.methodName == "checkPermissions" || call.methodName == "requestPermissions" {
                return answer(call, .success(nil))
            }
            unimplemented["\(call.pluginId).\(call.methodName)", default: 0] += 1
            return answer(call, .failure(.unknownMethod(call.pluginId, call.methodName)))
        }
        return carryOut(plugins[index].call(call), from: index)
    }

    private mutating func addListener(_ call: CapacitorCall, plugin index: Int) -> [Effect] {
        guard let event = call.string("eventName"), !event.isEmpty else {
            return [.refused("\(call.pluginId).addListener needs \"eventName\" (a non-empty string)")]
        }
        guard call.waits else { return [.refused("\(call.pluginId).addListener without a callback")] }
        guard listeners.count < Self.maxListeners else {
            return [.refused("more than \(Self.maxListeners) listeners; \(call.pluginId).\(event) not added")]
        }
        listeners.append(Listener(plugin: call.pluginId, event: event, callbackId: call.callbackId))
        var effects: [Effect] = []
        let waiting = retained.filter { $0.plugin == call.pluginId && $0.event == event }
        if !waiting.isEmpty {
            retained.removeAll { $0.plugin == call.pluginId && $0.event == event }
            for item in waiting { effects.append(.send(eventResult(call.callbackId, plugin: call.pluginId, data: item.data))) }
        }
        return effects + carryOut(plugins[index].listenerAdded(event), from: index)
    }

    private func eventResult(_ callbackId: String, plugin: String, data: JSONObject) -> CapacitorResult {
        CapacitorResult(callbackId: callbackId, pluginId: plugin, methodName: "addListener", save: true, outcome: .success(data))
    }

    private mutating func answer(_ call: CapacitorCall, _ outcome: CapacitorResult.Outcome) -> [Effect] {
        guard call.waits else { return [] }
        guard call.document == document else {
            staleDropped += 1
            return []
        }
        let keeps = plugin(named: call.pluginId).map { type(of: $0).methods.contains { $0.name == call.methodName && $0.returnType == .callback } } ?? false
        return [.send(CapacitorResult(answering: call, save: keeps, outcome))]
    }

    private mutating func carryOut(_ effects: [PluginEffect], from index: Int) -> [Effect] {
        let name = plugins[index].name
        let retains = type(of: plugins[index]).retainedEvents
        var out: [Effect] = []
        for effect in effects {
            switch effect {
            case .resolve(let call, let data): out += answer(call, .success(data))
            case .reject(let call, let error): out += answer(call, .failure(error))
            case .emit(let event, let data):
                let targets = listeners.filter { $0.plugin == name && $0.event == event }
                if targets.isEmpty {
                    guard retains.contains(event) else { continue }
                    retained.append(RetainedEvent(plugin: name, event: event, data: data))
                    let same = retained.filter { $0.plugin == name && $0.event == event }.count
                    if same > Self.maxRetained, let first = retained.firstIndex(where: { $0.plugin == name && $0.event == event }) {
                        retained.remove(at: first)
                    }
                } else {
                    for target in targets { out.append(.send(eventResult(target.callbackId, plugin: name, data: data))) }
                }
            case .ask(let action, let arguments, let call):
                let ticket = nextTicket
                nextTicket += 1
                asks[ticket] = (name, action, arguments, call)
                out.append(.ask(HostRequest(ticket: ticket, plugin: name, action: action, arguments: arguments)))
            case .startTimer(let timer, let seconds): out.append(.timer(timers.start(Timer(plugin: name, name: timer), after: seconds)))
            case .cancelTimer(let timer):
                if let command = timers.cancel(Timer(plugin: name, name: timer)) { out.append(.timer(command)) }
            case .note(let text): out.append(.note(plugin: name, text))
            }
        }
        return out
    }

    /// The Capacitor side of `ctl state`: plugins (calls made, each plugin's own state),
    /// listeners, retained events, requests waiting.
    public var json: JSONValue {
        var pluginsJSON = JSONObject()
        for plugin in plugins {
            let name = plugin.name
            var entry = plugin.state
            var called = JSONObject()
            for key in calls.keys.sorted() where key.hasPrefix(name + ".") {
                called[String(key.dropFirst(name.count + 1))] = .number(Double(calls[key]!))
            }
            entry["calls"] = .object(called)
            pluginsJSON[name] = .object(entry)
        }
        return [
            "plugins": .object(pluginsJSON),
            "listeners": .array(listeners.map { ["plugin": .string($0.plugin), "event": .string($0.event), "callbackId": .string($0.callbackId)] }),
            "retained": .array(retained.map { ["plugin": .string($0.plugin), "event": .string($0.event)] }),
            "pendingRequests": .number(Double(asks.count)),
            "staleDropped": .number(Double(staleDropped)),
            "document": .number(Double(document)),
        ]
    }
}

/// The plugins Capacitor's own shell provides to every app. An app's own plugins (HomeSec's)
/// are added by the command that runs that app (`combined`). Adding a standard plugin is one
/// file (the type conforming to `CapacitorPlugin`) and one line here.
public enum CapacitorPlugins {
    public static let standard: [any CapacitorPlugin.Type] = [
        AppPlugin.self,
        PushNotificationsPlugin.self,
    ]

    /// Several lists as one, each plugin once (the first of a name wins), in the order their
    /// headers are listed: by name.
    public static func combined(_ lists: [any CapacitorPlugin.Type]...) -> [any CapacitorPlugin.Type] {
        var seen: Set<String> = []
        return lists.joined().filter { seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
    }
}
