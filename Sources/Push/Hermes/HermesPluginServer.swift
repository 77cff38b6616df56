import HostCore

/// A Hermes-like server with the hermes-push plugin installed (push CONTRACT §3), as pure rules:
/// the app's routes behind `X-Hermes-Session-Token`, the dashboard's plugin hub (readiness),
/// the device list with each device's capability, and the fan-out of one push to every device
/// (run by the glue with `HermesPluginSender`, one per device). Test hooks under `/__test/`
/// raise an event and show what is stored.
public struct HermesPluginServer: Sendable {
    public static let pluginName = "hermes-push"
    /// The longest request body the server reads (the plugin's requests are a few hundred
    /// bytes); a longer one is refused (413) as it arrives.
    public static let requestBodyBytes = 16 * 1024
    public static let prefix = "/api/plugins/hermes-push"
    public static let hubPath = "/api/dashboard/plugins/hub"
    /// The session id of "Send test notification"'s push.
    public static let testSessionID = "hermes-push-test"

    /// How the plugin shows in the hub (its `runtime_status`): enabled (ready); disabled, or
    /// inactive (installed, in neither the enabled nor the disabled list) — present but not
    /// enabled; or absent.
    public enum HubState: String, Sendable, CaseIterable { case enabled, disabled, inactive, absent }

    public struct Options: Sendable {
        public var sessionToken: String
        /// False: the plugin is not installed (its routes answer 404 and the hub omits it).
        public var installed: Bool
        public var hub: HubState
        public init(sessionToken: String, installed: Bool = true, hub: HubState = .enabled) {
            self.sessionToken = sessionToken; self.installed = installed; self.hub = installed ? hub : .absent
        }
    }

    public enum Outcome: Sendable, Equatable {
        case answer(status: Int, body: JSONValue)
        /// Push `type` for `sessionID` to these devices, then call `finished` with the results in
        /// the same order; `test` says which answer shape to give.
        case fanOut(type: HermesPushType, sessionID: String, devices: [HermesPushDevice], test: Bool)
    }

    public var options: Options
    public private(set) var devices: [HermesPushDevice] = []
    /// The gateway capability known for a token.
    public private(set) var capabilities: [String: String] = [:]
    /// Every fan-out's results, newest last (for `/__test/log`), at most `maxLog`.
    public private(set) var log: [JSONValue] = []
    public static let maxLog = 200

    public init(options: Options) { self.options = options }

    static func error(_ status: Int, _ detail: String) -> Outcome { .answer(status: status, body: ["detail": .string(detail)]) }

    /// One request. `header` reads a request header by name (any case).
    public mutating func handle(method: String, path: String, header: (String) -> String?, body: [UInt8]) -> Outcome {
        if path.hasPrefix("/__test/") { return testHook(method: method, path: path, body: body) }
        guard path == Self.hubPath || path.hasPrefix(Self.prefix + "/") else { return Self.error(404, "Not Found") }
        guard let given = header("X-Hermes-Session-Token"), HermesGateway.constantTimeEqual(given, options.sessionToken) else {
            return Self.error(401, "missing or wrong X-Hermes-Session-Token")
        }
        if path == Self.hubPath {
            guard method == "GET" else { return Self.error(405, "Method Not Allowed") }
            return .answer(status: 200, body: hub)
        }
        guard options.installed else { return Self.error(404, "Not Found") }
        let route = String(path.dropFirst(Self.prefix.count))
        guard ["/register", "/unregister", "/test"].contains(route) else { return Self.error(404, "Not Found") }
        guard method == "POST" else { return Self.error(405, "Method Not Allowed") }
        // Bodies are read as the plugin's pydantic models read them: 422 with FastAPI's detail list.
        let fields = route == "/register" ? FastAPIBody.registerFields : FastAPIBody.unregisterFields
        let object: JSONObject
        switch route == "/test" ? FastAPIBody.optionalObject(body) : FastAPIBody.validate(body, fields: fields) {
        case .valid(let valid): object = valid
        case .invalid(let detail): return .answer(status: 422, body: detail)
        }
        switch route {
        case "/register":
            let token = object["device_token"]?.stringValue ?? ""
            let environment = object["apns_env"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)) ?? .sandbox
            let version = object["app_version"]?.stringValue ?? ""
            let device = HermesPushDevice(token: token, environment: environment, appVersion: version)
            if let index = devices.firstIndex(where: { $0.token == token }) {
                if devices[index].environment != environment { capabilities[token] = nil }
                devices[index] = device
            } else {
                devices.append(device)
            }
            return .answer(status: 200, body: ["ok": true, "device_token": .string(token), "apns_env": .string(environment.rawValue)])
        case "/unregister":
            let token = object["device_token"]?.stringValue ?? ""
            let removed = remove(token)
            return .answer(status: 200, body: ["ok": true, "removed": .bool(removed)])
        case "/test":
            return .fanOut(type: .complete, sessionID: Self.testSessionID, devices: devices, test: true)
        default:
            return Self.error(404, "Not Found")
        }
    }

    /// The hub as Hermes' dashboard builds it (`_merged_plugins_hub`): a row per agent plugin
    /// with the real fields, dashboard extensions without an agent plugin, and the provider
    /// picker. The plugin is a user-installed one under the Hermes home.
    var hub: JSONValue {
        func row(_ name: String, _ description: String, _ source: String, _ status: String, dashboard: Bool) -> JSONValue {
            ["name": .string(name), "version": "1.0.0", "description": .string(description), "source": .string(source),
             "runtime_status": .string(status), "has_dashboard_manifest": .bool(dashboard), "dashboard_manifest": .null,
             "path": .string((source == "bundled" ? "/opt/hermes-agent/plugins/" : "/home/hermes/.hermes/plugins/") + name),
             "can_remove": .bool(source == "user"), "can_update_git": false, "auth_required": false, "auth_command": "",
             "user_hidden": false]
        }
        var plugins: [JSONValue] = [row("memory", "Built-in memory provider", "bundled", "enabled", dashboard: false)]
        if options.hub != .absent {
            plugins.append(row(Self.pluginName, "Push notifications to the Hermes iOS app", "user", options.hub.rawValue, dashboard: true))
        }
        return ["plugins": .array(plugins), "orphan_dashboard_plugins": [],
                "providers": ["memory_provider": "", "memory_options": [], "context_engine": "compressor", "context_options": []]]
    }

    @discardableResult
    mutating func remove(_ token: String) -> Bool {
        capabilities[token] = nil
        guard let index = devices.firstIndex(where: { $0.token == token }) else { return false }
        devices.remove(at: index)
        return true
    }

    /// `POST /__test/notify {type, session_id, thread_id?}` raises an event; `GET /__test/devices`
    /// and `GET /__test/log` show the stored devices and the fan-outs' results.
    mutating func testHook(method: String, path: String, body: [UInt8]) -> Outcome {
        switch (method, path) {
        case ("POST", "/__test/notify"):
            let object = (try? JSONParser.parse(bytes: body))?.objectValue ?? [:]
            guard let type = object["type"]?.stringValue.flatMap(HermesPushType.init(rawValue:)) else {
                return Self.error(400, "type must be approval, clarify, complete or error")
            }
            guard let session = object["session_id"]?.stringValue, !session.isEmpty else { return Self.error(400, "session_id is required") }
            return .fanOut(type: type, sessionID: session, devices: devices, test: false)
        case ("GET", "/__test/devices"):
            return .answer(status: 200, body: ["devices": .array(devices.map { device in
                ["device_token": .string(device.token), "apns_env": .string(device.environment.rawValue),
                 "app_version": .string(device.appVersion), "capability": capabilities[device.token].map(JSONValue.string) ?? .null]
            })])
        case ("GET", "/__test/log"):
            return .answer(status: 200, body: ["sends": .array(log)])
        default:
            return Self.error(404, "test hooks: POST /__test/notify, GET /__test/devices, GET /__test/log")
        }
    }

    /// A fan-out is over: keep each device's capability, prune the gone ones, and answer.
    public mutating func finished(type: HermesPushType, sessionID: String, devices sent: [HermesPushDevice],
                                  results: [HermesPluginSender.Result], test: Bool) -> (status: Int, body: JSONValue) {
        for (device, result) in zip(sent, results) {
            if result.pruned { remove(device.token) } else { capabilities[device.token] = result.capability }
        }
        let list = zip(sent, results).map { $0.1.json(device: $0.0) }
        log.append(["type": .string(type.rawValue), "session_id": .string(sessionID), "results": .array(list),
                    "registrations": .number(Double(results.reduce(0) { $0 + $1.registrations })),
                    "pushes": .number(Double(results.reduce(0) { $0 + $1.pushes }))])
        if log.count > Self.maxLog { log.removeFirst(log.count - Self.maxLog) }
        return (200, ["ok": true, "devices": .number(Double(sent.count)), "results": .array(list)])
    }
}
