import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("HermesPluginServer: the plugin's routes, its hub entry, pruning and the test send")
struct HermesPluginServerTests {
    static let token = String(repeating: "c4", count: 32)
    static let other = String(repeating: "d5", count: 32)

    static func call(_ server: inout HermesPluginServer, _ method: String, _ path: String, _ body: JSONValue? = nil,
                     session: String? = "T") -> HermesPluginServer.Outcome {
        server.handle(method: method, path: path, header: { $0.lowercased() == "x-hermes-session-token" ? session : nil },
                      body: body.map(JSONWriter.bytes) ?? [])
    }
    static func answer(_ outcome: HermesPluginServer.Outcome) -> (Int, JSONObject)? {
        if case .answer(let status, let body) = outcome { return (status, body.objectValue ?? [:]) }
        return nil
    }
    static func register(_ server: inout HermesPluginServer, _ token: String, env: String = "sandbox", version: String = "1.0") -> (Int, JSONObject)? {
        answer(call(&server, "POST", "/api/plugins/hermes-push/register", ["device_token": .string(token), "apns_env": .string(env), "app_version": .string(version)]))
    }

    @Test("the session token guards every route; register, unregister and their bad bodies")
    func routes() throws {
        var server = HermesPluginServer(options: .init(sessionToken: "T"))
        #expect(Self.answer(Self.call(&server, "POST", "/api/plugins/hermes-push/register", [:], session: nil))?.0 == 401)
        #expect(Self.answer(Self.call(&server, "POST", "/api/plugins/hermes-push/register", [:], session: "wrong"))?.0 == 401)
        let ok = try #require(Self.register(&server, Self.token))
        #expect(ok.0 == 200 && ok.1 == ["ok": true, "device_token": .string(Self.token), "apns_env": "sandbox"])
        #expect(Self.register(&server, Self.token, env: "staging")?.0 == 422)
        #expect(Self.register(&server, Self.token, version: "")?.0 == 422)
        #expect(Self.register(&server, Self.token)?.0 == 200 && server.devices.count == 1, "registering again replaces")
        // As the real route's model: any non-empty string is a token, any non-empty version a version.
        #expect(Self.register(&server, "not-hex", version: " ")?.0 == 200 && server.devices.count == 2)
        #expect(Self.answer(Self.call(&server, "POST", "/api/plugins/hermes-push/unregister", ["device_token": "not-hex"]))?.1["removed"] == true)
        #expect(Self.answer(Self.call(&server, "GET", "/api/plugins/hermes-push/register"))?.0 == 405)
        #expect(Self.answer(Self.call(&server, "POST", "/api/plugins/hermes-push/nothing", [:]))?.0 == 404)
        let removed = try #require(Self.answer(Self.call(&server, "POST", "/api/plugins/hermes-push/unregister", ["device_token": .string(Self.token)])))
        #expect(removed.0 == 200 && removed.1["removed"] == true && server.devices.isEmpty)
        #expect(Self.answer(Self.call(&server, "POST", "/api/plugins/hermes-push/unregister", ["device_token": .string(Self.token)]))?.1["removed"] == false)
    }

    static func detail(_ outcome: HermesPluginServer.Outcome) -> [[String: String]] {
        guard let (status, body) = answer(outcome), status == 422 else { return [] }
        return (body["detail"]?.arrayValue ?? []).map { item in
            let object = item.objectValue ?? [:]
            let loc = (object["loc"]?.arrayValue ?? []).map { $0.stringValue ?? ($0.numberValue.map { String(Int($0)) } ?? "?") }
            return ["type": object["type"]?.stringValue ?? "", "loc": loc.joined(separator: "."), "msg": object["msg"]?.stringValue ?? ""]
        }
    }

    @Test("bad registration fields are FastAPI's 422 with a detail list, field by field, as the real routes answer")
    func unprocessable() throws {
        var server = HermesPluginServer(options: .init(sessionToken: "T"))
        func post(_ route: String, _ body: [UInt8]) -> HermesPluginServer.Outcome {
            server.handle(method: "POST", path: "/api/plugins/hermes-push" + route, header: { _ in "T" }, body: body)
        }
        func post(_ route: String, _ json: JSONValue) -> HermesPluginServer.Outcome { post(route, JSONWriter.bytes(json)) }
        let all = Self.detail(post("/register", ["device_token": "", "apns_env": "staging", "app_version": 3]))
        #expect(all == [["type": "string_too_short", "loc": "body.device_token", "msg": "String should have at least 1 character"],
                        ["type": "string_pattern_mismatch", "loc": "body.apns_env", "msg": "String should match pattern '^(sandbox|production)$'"],
                        ["type": "string_type", "loc": "body.app_version", "msg": "Input should be a valid string"]])
        #expect(Self.detail(post("/register", ["device_token": .string(Self.token)])).map { $0["type"]! + " " + $0["loc"]! }
                == ["missing body.apns_env", "missing body.app_version"])
        #expect(Self.detail(post("/register", [UInt8]())).map { $0["type"]! + " " + $0["loc"]! } == ["missing body"])
        #expect(Self.detail(post("/register", Array("{nope".utf8))).map { $0["type"]! } == ["json_invalid"])
        #expect(Self.detail(post("/register", ["a", "b"])).map { $0["type"]! + " " + $0["loc"]! } == ["model_attributes_type body"])
        #expect(Self.detail(post("/unregister", ["device_token": 12])).map { $0["type"]! + " " + $0["loc"]! } == ["string_type body.device_token"])
        #expect(Self.detail(post("/test", ["x"])).map { $0["type"]! } == ["dict_type"])
        // The test send takes no body, or any object.
        guard case .fanOut = post("/test", [UInt8]()), case .fanOut = post("/test", ["anything": true]) else { Issue.record("test should fan out"); return }
        #expect(server.devices.isEmpty, "nothing refused was stored")
    }

    @Test("the hub lists hermes-push enabled, disabled or not at all; not installed: its routes are 404")
    func hub() throws {
        for state in HermesPluginServer.HubState.allCases {
            var server = HermesPluginServer(options: .init(sessionToken: "T", hub: state))
            let (status, body) = try #require(Self.answer(Self.call(&server, "GET", HermesPluginServer.hubPath)))
            #expect(status == 200)
            let expected: HermesReadiness = state == .enabled ? .ready : .notReady
            #expect(HermesReadiness.classify(status: status, body: .object(body)) == expected, "\(state)")
            // The rows carry the real hub's fields (hermes_cli's _merged_plugins_hub).
            let rows = body["plugins"]?.arrayValue ?? []
            for row in rows {
                #expect(row.objectValue.map { Set($0.keys) } == ["name", "version", "description", "source", "runtime_status", "has_dashboard_manifest",
                                                              "dashboard_manifest", "path", "can_remove", "can_update_git", "auth_required",
                                                              "auth_command", "user_hidden"])
            }
            let mine = rows.first { $0.objectValue?["name"] == "hermes-push" }?.objectValue
            #expect(state == .absent ? mine == nil : mine?["runtime_status"] == .string(state.rawValue) && mine?["source"] == "user")
            #expect(body["providers"]?.objectValue != nil && body["orphan_dashboard_plugins"] == [])
        }
        var missing = HermesPluginServer(options: .init(sessionToken: "T", installed: false))
        #expect(Self.register(&missing, Self.token)?.0 == 404)
        #expect(HermesReadiness.classify(status: 200, body: .object(try #require(Self.answer(Self.call(&missing, "GET", HermesPluginServer.hubPath))).1)) == .notReady)
        #expect(HermesReadiness.classify(status: 404, body: nil) == .unknown)
        #expect(HermesReadiness.classify(status: 503, body: ["plugins": []]) == .unknown)
        #expect(HermesReadiness.classify(status: nil, body: nil) == .unknown)
    }

    @Test("test and notify fan out to every device; a 410 result prunes, capabilities are kept")
    func fanOut() throws {
        var server = HermesPluginServer(options: .init(sessionToken: "T"))
        _ = Self.register(&server, Self.token)
        _ = Self.register(&server, Self.other, env: "production")
        guard case .fanOut(let type, let session, let devices, let test) = Self.call(&server, "POST", "/api/plugins/hermes-push/test", [:]) else {
            Issue.record("test should fan out"); return
        }
        #expect(type == .complete && session == HermesPluginServer.testSessionID && devices.count == 2 && test)
        let results = [HermesPluginSender.Result(delivered: true, status: 200, error: nil, pruned: false, capability: "cap-a", pushes: 1, registrations: 1),
                       HermesPluginSender.Result(delivered: false, status: 410, error: "gone", pruned: true, capability: nil, pushes: 1, registrations: 1)]
        let answer = server.finished(type: type, sessionID: session, devices: devices, results: results, test: true)
        #expect(answer.status == 200 && answer.body.objectValue?["devices"] == 2)
        let list = try #require(answer.body.objectValue?["results"]?.arrayValue)
        #expect(list[0].objectValue?["device"] == JSONValue.string("…" + String(Self.token.suffix(6))) && list[0].objectValue?["delivered"] == true)
        #expect(list[1].objectValue?["pruned"] == true)
        #expect(server.devices.map(\.token) == [Self.token] && server.capabilities == [Self.token: "cap-a"])
        guard case .fanOut(.approval, "s-7", let again, false) = Self.call(&server, "POST", "/__test/notify", ["type": "approval", "session_id": "s-7"]) else {
            Issue.record("notify should fan out"); return
        }
        #expect(again.map(\.token) == [Self.token])
        #expect(Self.answer(Self.call(&server, "POST", "/__test/notify", ["type": "party", "session_id": "s"]))?.0 == 400)
        let listed = try #require(Self.answer(Self.call(&server, "GET", "/__test/devices")))
        #expect(listed.1["devices"]?.arrayValue?.first?.objectValue?["capability"] == "cap-a")
        #expect(Self.answer(Self.call(&server, "GET", "/__test/log"))?.1["sends"]?.arrayValue?.count == 1)
        // With no devices the test send still answers 200 (the app shows "sent").
        var empty = HermesPluginServer(options: .init(sessionToken: "T"))
        guard case .fanOut(_, _, let none, _) = Self.call(&empty, "POST", "/api/plugins/hermes-push/test", [:]) else { Issue.record("fan out"); return }
        #expect(empty.finished(type: .complete, sessionID: "x", devices: none, results: [], test: true).status == 200)
    }
}
