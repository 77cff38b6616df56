import HostCore

/// The Hermes push gateway's rules (push CONTRACT §3): stateless, it holds the APNs key; a
/// device token's capability is hex HMAC-SHA256(secret, "hpc1:" + token) — computed by the glue
/// with a real crypto library and handed in; `/push` checks it, builds Apple's request, and
/// turns Apple's answer into the plugin's.
public enum HermesGateway {
    /// The text a capability is the HMAC of.
    public static func capabilityInput(token: String) -> String { "hpc1:" + token }

    /// What a request to the gateway comes to.
    public enum Outcome: Sendable, Equatable {
        /// Answer now.
        case answer(status: Int, body: JSONValue)
        /// Send this to Apple's provider API, then answer with `answer(forAPNs:)`.
        case forward(APNsOutbound)
    }

    /// A request for Apple's provider API, for the token's environment.
    public struct APNsOutbound: Sendable, Equatable {
        public let environment: APNsEnvironment
        public let token: String
        /// In order: push type, priority, collapse id (topic and authorization are the glue's).
        public let headers: [(name: String, value: String)]
        public let payload: JSONValue
        public static func == (a: APNsOutbound, b: APNsOutbound) -> Bool {
            a.environment == b.environment && a.token == b.token && a.payload == b.payload
                && a.headers.map { "\($0.name)=\($0.value)" } == b.headers.map { "\($0.name)=\($0.value)" }
        }
    }

    /// The longest request body the gateway reads (a `/push` is a few hundred bytes: the texts
    /// that leave a Hermes server are generic); a longer one is refused (413) as it arrives.
    public static let requestBodyBytes = 16 * 1024

    public static let types: Set<String> = ["approval", "clarify", "complete", "error"]

    /// How long the gateway waits for Apple's answer: under the plugin's own timeout
    /// (`HermesPluginSender.timeoutSeconds`, 5 s) with room for the gateway's own work, so a slow
    /// APNs gives the plugin a 502 to retry rather than a timeout of its own.
    public static let apnsWaitSeconds = 3.5

    /// The two things the gateway does.
    public enum Route: Sendable, Equatable { case register, push }

    /// The route for a request path, as the plugin sends them for the URL the gateway prints
    /// (`…/push`, whose register URL is `…/register`) and for its bare base URL (the plugin then
    /// posts the push to `/` and registers at `/register`); nil for anything else (404).
    public static func route(path: String) -> Route? {
        switch path {
        case "/register": .register
        case "/push", "/", "": .push
        default: nil
        }
    }

    /// The URL to configure the plugin with for a gateway at `base` (`http://127.0.0.1:PORT`).
    public static func pushURL(base: String) -> String { base + "/push" }

    /// The line that configures the hermes-push plugin (it reads one environment variable).
    public static func pluginSetting(base: String) -> String {
        HermesPluginSender.gatewayURLVariable + "=" + pushURL(base: base)
    }

    static func error(_ status: Int, _ text: String) -> Outcome { .answer(status: status, body: ["error": .string(text)]) }

    static func object(_ body: [UInt8]) -> JSONObject? { (try? JSONParser.parse(bytes: body))?.objectValue }

    /// `POST /register {device_token}` → `{capability}`.
    public static func register(body: [UInt8], capability: (String) -> String) -> Outcome {
        guard let object = object(body) else { return error(400, "the body must be a JSON object") }
        guard let token = object["device_token"]?.stringValue, APNsDeviceToken.isWellFormed(token) else {
            return error(400, "device_token must be a device token (hex)")
        }
        return .answer(status: 200, body: ["capability": .string(capability(token))])
    }

    /// `POST /push {device_token, apns_env, capability, type, session_id, title, body, thread_id?}`:
    /// 403 unless the capability is the token's; else Apple's request.
    public static func push(body: [UInt8], capability: (String) -> String) -> Outcome {
        guard let object = object(body) else { return error(400, "the body must be a JSON object") }
        guard let token = object["device_token"]?.stringValue, APNsDeviceToken.isWellFormed(token) else {
            return error(400, "device_token must be a device token (hex)")
        }
        guard let given = object["capability"]?.stringValue, constantTimeEqual(given, capability(token)) else {
            return error(403, "the capability does not match this device token; register again")
        }
        guard let environment = object["apns_env"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)) else {
            return error(400, "apns_env must be sandbox or production")
        }
        guard let type = object["type"]?.stringValue, types.contains(type) else {
            return error(400, "type must be one of approval, clarify, complete, error")
        }
        guard let session = object["session_id"]?.stringValue, !session.isEmpty,
              let title = object["title"]?.stringValue, let text = object["body"]?.stringValue else {
            return error(400, "session_id, title and body are required strings")
        }
        // The session id becomes the apns-collapse-id header: no line break may add one of its own.
        if let why = HeaderValue.problem(session) {
            return error(400, "session_id \(why); it is sent as the apns-collapse-id header")
        }
        let aps: JSONObject = [
            "alert": ["title": .string(title), "body": .string(text)],
            "sound": "default",
            "thread-id": .string(session),
            "interruption-level": .string(type == "approval" ? "time-sensitive" : "active"),
        ]
        let payload: JSONValue = ["aps": .object(aps), "session_id": .string(session), "type": .string(type)]
        return .forward(APNsOutbound(environment: environment, token: token,
                                     headers: [("apns-push-type", "alert"), ("apns-priority", "10"), ("apns-collapse-id", session)],
                                     payload: payload))
    }

    /// The plugin's answer for Apple's: 200 with the apns-id; 410 for a token Apple reports gone
    /// (the plugin prunes it); 400 for a push Apple refuses as such (the plugin gives up); 502
    /// for everything that is the gateway's or Apple's trouble — its key, rate limits, outages,
    /// no answer — which the plugin retries. Never 403: that would make it register again.
    public static func answer(forAPNs status: Int?, body: [UInt8], apnsID: String?) -> (status: Int, body: JSONValue) {
        let reason = object(body)?["reason"]?.stringValue
        guard let status else { return (502, ["error": .string("APNs did not answer within \(apnsWaitSeconds) s"), "apns_status": .null]) }
        var object: JSONObject = ["apns_status": .number(Double(status))]
        if let reason { object["reason"] = .string(reason) }
        if let apnsID { object["apns_id"] = .string(apnsID) }
        switch status {
        case 200..<300: object["ok"] = true; return (200, .object(object))
        case 410: return (410, .object(object))
        case 400, 413: return (400, .object(object))
        default: return (502, .object(object))
        }
    }

    /// Compares two capabilities without stopping at the first difference.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// Whether a provider token made at `issuedAt` should be made again at `now`: senders keep
    /// one about 50 minutes (Apple refuses them after 60, and new ones more often than every 20).
    public static func providerTokenIsStale(issuedAt: Double?, now: Double) -> Bool {
        guard let issuedAt else { return true }
        return now - issuedAt >= 3000 || now < issuedAt
    }
}
