import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// A call's JSON text as Capacitor's runtime posts it.
func capacitorCall(_ plugin: String, _ method: String, _ options: JSONObject = [:], id: String = "7") -> String {
    JSONWriter.string(["type": "message", "callbackId": .string(id), "pluginId": .string(plugin), "methodName": .string(method), "options": .object(options)])
}

/// A plugin that exercises the seam: echoes, rejects, asks the host, emits (one retained event).
struct EchoPlugin: CapacitorPlugin {
    static let name = "Echo"
    static let methods = [CapacitorMethod("echo"), CapacitorMethod("fail"), CapacitorMethod("stored"), CapacitorMethod("emit"),
                          CapacitorMethod("watch", .callback), CapacitorMethod("later")]
    static let retainedEvents: Set<String> = ["kept"]
    var answers = 0
    init(_ app: CapacitorAppInfo) {}

    mutating func call(_ call: CapacitorCall) -> [PluginEffect] {
        switch call.methodName {
        case "echo": return [.resolve(call, call.options)]
        case "fail": return [.reject(call, CapacitorError("nope", code: "E_NOPE", data: ["extra": 1, "code": "ignored"]))]
        case "stored": return [.ask(action: "secret.get", arguments: ["account": "a"], call: call)]
        case "emit": return [.emit(event: call.string("event") ?? "", data: ["n": 1]), .resolve(call, nil)]
        case "watch": return [.resolve(call, ["tick": 1])]
        case "later": return [.startTimer("tick", after: 2), .resolve(call, nil)]
        default: return []
        }
    }

    mutating func answered(_ answer: HostAnswer) -> [PluginEffect] {
        answers += 1
        guard let call = answer.call else { return [] }
        switch answer.outcome {
        case .success(let value): return [.resolve(call, ["value": value])]
        case .failure(let failure): return [.reject(call, CapacitorError(failure.message, code: "E_STORE"))]
        }
    }

    mutating func hostEvent(_ event: PluginHostEvent) -> [PluginEffect]? {
        switch event {
        case .timerFired("tick"): return [.emit(event: "tick", data: [:])]
        case .custom("ping", let data): return [.emit(event: "ping", data: data)]
        default: return nil
        }
    }

    var state: JSONObject { ["answers": .number(Double(answers))] }
}

func makeBridge() -> CapacitorBridge {
    CapacitorBridge(app: CapacitorAppInfo(appId: "com.example.app", appName: "Example"), plugins: [AppPlugin.self, EchoPlugin.self])
}

func sent(_ effects: [CapacitorBridge.Effect]) -> [JSONValue] {
    effects.compactMap { if case .send(let result) = $0 { return result.json } else { return nil } }
}

@Suite("Capacitor wire protocol")
struct CapacitorWireTests {
    @Test("a call decodes with its string callback id; options default to {}")
    func decodesCall() throws {
        let inbound = try CapacitorWire.decode(#"{"type":"message","callbackId":"123","pluginId":"App","methodName":"getState"}"#).get()
        #expect(inbound == .call(CapacitorCall(callbackId: "123", pluginId: "App", methodName: "getState")))
    }

    @Test("console output and js.error are their own kinds")
    func console() throws {
        #expect(try CapacitorWire.decode(#"{"type":"message","pluginId":"Console","methodName":"log","options":{"level":"warn","message":"hi"}}"#).get()
                == .console(level: "warn", message: "hi"))
        #expect(try CapacitorWire.decode(#"{"type":"js.error","error":{"message":"boom","url":"capacitor://localhost/","line":3,"col":9}}"#).get()
                == .jsError(message: "boom", url: "capacitor://localhost/", line: 3, column: 9))
    }

    @Test("what cannot be read is refused with the reason", arguments: [
        "[]", "nope", #"{"type":"message","pluginId":"App","methodName":"getState"}"#,
        #"{"type":"message","callbackId":5,"pluginId":"App","methodName":"getState"}"#,
        #"{"type":"message","callbackId":"1","pluginId":"","methodName":"getState"}"#,
        #"{"type":"message","callbackId":"1","pluginId":"App","methodName":"getState","options":[1]}"#,
        #"{"type":"other"}"#, #"{}"#,
    ])
    func refuses(_ text: String) {
        if case .success = CapacitorWire.decode(text) { Issue.record("accepted \(text)") }
    }

    @Test("a call whose options nest past the limit still settles: rejected with the reason, on its callback id",
          arguments: [65, 200, 5_000, 100_000])
    func deepOptionsSettle(_ depth: Int) throws {
        let nested = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let text = #"{"type":"message","callbackId":"41","pluginId":"App","options":{"deep":"# + nested + #","s":"x\"y"},"methodName":"getState"}"#
        var bridge = makeBridge()
        let effects = bridge.reduce(.received(text))
        let sent = effects.compactMap { effect -> JSONObject? in
            if case .send(let result) = effect { return result.json.objectValue } else { return nil }
        }
        #expect(sent.count == 1, "\(effects)")
        #expect(sent.first?["callbackId"] == "41" && sent.first?["success"] == false)
        let message = sent.first?["error"]?.objectValue?["message"]?.stringValue ?? ""
        #expect(message.contains("could not be read") && message.contains("deep"), "\(message)")
        #expect(effects.contains { if case .refused = $0 { return true } else { return false } })
        // Without a callback id nothing can be answered: refused only, as before.
        var quiet = bridge
        let noId = #"{"type":"message","pluginId":"App","methodName":"getState","options":{"d":"# + nested + "}}"
        #expect(!quiet.reduce(.received(noId)).contains { if case .send = $0 { return true } else { return false } })
    }

    @Test("the shallow reader takes top-level strings only, steps over nested values and escaped quotes")
    func shallowReader() {
        let text = #"{"a":{"callbackId":"no","x":["]",{"}":1}]},"callbackId":"7","b":"q\"}","pluginId":"P\u00e9","n":[1,2]}"#
        #expect(JSONShallow.topLevelStrings(text, keys: ["callbackId", "pluginId", "b"]) == ["callbackId": "7", "pluginId": "Pé", "b": "q\"}"])
        #expect(JSONShallow.topLevelStrings("[1]", keys: ["a"]) == nil)
        #expect(JSONShallow.topLevelStrings(#"{"a":"x""#, keys: ["a"]) == ["a": "x"], "what was read before the text ended")
        #expect(JSONShallow.topLevelStrings(#"{"a":"x"#, keys: ["a"]) == [:], "a string that never ends is not taken")
    }

    @Test("results are encoded as the iOS shell sends them: data absent on a bare resolve, error fields")
    func encodesResults() {
        let call = CapacitorCall(callbackId: "9", pluginId: "App", methodName: "getLaunchUrl")
        #expect(CapacitorResult(answering: call, .success(nil)).text
                == #"{"callbackId":"9","pluginId":"App","methodName":"getLaunchUrl","save":false,"success":true}"#)
        let error = CapacitorError("bad", code: "E1", data: ["message": "not this", "more": true])
        #expect(CapacitorResult(answering: call, .failure(error)).json.objectValue?["error"]
                == ["more": true, "message": "bad", "errorMessage": "bad", "code": "E1"])
        #expect(CapacitorError("no code").json.keys == ["message", "errorMessage"])
    }
}

@Suite("Capacitor bridge machine")
struct CapacitorBridgeTests {
    @Test("a call resolves and rejects on its callback id")
    func resolveReject() {
        var bridge = makeBridge()
        let ok = sent(bridge.reduce(.received(capacitorCall("Echo", "echo", ["a": 1], id: "41"))))
        #expect(ok == [["callbackId": "41", "pluginId": "Echo", "methodName": "echo", "save": false, "success": true, "data": ["a": 1]]])
        let bad = sent(bridge.reduce(.received(capacitorCall("Echo", "fail", id: "42"))))
        #expect(bad.first?.objectValue?["success"] == false)
        #expect(bad.first?.objectValue?["error"]?.objectValue?["code"] == "E_NOPE")
        #expect(bridge.calls == ["Echo.echo": 1, "Echo.fail": 1])
    }

    @Test("unknown plugin or method: UNIMPLEMENTED, with registerPlugin's wording")
    func unimplemented() {
        var bridge = makeBridge()
        let plugin = sent(bridge.reduce(.received(capacitorCall("Nope", "x"))))
        #expect(plugin.first?.objectValue?["error"]?.objectValue?["code"] == "UNIMPLEMENTED")
        #expect(plugin.first?.objectValue?["error"]?.objectValue?["message"] == #""Nope" plugin is not implemented on ios"#)
        let method = sent(bridge.reduce(.received(capacitorCall("App", "exitApp"))))
        #expect(method.first?.objectValue?["error"]?.objectValue?["message"] == #""App.exitApp()" is not implemented on ios"#)
        #expect(sent(bridge.reduce(.received(capacitorCall("Nope", "x", id: "-1")))).isEmpty, "nobody waits: nothing sent")
    }

    @Test("checkPermissions a plugin does not answer resolves with no data; a callback method's result is kept (save)")
    func permissionsAndCallbacks() {
        var bridge = makeBridge()
        let check = sent(bridge.reduce(.received(capacitorCall("App", "checkPermissions"))))
        #expect(check.first?.objectValue?["success"] == true && check.first?.objectValue?["data"] == nil)
        #expect(sent(bridge.reduce(.received(capacitorCall("Echo", "watch")))).first?.objectValue?["save"] == true)
    }

    @Test("addListener is never answered; events arrive on its id with save: true; remove and removeAll")
    func listeners() {
        var bridge = makeBridge()
        #expect(bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "ping"], id: "100"))).isEmpty)
        _ = bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "ping"], id: "101")))
        let events = sent(bridge.reduce(.host(.custom("ping", ["x": 2]))))
        #expect(events.map { $0.objectValue?["callbackId"] } == ["100", "101"])
        #expect(events.allSatisfy { $0.objectValue?["save"] == true && $0.objectValue?["methodName"] == "addListener" && $0.objectValue?["data"] == ["x": 2] })
        #expect(bridge.reduce(.received(capacitorCall("Echo", "removeListener", ["callbackId": "100", "eventName": "ping"], id: "-1"))).isEmpty)
        #expect(sent(bridge.reduce(.host(.custom("ping", [:])))).map { $0.objectValue?["callbackId"] } == ["101"])
        let all = sent(bridge.reduce(.received(capacitorCall("Echo", "removeAllListeners", id: "102"))))
        #expect(all.first?.objectValue?["callbackId"] == "102" && all.first?.objectValue?["success"] == true)
        #expect(sent(bridge.reduce(.host(.custom("ping", [:])))).isEmpty)
    }

    @Test("a retained event waits for the first listener; one not retained is dropped")
    func retention() {
        var bridge = makeBridge()
        _ = bridge.reduce(.received(capacitorCall("Echo", "emit", ["event": "kept"], id: "1")))
        _ = bridge.reduce(.received(capacitorCall("Echo", "emit", ["event": "lost"], id: "2")))
        #expect(bridge.retained.count == 1)
        #expect(sent(bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "lost"], id: "3")))).isEmpty)
        let first = sent(bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "kept"], id: "4"))))
        #expect(first.map { $0.objectValue?["callbackId"] } == ["4"])
        #expect(bridge.retained.isEmpty)
        #expect(sent(bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "kept"], id: "5")))).isEmpty, "delivered once")
    }

    @Test("a warm link reaches appUrlOpen's listener; one before any listener is retained for it; a cold start is the launch URL")
    func links() {
        var bridge = makeBridge()
        _ = bridge.reduce(.host(.openURL("homesec://live/1", launch: true)))
        let launch = sent(bridge.reduce(.received(capacitorCall("App", "getLaunchUrl", id: "1"))))
        #expect(launch.first?.objectValue?["data"] == ["url": "homesec://live/1"])
        #expect(bridge.retained.isEmpty, "a cold start is not also an appUrlOpen")
        _ = bridge.reduce(.host(.openURL("homesec://events/2", launch: false)))
        let retained = sent(bridge.reduce(.received(capacitorCall("App", "addListener", ["eventName": "appUrlOpen"], id: "2"))))
        #expect(retained.first?.objectValue?["data"] == ["url": "homesec://events/2", "iosSourceApplication": "", "iosOpenInPlace": false])
        let warm = sent(bridge.reduce(.host(.openURL("homesec://settings", launch: false))))
        #expect(warm.first?.objectValue?["callbackId"] == "2")
        #expect(sent(bridge.reduce(.received(capacitorCall("App", "getLaunchUrl", id: "3")))).first?.objectValue?["data"] == ["url": "homesec://settings"])
    }

    @Test("host work: the ask is numbered, its answer resolves the call; a stale answer after a reload sends nothing")
    func asks() {
        var bridge = makeBridge()
        let effects = bridge.reduce(.received(capacitorCall("Echo", "stored", id: "8")))
        #expect(effects == [.ask(HostRequest(ticket: 1, plugin: "Echo", action: "secret.get", arguments: ["account": "a"]))])
        #expect(bridge.pendingRequests == 1)
        let answer = sent(bridge.reduce(.answered(ticket: 1, .success("v"))))
        #expect(answer.first?.objectValue?["data"] == ["value": "v"])
        #expect(bridge.reduce(.answered(ticket: 1, .success("again"))).isEmpty, "answered once")
        _ = bridge.reduce(.received(capacitorCall("Echo", "stored", id: "9")))
        _ = bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "ping"], id: "10")))
        _ = bridge.reduce(.documentCommitted)
        #expect(bridge.listeners.isEmpty)
        #expect(bridge.reduce(.answered(ticket: 2, .failure(HostFailure("locked")))).isEmpty)
        #expect(bridge.staleDropped == 1)
        #expect(sent(bridge.reduce(.host(.custom("ping", [:])))).isEmpty, "the old document's listener is gone")
    }

    @Test("a plugin's timer fires back into it; a stale fire is ignored")
    func timers() {
        var bridge = makeBridge()
        _ = bridge.reduce(.received(capacitorCall("Echo", "addListener", ["eventName": "tick"], id: "1")))
        let effects = bridge.reduce(.received(capacitorCall("Echo", "later", id: "2")))
        let timer = CapacitorBridge.Timer(plugin: "Echo", name: "tick")
        #expect(effects.first == .timer(.start(timer, after: 2)))
        #expect(sent(bridge.reduce(.timerFired(timer))).count == 1)
        #expect(bridge.reduce(.timerFired(timer)).isEmpty)
    }

    @Test("a host event no plugin takes is reported unhandled")
    func unhandled() {
        var bridge = makeBridge()
        #expect(bridge.reduce(.host(.rotatePushToken)) == [.unhandled(.rotatePushToken)])
    }

    @Test("headers list the five standard methods first, then the plugin's own with rtype")
    func headers() {
        let header = CapacitorPluginHeader.json(EchoPlugin.self)
        let methods = header.objectValue?["methods"]?.arrayValue ?? []
        #expect(methods.prefix(5).map { $0.objectValue?["name"] } == ["addListener", "removeListener", "removeAllListeners", "checkPermissions", "requestPermissions"])
        #expect(methods[0] == ["name": "addListener"], "no rtype: nativeCallback")
        #expect(methods.last == ["name": "later", "rtype": "promise"])
        #expect(methods.contains(["name": "watch", "rtype": "callback"]))
    }

    @Test("the state lists calls per plugin, listeners and each plugin's own state")
    func state() {
        var bridge = makeBridge()
        _ = bridge.reduce(.received(capacitorCall("App", "getState")))
        _ = bridge.reduce(.received(capacitorCall("App", "addListener", ["eventName": "pause"], id: "3")))
        let json = bridge.json
        #expect(StatePredicate.value(at: "plugins.App.calls.getState", in: json) == 1)
        #expect(StatePredicate.value(at: "plugins.App.lifecycle", in: json) == "active")
        #expect(StatePredicate.value(at: "listeners.0.event", in: json) == "pause")
        #expect(StatePredicate.value(at: "plugins.Echo.answers", in: json) == 0)
    }
}

@Suite("App plugin lifecycle")
struct AppLifecycleTests {
    func events(_ bridge: inout CapacitorBridge, _ change: ControlCommand.LifecycleChange) -> [String] {
        sent(bridge.reduce(.host(.lifecycle(change)))).map { result in
            let id = result.objectValue?["callbackId"]?.stringValue ?? ""
            let data = result.objectValue?["data"]?.objectValue?["isActive"]
            return id + (data.map { ":\($0 == true)" } ?? "")
        }
    }

    @Test("blur: appStateChange false only; background: pause too; back: resume then appStateChange true")
    func order() {
        var bridge = makeBridge()
        for (id, event) in [("s", "appStateChange"), ("p", "pause"), ("r", "resume")] {
            _ = bridge.reduce(.received(capacitorCall("App", "addListener", ["eventName": .string(event)], id: id)))
        }
        #expect(events(&bridge, .blur) == ["s:false"])
        #expect(events(&bridge, .blur) == [], "already inactive")
        #expect(events(&bridge, .focus) == ["s:true"])
        #expect(events(&bridge, .background) == ["s:false", "p"])
        #expect(events(&bridge, .background) == [])
        #expect(events(&bridge, .foreground) == ["r", "s:true"])
        _ = bridge.reduce(.host(.lifecycle(.background)))
        #expect(events(&bridge, .focus) == ["r", "s:true"], "focus brings a hidden window back")
        let state = sent(bridge.reduce(.received(capacitorCall("App", "getState", id: "g"))))
        #expect(state.first?.objectValue?["data"] == ["isActive": true])
    }
}

@Suite("Capacitor URL rules")
struct CapacitorURLTests {
    @Test("server URL normalisation", arguments: [
        ("  HTTP://Box.LOCAL:8080/ ", "http://Box.LOCAL:8080"),
        ("https://h.example/api/?q=1#x", "https://h.example/api"),
        ("https://h.example///", "https://h.example"),
        ("http://[::1]:80/x/", "http://[::1]:80/x"),
    ])
    func normalises(_ input: String, _ expected: String) {
        #expect(CapacitorURL.normalizedServerURL(input) == expected)
    }

    @Test("not a server URL", arguments: ["", "ftp://h", "http:/h", "https://", "homesec://live", "http://:80/", "http://a b/"])
    func rejects(_ input: String) {
        #expect(CapacitorURL.normalizedServerURL(input) == nil)
    }

    @Test("client routing: no extension → index.html; files as they are; escapes refused")
    func assets() {
        #expect(CapacitorURL.assetPath(forRequestPath: "/") == "index.html")
        #expect(CapacitorURL.assetPath(forRequestPath: "/native-setup") == "index.html")
        #expect(CapacitorURL.assetPath(forRequestPath: "/events/12?from=x") == "index.html")
        #expect(CapacitorURL.assetPath(forRequestPath: "/assets/app.js") == "assets/app.js")
        #expect(CapacitorURL.assetPath(forRequestPath: "/assets/a%20b.css") == "assets/a b.css")
        #expect(CapacitorURL.assetPath(forRequestPath: "/../etc/passwd") == nil)
        #expect(CapacitorURL.assetPath(forRequestPath: "/%2e%2e/x.js") == nil)
        #expect(CapacitorURL.scheme(of: "HomeSec://live") == "homesec")
        #expect(CapacitorURL.scheme(of: "no scheme") == nil)
    }
}
