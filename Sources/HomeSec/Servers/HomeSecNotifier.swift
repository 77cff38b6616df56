import HostCore

/// An event HomeSec alerts on (its `Alert`): a clip from a camera, what was seen in it.
public struct HomeSecEvent: Sendable, Equatable {
    /// The clip id: the event's id in the app (`/events/<id>`).
    public var clipID: String
    public var camera: String
    public var activityType: String?
    public var riskLevel: String?
    public var summary: String?
    /// Seconds since 1970 (UTC).
    public var time: Double

    public init(clipID: String, camera: String, activityType: String? = nil, riskLevel: String? = nil, summary: String? = nil, time: Double) {
        self.clipID = clipID
        self.camera = camera
        self.activityType = activityType
        self.riskLevel = riskLevel
        self.summary = summary
        self.time = time
    }
}

/// HomeSec's direct APNs notifier (`apns_mobile`, push CONTRACT §2) as pure rules: which devices
/// an event goes to, the request and payload it sends each of them, and what each answer means
/// for the device and for a retry. The fan-out over time is `HomeSecNotifyRun`.
public enum HomeSecNotifier {
    public struct Config: Sendable, Equatable {
        /// `apns-topic`, and the bundle id a device must have registered with.
        public var bundleID: String
        /// "sandbox" or "production": the devices it serves, and the default base URL.
        public var environment: String
        /// Where `/3/device/<token>` is posted, without a trailing slash.
        public var baseURL: String

        public init(bundleID: String, environment: String, baseURL: String? = nil) {
            self.bundleID = bundleID
            self.environment = environment
            var base = baseURL ?? HomeSecNotifier.appleBaseURL(environment)
            while base.hasSuffix("/") { base.removeLast() }
            self.baseURL = base
        }
    }

    public static let category = "HOMESEC_EVENT"
    public static let payloadLimit = 4096
    /// A provider token is signed again after 50 minutes (Apple takes one for an hour).
    public static let providerTokenRefresh: Double = 50 * 60
    /// Reasons that mean the token will never work again, at any status.
    public static let permanentReasons: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"]
    /// The pipeline's retries of a retryable fan-out: 3 attempts in all, 1 s then 2 s apart.
    public static let retryDelays: [Double] = [1, 2]
    public static var attempts: Int { retryDelays.count + 1 }
    /// HomeSec's error when the key id, team id or private key is missing (nothing is sent).
    public static let missingCredentials = "APNs provider credentials missing from environment"

    public static func appleBaseURL(_ environment: String) -> String {
        environment == "sandbox" ? "https://api.sandbox.push.apple.com" : "https://api.push.apple.com"
    }

    /// The devices an event goes to: enabled iOS devices of the configured environment and bundle.
    public static func targets(_ devices: [HomeSecDevices.Device], config: Config) -> [HomeSecDevices.Device] {
        devices.filter { $0.enabled && $0.platform == "ios" && $0.environment == config.environment && $0.bundleId == config.bundleID }
    }

    /// A new provider token is needed: none yet, 50 minutes old, or issued "in the future".
    public static func providerTokenIsStale(issuedAt: Double?, now: Double) -> Bool {
        guard let issuedAt else { return true }
        return now - issuedAt >= providerTokenRefresh || now < issuedAt
    }

    // MARK: payload

    /// The notification's title: `"<camera>: <activity or 'activity'> detected"`.
    public static func title(_ event: HomeSecEvent) -> String {
        "\(event.camera): \(activity(event)) detected"
    }

    static func activity(_ event: HomeSecEvent) -> String {
        let stripped = event.activityType.map { HomeSecValidation.stripped($0) } ?? ""
        return stripped.isEmpty ? "activity" : stripped
    }

    static func risk(_ event: HomeSecEvent) -> String { event.riskLevel ?? "unknown" }

    /// The body: the summary when there is one, else the risk and the time (`3:05 PM`, UTC).
    public static func body(_ event: HomeSecEvent) -> String {
        if let summary = event.summary, !summary.isEmpty { return HomeSecValidation.stripped(summary) }
        let time = clockTime(event.time)
        let risk = risk(event)
        if risk != "unknown" { return "\(capitalized(risk))-risk event at \(time)." }
        return "HomeSec event at \(time)."
    }

    /// `/events/<clip id, every byte but unreserved ones percent-encoded>?from=notification`.
    public static func route(_ event: HomeSecEvent) -> String {
        "/events/" + quoted(event.clipID) + "?from=notification"
    }

    /// The payload as sent: `aps` (alert title and body, default sound, the event category),
    /// then `type`, `event_id`, `camera`, `risk_level`, `activity_type` and `route`. A payload
    /// over 4096 bytes keeps the longest body prefix that fits; nil when even no body does not fit.
    public static func payload(_ event: HomeSecEvent) -> [UInt8]? {
        let body = body(event)
        let full = encode(event, body: body)
        if full.count <= payloadLimit { return full }
        guard encode(event, body: "").count <= payloadLimit else { return nil }
        // Cut by code points, as Python slices a str.
        let scalars = Array(body.unicodeScalars)
        func prefix(_ n: Int) -> String { String(String.UnicodeScalarView(scalars[..<n])) }
        var lower = 0, upper = min(scalars.count, payloadLimit)
        while lower < upper {
            let middle = (lower + upper + 1) / 2
            if encode(event, body: prefix(middle)).count <= payloadLimit { lower = middle } else { upper = middle - 1 }
        }
        return encode(event, body: prefix(lower))
    }

    static func encode(_ event: HomeSecEvent, body: String) -> [UInt8] {
        let aps: JSONValue = ["alert": ["title": .string(title(event)), "body": .string(body)], "sound": "default", "category": .string(category)]
        return JSONWriter.bytes(["aps": aps, "type": "event_alert", "event_id": .string(event.clipID), "camera": .string(event.camera),
                                 "risk_level": .string(risk(event)), "activity_type": .string(activity(event)), "route": .string(route(event))])
    }

    // MARK: request

    /// One POST to APNs, as HomeSec's client sends it.
    public struct Outbound: Sendable, Equatable {
        public var url: String
        public var headers: [Header]
        public var body: [UInt8]
    }

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `POST {base}/3/device/{quoted token}` with the bearer token, topic, push type alert and
    /// priority 10, and nothing else.
    public static func request(config: Config, deviceToken: String, providerToken: String, payload: [UInt8]) -> Outbound {
        Outbound(url: config.baseURL + "/3/device/" + quoted(deviceToken),
                 headers: [Header("authorization", "bearer " + providerToken), Header("apns-topic", config.bundleID),
                           Header("apns-push-type", "alert"), Header("apns-priority", "10")],
                 body: payload)
    }

    // MARK: outcome

    /// What one device's answer means.
    public struct Outcome: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case delivered
            /// The token is gone for good: the device is disabled; never retried.
            case rejected
            /// Anything else, 4xx included, and a transport failure.
            case retryable
        }
        public var kind: Kind
        /// `last_push_error`: nil when delivered, else `HTTP <code>: <reason>` or the transport error's name.
        public var error: String?
        public init(kind: Kind, error: String?) {
            self.kind = kind
            self.error = error
        }
    }

    /// The outcome of an answer (`status`, `body`) or of a transport failure (`status` nil,
    /// `transportError` the failure's name).
    public static func outcome(status: Int?, body: [UInt8], transportError: String? = nil) -> Outcome {
        guard let status else { return Outcome(kind: .retryable, error: transportError ?? "TransportError") }
        if (200..<300).contains(status) { return Outcome(kind: .delivered, error: nil) }
        let reason = reason(body)
        let error = "HTTP \(status): \(reason)"
        if status == 410 || permanentReasons.contains(reason) { return Outcome(kind: .rejected, error: error) }
        return Outcome(kind: .retryable, error: error)
    }

    /// APNs' `reason`, stripped and cut to 200 characters; "unknown" when the body has none.
    public static func reason(_ body: [UInt8]) -> String {
        guard let text = (try? JSONParser.parse(bytes: body, maxDepth: 16))?.objectValue?["reason"]?.stringValue else { return "unknown" }
        let stripped = HomeSecValidation.stripped(text)
        return stripped.isEmpty ? "unknown" : String(stripped.prefix(200))
    }

    // MARK: helpers

    /// Python's `quote(text, safe='')`: every UTF-8 byte but letters, digits and `_.-~` as `%XX`.
    static func quoted(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `%I:%M %p` without a leading zero, in UTC: `3:05 PM`, `12:00 AM`.
    static func clockTime(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let (_, _, _, hour, minute, _) = CivilTime.components(whole)
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "AM" : "PM")"
    }

    /// Python's `str.capitalize` for ASCII: the first letter upper, the rest lower.
    static func capitalized(_ word: String) -> String {
        let bytes = Array(word.utf8).enumerated().map { index, byte -> UInt8 in
            let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
            return index == 0 && lower >= 97 && lower <= 122 ? lower - 32 : lower
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
