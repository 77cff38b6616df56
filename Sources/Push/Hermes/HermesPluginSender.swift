import HostCore

/// The four kinds of push Hermes' plugin sends, with the only texts that leave the server
/// (push CONTRACT §3): the app fetches the content itself.
public enum HermesPushType: String, Sendable, CaseIterable {
    case approval, clarify, complete, error

    public var title: String {
        switch self {
        case .approval: "Approval needed"
        case .clarify: "Input needed"
        case .complete: "Turn complete"
        case .error: "Hermes hit an error"
        }
    }

    public var body: String {
        switch self {
        case .approval: "Hermes needs your approval"
        case .clarify: "Hermes needs more information"
        case .complete: "Hermes finished the turn"
        case .error: "Hermes ran into a problem"
        }
    }
}

/// A device the plugin pushes to.
public struct HermesPushDevice: Sendable, Equatable {
    public var token: String
    public var environment: APNsEnvironment
    public var appVersion: String
    public init(token: String, environment: APNsEnvironment, appVersion: String) {
        self.token = token; self.environment = environment; self.appVersion = appVersion
    }

    /// How a device is named in answers: its token's last 6 characters.
    public var label: String { "…" + String(token.suffix(6)) }
}

/// One push to one device as the hermes-push plugin's sender does it (push CONTRACT §3), as a
/// step machine the glue drives: it asks for a `/register` or a `/push` request or a pause,
/// and is told each answer (status nil = no answer: timeout, refused connection).
/// - a device without a capability registers first; a failed register skips the device;
/// - any 403 forgets the capability, registers again and retries once, not counted against the
///   attempts; a second 403 gives up;
/// - 410 prunes the device; 5xx and transport errors: 3 attempts in all, 0.5 s then 1.0 s apart;
///   any other 4xx gives up.
public struct HermesPluginSender: Sendable {
    public static let userAgent = "hermes-push-plugin/1.0 (HostShell reference server)"
    public static let timeoutSeconds = 5.0
    public static let maxAttempts = 3
    public static let retryDelays: [Double] = [0.5, 1.0]

    /// The environment variable the real plugin reads its gateway URL from (its one setting).
    public static let gatewayURLVariable = "HERMES_PUSH_GATEWAY_URL"

    /// The gateway's `/register` URL for the configured push URL, as the plugin derives it: a URL
    /// ending in `/push` has that suffix replaced (any path before it kept); any other URL gives
    /// its origin's `/register` (path, query and fragment dropped). The push itself goes to the
    /// configured URL as it is — `http://host:port` posts to `/`.
    public static func registerURL(pushURL: String) -> String {
        if pushURL.hasSuffix("/push") { return String(pushURL.dropLast(5)) + "/register" }
        return origin(of: pushURL) + "/register"
    }

    /// `scheme://authority` of a URL (the authority ends at the first `/`, `?` or `#` after `//`);
    /// a text without `//` is taken as all authority.
    static func origin(of url: String) -> String {
        var afterScheme = url.startIndex
        if let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") { afterScheme = url.index(colon, offsetBy: 3) }
        let end = url[afterScheme...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        return String(url[..<end])
    }

    public enum Step: Sendable, Equatable {
        case register(body: JSONValue)
        case push(body: JSONValue)
        case wait(seconds: Double)
        case done(Result)
    }

    /// How the push to one device ended.
    public struct Result: Sendable, Equatable {
        public var delivered: Bool
        /// The gateway's last status (nil: no answer).
        public var status: Int?
        public var error: String?
        /// The device is gone (410): the server forgets it.
        public var pruned: Bool
        /// The capability to keep for the device afterwards (nil: none known).
        public var capability: String?
        /// `/push` requests made (re-register's retry included) and `/register` requests made.
        public var pushes: Int
        public var registrations: Int

        public init(delivered: Bool, status: Int?, error: String?, pruned: Bool, capability: String?, pushes: Int, registrations: Int) {
            self.delivered = delivered; self.status = status; self.error = error; self.pruned = pruned
            self.capability = capability; self.pushes = pushes; self.registrations = registrations
        }

        public func json(device: HermesPushDevice) -> JSONValue {
            ["delivered": .bool(delivered), "status": status.map { .number(Double($0)) } ?? .null,
             "error": error.map(JSONValue.string) ?? .null, "pruned": .bool(pruned), "device": .string(device.label)]
        }
    }

    public let device: HermesPushDevice
    public let type: HermesPushType
    public let sessionID: String
    public let threadID: String
    public private(set) var capability: String?
    private var attempts = 0
    private var reregistered = false
    private var pushes = 0
    private var registrations = 0
    private var finished = false

    public init(device: HermesPushDevice, type: HermesPushType, sessionID: String, threadID: String = "", capability: String?) {
        self.device = device; self.type = type; self.sessionID = sessionID; self.threadID = threadID; self.capability = capability
    }

    public mutating func start() -> Step { capability == nil ? register() : push() }

    private mutating func register() -> Step {
        registrations += 1
        return .register(body: ["device_token": .string(device.token)])
    }

    private mutating func push() -> Step {
        pushes += 1
        var body: JSONObject = ["device_token": .string(device.token), "apns_env": .string(device.environment.rawValue),
                                "capability": .string(capability ?? ""), "type": .string(type.rawValue),
                                "session_id": .string(sessionID), "title": .string(type.title), "body": .string(type.body)]
        if !threadID.isEmpty { body["thread_id"] = .string(threadID) }
        return .push(body: .object(body))
    }

    private mutating func done(delivered: Bool = false, status: Int?, error: String?, pruned: Bool = false) -> Step {
        finished = true
        return .done(Result(delivered: delivered, status: status, error: error, pruned: pruned, capability: capability,
                            pushes: pushes, registrations: registrations))
    }

    /// The gateway answered `/register` (status nil: no answer).
    public mutating func registered(status: Int?, body: JSONValue?) -> Step {
        guard !finished else { return .done(Result(delivered: false, status: status, error: "finished", pruned: false, capability: capability, pushes: pushes, registrations: registrations)) }
        guard let status, (200..<300).contains(status), let capability = body?.objectValue?["capability"]?.stringValue, !capability.isEmpty else {
            return done(status: status, error: "register failed: " + Self.describe(status, body))
        }
        self.capability = capability
        return push()
    }

    /// The gateway answered `/push` (status nil: no answer).
    public mutating func pushed(status: Int?, body: JSONValue?) -> Step {
        guard !finished else { return .done(Result(delivered: false, status: status, error: "finished", pruned: false, capability: capability, pushes: pushes, registrations: registrations)) }
        switch status {
        case let s? where (200..<300).contains(s):
            return done(delivered: true, status: s, error: nil)
        case 403?:
            capability = nil
            guard !reregistered else { return done(status: 403, error: "403 again after registering again: " + Self.describe(403, body)) }
            reregistered = true
            return register()
        case 410?:
            capability = nil
            return done(status: 410, error: "device token is gone (410): pruned", pruned: true)
        case let s where s == nil || s! >= 500:
            attempts += 1
            guard attempts < Self.maxAttempts else {
                return done(status: s, error: "gave up after \(Self.maxAttempts) attempts: " + Self.describe(s, body))
            }
            return .wait(seconds: Self.retryDelays[attempts - 1])
        default:
            return done(status: status, error: Self.describe(status, body))
        }
    }

    /// The pause asked for is over.
    public mutating func waited() -> Step { finished ? .done(Result(delivered: false, status: nil, error: "finished", pruned: false, capability: capability, pushes: pushes, registrations: registrations)) : push() }

    static func describe(_ status: Int?, _ body: JSONValue?) -> String {
        guard let status else { return "no answer from the gateway" }
        let detail = body?.objectValue?["error"]?.stringValue ?? body?.objectValue?["reason"]?.stringValue
        return "HTTP \(status)" + (detail.map { ": " + $0 } ?? "")
    }
}
