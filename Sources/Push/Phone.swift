import HostCore

/// The phone's side of push (issue 14 item 2), as pure values: where a device holding a token
/// listens (`PhoneDirectory`, `PhoneEntry`), what crosses to it (`PhonePush`), what it answers
/// (`PhoneAck`), and what is kept for an app that is not running (`PhoneInbox`).
///
/// The stand-in (`hostshell apns serve`) and an app run as separate processes: a running app
/// holding a token listens on a Unix socket named in the user's runtime directory; a push for
/// it is one JSON line there, answered by one line.

/// One device that holds a token: the app (profile) it belongs to, the bundle id pushes must be
/// addressed to (the APNs topic), the environment it was issued for, and its socket.
public struct PhoneEntry: Sendable, Equatable {
    /// The token, lower-case hex (Apple's tokens are case-blind; Capacitor reports upper case).
    public var token: String
    /// The app id its profile is named by (for a Capacitor app, the bundle id).
    public var appId: String
    /// The bundle id (APNs topic without a push type's suffix).
    public var topic: String
    public var environment: APNsEnvironment
    /// The socket the device listens on.
    public var socket: String

    public init(token: String, appId: String, topic: String, environment: APNsEnvironment, socket: String) {
        self.token = token.lowercased(); self.appId = appId; self.topic = topic; self.environment = environment; self.socket = socket
    }

    /// `{"token", "appId", "topic", "environment", "socket"}`.
    public var fileText: String {
        JSONWriter.string(["token": .string(token), "appId": .string(appId), "topic": .string(topic),
                           "environment": .string(environment.rawValue), "socket": .string(socket)])
    }

    /// Nil for anything damaged (a file cut short, a missing member, a token that is not one).
    public init?(fileText: String) {
        guard let object = (try? JSONParser.parse(fileText, maxDepth: 2))?.objectValue,
              let token = object["token"]?.stringValue, APNsDeviceToken.isWellFormed(token),
              let appId = object["appId"]?.stringValue, !appId.isEmpty,
              let topic = object["topic"]?.stringValue, !topic.isEmpty,
              let environment = object["environment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)),
              let socket = object["socket"]?.stringValue, socket.hasPrefix("/") else { return nil }
        self.init(token: token, appId: appId, topic: topic, environment: environment, socket: socket)
    }
}

/// Where devices holding tokens are found: `<runtime dir>/hostshell/phones/`, one entry file
/// per token (`<token>.json`) and one socket per token (a short name: `sockaddr_un` holds 107
/// bytes).
public enum PhoneDirectory {
    public static func directory(runtimeDirectory: String) -> String { runtimeDirectory + "/hostshell/phones" }

    public static func entryPath(_ directory: String, token: String) -> String { directory + "/" + token.lowercased() + ".json" }

    /// `<dir>/p-<hash of the token, base 36>.sock`.
    public static func socketPath(_ directory: String, token: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token.lowercased().utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return directory + "/p-" + String(hash, radix: 36) + ".sock"
    }

    /// The entry file names' token, or nil for other files in the directory.
    public static func token(ofEntryName name: String) -> String? {
        guard name.hasSuffix(".json") else { return nil }
        let token = String(name.dropLast(5))
        return APNsDeviceToken.isWellFormed(token) && token == token.lowercased() ? token : nil
    }

    /// Whether an app that holds `record` takes a push addressed to `topic` in `environment`:
    /// Apple's `BadDeviceToken` (other environment) and `DeviceTokenNotForTopic` (other app).
    public static func refusal(of entry: PhoneEntry, topic: String, environment: APNsEnvironment) -> APNsReason? {
        if entry.environment != environment { return .badDeviceToken }
        if entry.topic != topic { return .deviceTokenNotForTopic }
        return nil
    }
}

/// Who on this machine holds each push token, read from the phone directory and the app
/// profiles at one moment: a running device's entry first, else the app profile whose push
/// record names the token. Tokens are compared in lower case, as Apple compares them.
public struct TokenHolders: Sendable, Equatable {
    /// An app profile's push record, under its app id.
    public struct ProfileRecord: Sendable, Equatable {
        public var appId: String
        public var record: PushRecord
        public init(appId: String, record: PushRecord) { self.appId = appId; self.record = record }
        /// The app and environment the token belongs to; an app id is its bundle id where the
        /// record names none.
        public var device: APNsDevice { APNsDevice(bundleID: record.bundleId ?? appId, environment: record.environment) }
    }

    private var running: [String: PhoneEntry] = [:]
    private var profiles: [String: ProfileRecord] = [:]

    /// Where two entries or two profiles name one token, the first is kept.
    public init(entries: [PhoneEntry], profiles: [ProfileRecord]) {
        for entry in entries { running[entry.token.lowercased()] = running[entry.token.lowercased()] ?? entry }
        for profile in profiles { self.profiles[profile.record.token.hex.lowercased()] = self.profiles[profile.record.token.hex.lowercased()] ?? profile }
    }

    /// The entry of the device said to hold `token` (it may have ended without taking it away).
    public func entry(_ token: String) -> PhoneEntry? { running.isEmpty ? nil : running[APNsDeviceToken.lowercased(token)] }
    /// The app profile holding `token`.
    public func profile(_ token: String) -> ProfileRecord? { profiles.isEmpty ? nil : profiles[APNsDeviceToken.lowercased(token)] }

    /// The app and environment `token` belongs to, when anything here holds it.
    public func device(holding token: String) -> APNsDevice? {
        if running.isEmpty && profiles.isEmpty { return nil }
        let token = APNsDeviceToken.lowercased(token)
        if let entry = running[token] { return APNsDevice(bundleID: entry.topic, environment: entry.environment) }
        return profiles[token]?.device
    }
}

/// A push as it crosses to the device: the payload (a JSON object; a device drops anything
/// else) and the APNs headers an app can tell apart — id, collapse id, push type, priority.
public struct PhonePush: Sendable, Equatable {
    public var id: String
    public var token: String
    public var topic: String
    public var environment: APNsEnvironment
    public var pushType: String
    public var priority: Int
    public var collapseID: String?
    public var payload: JSONObject

    public init(id: String, token: String, topic: String, environment: APNsEnvironment, pushType: String = "alert",
                priority: Int = 10, collapseID: String? = nil, payload: JSONObject) {
        self.id = id; self.token = token.lowercased(); self.topic = topic; self.environment = environment
        self.pushType = pushType; self.priority = priority; self.collapseID = collapseID; self.payload = payload
    }

    /// What the stand-in took, for the device; nil when its payload is not a JSON object (a device drops it).
    public init?(_ accepted: AcceptedPush) {
        guard let payload = (try? JSONParser.parse(bytes: accepted.payload))?.objectValue else { return nil }
        self.init(id: accepted.apnsID, token: accepted.token, topic: accepted.bundleID, environment: accepted.environment,
                  pushType: accepted.pushType.rawValue, priority: accepted.priority, collapseID: accepted.collapseID, payload: payload)
    }

    public var json: JSONValue {
        var object: JSONObject = ["id": .string(id), "token": .string(token), "topic": .string(topic),
                                  "environment": .string(environment.rawValue), "pushType": .string(pushType),
                                  "priority": .number(Double(priority)), "payload": .object(payload)]
        object["collapseId"] = collapseID.map(JSONValue.string) ?? .null
        return .object(object)
    }

    /// One line on the device's socket (no newline).
    public var line: String { JSONWriter.string(json) }

    public init?(json: JSONValue) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue, !id.isEmpty,
              let token = object["token"]?.stringValue, APNsDeviceToken.isWellFormed(token),
              let topic = object["topic"]?.stringValue,
              let environment = object["environment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)),
              let payload = object["payload"]?.objectValue else { return nil }
        let collapse = object["collapseId"]
        guard collapse == nil || collapse == .null || collapse?.stringValue != nil else { return nil }
        self.init(id: id, token: token, topic: topic, environment: environment, pushType: object["pushType"]?.stringValue ?? "alert",
                  priority: object["priority"]?.integerValue ?? 10, collapseID: collapse?.stringValue, payload: payload)
    }

    public init?(line: String) {
        guard let json = try? JSONParser.parse(line) else { return nil }
        self.init(json: json)
    }
}

/// What a device answers a push with.
public enum PhoneAck: Sendable, Equatable {
    /// The app was in the foreground: its page got `pushNotificationReceived`.
    case foreground
    /// The app was in the background: the push was shown as a notification.
    case background
    /// The app does not run: the push waits in its profile's inbox for the next start.
    case kept
    /// Handed to a device without a page (an emulated native client) that took it.
    case delivered
    /// The device did not take it (why).
    case refused(String)

    public var word: String {
        switch self {
        case .foreground: "foreground"
        case .background: "background"
        case .kept: "kept"
        case .delivered: "delivered"
        case .refused: "refused"
        }
    }

    /// The record line's `delivered`: true when an app got it, "kept" when it waits, false otherwise.
    public var recordValue: JSONValue {
        switch self {
        case .foreground, .background, .delivered: .bool(true)
        case .kept: .string("kept")
        case .refused: .bool(false)
        }
    }

    public var line: String {
        var object: JSONObject = ["ack": .string(word)]
        if case .refused(let why) = self { object["reason"] = .string(why) }
        return JSONWriter.string(.object(object))
    }

    /// Anything unreadable is a refusal that says so.
    public init(line: String) {
        let object = (try? JSONParser.parse(line, maxDepth: 2))?.objectValue
        switch object?["ack"]?.stringValue {
        case "foreground": self = .foreground
        case "background": self = .background
        case "kept": self = .kept
        case "delivered": self = .delivered
        case "refused": self = .refused(object?["reason"]?.stringValue ?? "refused")
        default: self = .refused("the device answered something that is not an acknowledgement")
        }
    }
}

/// Pushes kept for an app that is not running (the profile's `push-inbox.json`), shown at its
/// next start as the system would have shown them. Bounded as a notification centre is; a push
/// with the collapse id of one waiting replaces it. The file is JSON lines, read line by line,
/// so damage costs only the damaged lines.
public struct PhoneInbox: Sendable, Equatable {
    public static let fileName = "push-inbox.json"
    /// Pushes kept at most (the oldest go first).
    public static let limit = 64
    /// The largest file read (64 pushes of 4 KiB and their headers).
    public static let maxFileBytes = 64 * 6 * 1024

    public private(set) var pushes: [PhonePush] = []
    /// Lines that could not be read (skipped).
    public private(set) var damagedLines = 0

    public init() {}

    public init(fileText: String) {
        for line in fileText.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let push = PhonePush(line: String(line)) else { damagedLines += 1; continue }
            keep(push)
        }
    }

    /// Keeps `push`: one with the same collapse id (or the same id) is replaced; past `limit`
    /// the oldest goes.
    public mutating func keep(_ push: PhonePush) {
        pushes.removeAll { $0.id == push.id || (push.collapseID != nil && $0.collapseID == push.collapseID) }
        pushes.append(push)
        if pushes.count > Self.limit { pushes.removeFirst(pushes.count - Self.limit) }
    }

    public var fileText: String { pushes.map { $0.line + "\n" }.joined() }
}

/// A payload file for `xcrun simctl push` (`.apns`): a JSON object with `aps`, optionally naming
/// the app in `Simulator Target Bundle`. What `hostshell push` reads.
public struct SimulatorPushFile: Sendable, Equatable {
    public static let targetKey = "Simulator Target Bundle"
    /// simctl takes what APNs takes: 4096 bytes.
    public static let maxBytes = APNsLimits.payloadBytes

    /// The payload as the app gets it (without `Simulator Target Bundle`).
    public var payload: JSONObject
    public var targetBundle: String?

    public struct Problem: Error, Sendable, Equatable {
        public let message: String
    }

    public init(bytes: [UInt8], name: String = "the payload file") throws(Problem) {
        guard !bytes.isEmpty else { throw Problem(message: "\(name) is empty; it should hold a JSON object with \"aps\", e.g. {\"aps\":{\"alert\":\"Hello\"}}") }
        guard bytes.count <= Self.maxBytes else {
            throw Problem(message: "\(name) is \(bytes.count) bytes; a push payload is at most \(Self.maxBytes) bytes (APNs' PayloadTooLarge)")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes: bytes) } catch {
            throw Problem(message: "\(name) is not JSON (\(error)); it should hold a JSON object with \"aps\"")
        }
        guard var object = value.objectValue else {
            throw Problem(message: "\(name) holds \(value.kindDescription), not a JSON object with \"aps\"")
        }
        guard let aps = object["aps"] else {
            throw Problem(message: "\(name) has no \"aps\" dictionary; simctl and devices need one, e.g. {\"aps\":{\"alert\":\"Hello\"}}")
        }
        guard aps.objectValue != nil else { throw Problem(message: "\(name): \"aps\" is \(aps.kindDescription), not a dictionary") }
        if let target = object[Self.targetKey] {
            guard let bundle = target.stringValue, !bundle.isEmpty else {
                throw Problem(message: "\(name): \"\(Self.targetKey)\" should be the app's bundle id as a string")
            }
            targetBundle = bundle
            object[Self.targetKey] = nil
        }
        payload = object
    }
}

/// How a server hands a push to a device's socket without ever waiting on it: the device has
/// `ackTimeoutMs` to answer; a device whose socket takes no connection or no line at once (its
/// app stopped, its queue full) is answered for at once as not taking pushes.
public enum PhoneDeliveryLimits {
    /// How long a running app has to acknowledge a push.
    public static let ackTimeoutMs: UInt32 = 5000
    /// The longest line a device's answer may be.
    public static let ackLineBytes = 4096
}
