import HostCore

/// A device the stand-in knows: the app (bundle id) and environment its token belongs to.
public struct APNsDevice: Sendable, Equatable {
    public var bundleID: String
    public var environment: APNsEnvironment
    public init(bundleID: String, environment: APNsEnvironment) {
        self.bundleID = bundleID
        self.environment = environment
    }

    /// Reads `--device TOKEN=BUNDLE[@sandbox|production]` (sandbox when not said).
    public static func parse(_ text: String) -> Result<(token: String, device: APNsDevice), APNsOptionError> {
        let usage = "--device takes TOKEN=BUNDLE-ID[@sandbox|@production], e.g. \(String(repeating: "ab", count: 32))=com.example.app@sandbox"
        guard let equals = text.firstIndex(of: "=") else { return .failure(APNsOptionError(usage)) }
        let token = String(text[..<equals])
        var bundle = String(text[text.index(after: equals)...])
        var environment = APNsEnvironment.sandbox
        if let at = bundle.lastIndex(of: "@") {
            guard let named = APNsEnvironment(flag: String(bundle[bundle.index(after: at)...])) else { return .failure(APNsOptionError(usage)) }
            environment = named
            bundle = String(bundle[..<at])
        }
        guard APNsDeviceToken.isWellFormed(token) else { return .failure(APNsOptionError("--device \(text): the token is not an even number of hex digits (64 to 200). " + usage)) }
        guard APNsPushType.isWellFormed(topic: bundle) else { return .failure(APNsOptionError("--device \(text): \"\(bundle)\" is not a bundle id. " + usage)) }
        return .success((token.lowercased(), APNsDevice(bundleID: bundle, environment: environment)))
    }
}

/// One request to the provider API, as the glue read it off any HTTP version.
public struct APNsRequest: Sendable {
    public var method: String
    public var path: String
    /// Every header in order, names in lower case (HTTP/2's pseudo-headers left out).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The body went on past `APNsLimits.requestBodyCap` (`body` holds its start): the front
    /// stopped reading it, and the request is answered as Apple answers one too large.
    public var bodyOverLimit = false
    public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.init(method: method, path: path, lowerCaseHeaders: headers.map { header in
            header.name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? (header.name.lowercased(), header.value) : header
        }, body: body)
    }

    /// Headers whose names are in lower case already, as HTTP/2 requires of every request.
    public init(method: String, path: String, lowerCaseHeaders: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.path = path
        self.headers = lowerCaseHeaders
        self.body = body
    }
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// Whether the stand-in reads a header of this (lower-case) name: `authorization` and the
    /// `apns-` ones. A front may leave the others out of a request (HTTP/2 does: a client's
    /// `user-agent` or `accept` would only cost a copy per push).
    public static func readsHeader(named name: UnsafeBufferPointer<UInt8>) -> Bool {
        let apns: StaticString = "apns-", authorization: StaticString = "authorization"
        func starts(with word: StaticString) -> Bool {
            guard name.count >= word.utf8CodeUnitCount else { return false }
            for index in 0..<word.utf8CodeUnitCount where name[index] != word.utf8Start[index] { return false }
            return true
        }
        return name.count > 0 && name[0] == UInt8(ascii: "a") && (starts(with: apns) || (name.count == 13 && starts(with: authorization)))
    }
}

/// A push the stand-in took: what is handed on to the device holding the token.
public struct AcceptedPush: Sendable, Equatable {
    public let token: String
    public let environment: APNsEnvironment
    public let topic: String
    public let bundleID: String
    public let pushType: APNsPushType
    public let priority: Int
    public let collapseID: String?
    public let expiration: Int?
    public let apnsID: String
    public let payload: [UInt8]
    /// Seconds since the epoch when it was taken.
    public let time: Double
}

/// What the stand-in answers one request with.
public struct APNsDecision: Sendable, Equatable {
    public var status: Int
    public var reason: APNsReason?
    public var apnsID: String
    /// Milliseconds since the epoch: when the token stopped being valid (410 only).
    public var timestamp: Int64?
    /// Answer this many milliseconds late (a `slow:` fault).
    public var delayMs: Int = 0
    public var accepted: AcceptedPush?
    /// The fault that decided or slowed this answer, in `--fault`'s words.
    public var fault: String?
    /// Things Apple takes but a developer would want to know (a payload that is not JSON).
    public var warnings: [String] = []
    public var provider: ProviderToken?

    /// The response body: empty for 200, else `{"reason": …}` (and `"timestamp"` for a 410).
    public var body: [UInt8] {
        guard let reason else { return [] }
        var object: JSONObject = ["reason": .string(reason.rawValue)]
        if let timestamp { object["timestamp"] = .number(Double(timestamp)) }
        return JSONWriter.bytes(.object(object))
    }

    /// The response headers: `apns-id` always, a JSON type with a body.
    public var headers: [(name: String, value: String)] {
        reason == nil ? [("apns-id", apnsID)] : [("apns-id", apnsID), ("content-type", "application/json")]
    }
}

/// Apple's provider API as a pure value: one environment's listener state is shared by both
/// (tokens and devices are global), each request decided in Apple's order — method, path,
/// headers seen twice, provider token, topic and push type, priority, ids and dates, device
/// token, payload, the device's app and environment, injected faults — then taken.
public struct APNsStandIn: Sendable {
    public struct Options: Sendable {
        public var teamID: String
        public var keyIDs: Set<String>
        /// Topics (bundle ids) the team may push to; empty: any.
        public var topics: Set<String> = []
        /// Devices known from the start; when any is given, an unknown token is `BadDeviceToken`.
        public var devices: [String: APNsDevice] = [:]
        public var faults: [APNsFault] = []
        public var seed: UInt64 = 0
        public var tokenUpdateInterval = APNsLimits.providerTokenUpdateInterval
        /// How many devices learned from pushes or phones are kept (given ones always are).
        public var learnedDeviceLimit = APNsLimits.learnedDevices
        public init(teamID: String, keyIDs: Set<String>) {
            self.teamID = teamID
            self.keyIDs = keyIDs
        }
    }

    public let options: Options
    /// Milliseconds since the epoch when the stand-in started: the time a token with an
    /// `Unregistered`/`ExpiredToken` fault went.
    public let startedMs: Int64
    private var tokens: ProviderTokenRules
    /// Devices by token (lower-case hex): given ones, and ones learned from their first push.
    public private(set) var devices: [String: APNsDevice]
    /// The learned tokens, oldest first from `learnedStart`: which one to forget at the limit.
    private var learnedOrder: [String] = []
    private var learnedStart = 0
    private var generator: SeededGenerator

    public init(options: Options, now: Double) {
        self.options = options
        startedMs = Int64(now * 1000)
        tokens = ProviderTokenRules(teamID: options.teamID, keyIDs: options.keyIDs, updateInterval: options.tokenUpdateInterval)
        devices = options.devices
        generator = SeededGenerator(seed: options.seed)
    }

    /// A device the stand-in learned of outside a push (a phone here holds the token): its
    /// pushes are then checked against its app and environment as Apple does.
    public mutating func learn(token: String, device: APNsDevice) {
        let key = APNsDeviceToken.lowercased(token)
        guard let known = devices[key] else { return remember(key, device) }
        if known != device { devices[key] = device }
    }

    /// Keeps a device learned now, forgetting the one learned longest ago past the limit.
    private mutating func remember(_ key: String, _ device: APNsDevice) {
        devices[key] = device
        guard options.devices[key] == nil else { return }
        learnedOrder.append(key)
        while learnedOrder.count - learnedStart > max(options.learnedDeviceLimit, 0) {
            let oldest = learnedOrder[learnedStart]
            learnedStart += 1
            devices[oldest] = nil
        }
        // Drop the forgotten head once it is most of the array, so the array stays near the limit.
        if learnedStart > 1024, learnedStart * 2 > learnedOrder.count {
            learnedOrder.removeFirst(learnedStart)
            learnedStart = 0
        }
    }

    /// The headers Apple reads, each at most once: the first of each, and whether any came twice.
    struct CheckedHeaders {
        var authorization, topic, pushType, priority, collapseID, expiration, id: String?
        var duplicated = false

        init(_ headers: [(name: String, value: String)]) {
            for header in headers {
                let value = header.value
                // By length first: most names are then told apart by one comparison.
                switch header.name.utf8.count {
                case 7 where header.name == "apns-id": Self.take(&id, value, &duplicated)
                case 10 where header.name == "apns-topic": Self.take(&topic, value, &duplicated)
                case 13 where header.name == "authorization": Self.take(&authorization, value, &duplicated)
                case 13 where header.name == "apns-priority": Self.take(&priority, value, &duplicated)
                case 14 where header.name == "apns-push-type": Self.take(&pushType, value, &duplicated)
                case 15 where header.name == "apns-expiration": Self.take(&expiration, value, &duplicated)
                case 16 where header.name == "apns-collapse-id": Self.take(&collapseID, value, &duplicated)
                default: continue
                }
            }
        }

        private static func take(_ field: inout String?, _ value: String, _ duplicated: inout Bool) {
            if field == nil { field = value } else { duplicated = true }
        }
    }

    /// Decides one request to `environment`'s listener at `now` (seconds); `entropy` (16 random
    /// bytes) makes the `apns-id` when the request has none.
    public mutating func decide(_ request: APNsRequest, environment: APNsEnvironment, now: Double,
                                signatures: some SignatureCheck, entropy: [UInt8]) -> APNsDecision {
        let checked = CheckedHeaders(request.headers)
        let givenID = checked.id
        let apnsID = givenID.flatMap { Self.isCanonicalUUID($0) ? $0.lowercased() : nil } ?? Self.uuid(entropy)
        var decision = APNsDecision(status: 200, reason: nil, apnsID: apnsID)
        func fail(_ reason: APNsReason, timestamp: Int64? = nil) -> APNsDecision {
            decision.status = reason.status
            decision.reason = reason
            decision.timestamp = reason.isGone ? (timestamp ?? Int64(now * 1000)) : nil
            return decision
        }
        guard request.method == "POST" else { return fail(.methodNotAllowed) }
        guard let token = Self.deviceToken(inPath: request.path) else { return fail(.badPath) }
        guard !token.isEmpty else { return fail(.missingDeviceToken) }
        guard !checked.duplicated else { return fail(.duplicateHeaders) }

        let (tokenProblem, provider) = tokens.check(authorization: checked.authorization, now: now, signatures: signatures)
        decision.provider = provider
        if let tokenProblem { return fail(tokenProblem) }

        guard let topic = checked.topic, !topic.isEmpty else { return fail(.missingTopic) }
        guard APNsPushType.isWellFormed(topic: topic) else { return fail(.badTopic) }
        let typeWord = checked.pushType ?? "alert"
        guard let pushType = APNsPushType(rawValue: typeWord) else { return fail(.invalidPushType) }
        guard let bundleID = pushType.bundleID(ofTopic: topic) else { return fail(.badTopic) }
        guard options.topics.isEmpty || options.topics.contains(bundleID) else { return fail(.topicDisallowed) }
        let priority: Int
        if let word = checked.priority {
            guard let value = Int(word), pushType.allows(priority: value) else { return fail(.badPriority) }
            priority = value
        } else {
            priority = pushType == .background ? 5 : 10
        }
        if givenID != nil, !Self.isCanonicalUUID(givenID!) { return fail(.badMessageId) }
        var expiration: Int?
        if let word = checked.expiration {
            guard !word.isEmpty, word.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(word) else { return fail(.badExpirationDate) }
            expiration = value
        }
        let collapseID = checked.collapseID
        if let collapseID, collapseID.utf8.count > APNsLimits.collapseIDBytes { return fail(.badCollapseId) }
        guard APNsDeviceToken.isWellFormed(token) else { return fail(.badDeviceToken) }
        let device = APNsDeviceToken.lowercased(token)
        guard !request.body.isEmpty || request.bodyOverLimit else { return fail(.payloadEmpty) }
        guard !request.bodyOverLimit, request.body.count <= pushType.payloadLimit else { return fail(.payloadTooLarge) }
        let known = devices[device]
        if let known {
            guard known.environment == environment else { return fail(.badDeviceToken) }
            guard known.bundleID == bundleID else { return fail(.deviceTokenNotForTopic) }
        } else if !options.devices.isEmpty {
            return fail(.badDeviceToken)
        }
        if !JSONParser.isObject(bytes: request.body) {
            decision.warnings.append("the payload is not a JSON object; a device would drop it")
        }

        for fault in options.faults {
            let applies: Bool
            switch fault.target {
            case .token(let hex): applies = hex == device
            case .every: applies = true
            case .random(let share): applies = Double.random(in: 0..<1, using: &generator) < share
            }
            guard applies else { continue }
            switch fault.effect {
            case .delay(let ms):
                decision.delayMs += ms
                decision.fault = (decision.fault.map { $0 + " " } ?? "") + "slow:\(ms)"
            case .answer(let reason):
                decision.fault = (decision.fault.map { $0 + " " } ?? "") + reason.rawValue
                if case .token = fault.target { return fail(reason, timestamp: startedMs) }
                return fail(reason)
            }
        }

        if known == nil { remember(device, APNsDevice(bundleID: bundleID, environment: environment)) }
        decision.accepted = AcceptedPush(token: device, environment: environment, topic: topic, bundleID: bundleID,
                                         pushType: pushType, priority: priority, collapseID: collapseID,
                                         expiration: expiration, apnsID: apnsID, payload: request.body, time: now)
        return decision
    }

    /// The token part of `/3/device/{token}` (maybe empty), or nil for any other path.
    public static func deviceToken(inPath path: String) -> String? {
        let prefix: StaticString = "/3/device/"
        func token(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            let start = prefix.utf8CodeUnitCount
            guard bytes.count >= start else { return nil }
            for index in 0..<start where bytes[index] != prefix.utf8Start[index] { return nil }
            let rest = UnsafeBufferPointer(rebasing: bytes[start...])
            guard !rest.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else { return nil }
            return String(decoding: rest, as: UTF8.self)
        }
        if let found = path.utf8.withContiguousStorageIfAvailable(token) { return found }
        return Array(path.utf8).withUnsafeBufferPointer(token)
    }

    /// 8-4-4-4-12 hex digits.
    public static func isCanonicalUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.utf8.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) } }
    }

    /// A version-4 UUID in lower case from 16 random bytes.
    public static func uuid(_ entropy: [UInt8]) -> String {
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            var at = 0
            for index in 0..<16 {
                var byte = index < entropy.count ? entropy[index] : 0
                if index == 6 { byte = byte & 0x0F | 0x40 }
                if index == 8 { byte = byte & 0x3F | 0x80 }
                if index == 4 || index == 6 || index == 8 || index == 10 { out[at] = UInt8(ascii: "-"); at += 1 }
                out[at] = hex.utf8Start[Int(byte >> 4)]
                out[at + 1] = hex.utf8Start[Int(byte & 0xF)]
                at += 2
            }
            return at
        }
    }
}
