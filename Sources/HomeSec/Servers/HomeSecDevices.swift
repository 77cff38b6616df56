import HostCore

/// HomeSec's registry of iOS devices for push (`/api/v1/mobile/devices`), as its server keeps it:
/// a device is found again by the SHA-256 of its stripped APNs token, so registering the same
/// token updates that record (and answers 201 again) without touching `enabled`; the raw token
/// never leaves the registry (a record shows `token_fingerprint`, the first 12 hex digits of the
/// hash); DELETE only disables; the list shows enabled devices unless `include_disabled`.
public struct HomeSecDevices: Sendable {
    public struct Capabilities: Sendable, Equatable {
        public var deepLinks = true
        public var richNotifications = false
        public init(deepLinks: Bool = true, richNotifications: Bool = false) {
            self.deepLinks = deepLinks
            self.richNotifications = richNotifications
        }
        var json: JSONValue { ["deep_links": .bool(deepLinks), "rich_notifications": .bool(richNotifications)] }
    }

    public struct Device: Sendable, Equatable {
        public var id: String
        public var platform = "ios"
        /// The raw token, kept for a push sender; never in a record.
        public var apnsToken: String
        public var tokenHash: String
        public var environment: String
        public var bundleId: String
        public var deviceName: String?
        public var appVersion: String?
        public var capabilities = Capabilities()
        public var enabled = true
        public var createdAt: Double
        public var updatedAt: Double
        public var lastSeenAt: Double?
        public var lastPushAt: Double?
        public var lastPushError: String?

        /// The public record (HomeSec's `MobileDeviceResponse`).
        public var record: JSONValue {
            ["id": .string(id), "platform": .string(platform), "environment": .string(environment),
             "bundle_id": .string(bundleId), "device_name": deviceName.map(JSONValue.string) ?? .null,
             "app_version": appVersion.map(JSONValue.string) ?? .null, "capabilities": capabilities.json,
             "enabled": .bool(enabled), "token_fingerprint": .string(String(tokenHash.prefix(12))),
             "created_at": .string(HomeSecTime.text(createdAt)), "updated_at": .string(HomeSecTime.text(updatedAt)),
             "last_seen_at": lastSeenAt.map { .string(HomeSecTime.text($0)) } ?? .null,
             "last_push_at": lastPushAt.map { .string(HomeSecTime.text($0)) } ?? .null,
             "last_push_error": lastPushError.map(JSONValue.string) ?? .null]
        }
    }

    public private(set) var devices: [Device] = []

    public init() {}

    public static let environments = ["sandbox", "production"]

    /// The lookup hash of a token: hex SHA-256 of the stripped token's UTF-8.
    public static func tokenHash(_ token: String) -> String {
        SHA256.digest(Array(HomeSecValidation.stripped(token).utf8)).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    /// A new device id as HomeSec makes one: `dev_` and 16 random bytes in base64url.
    public static func deviceId(entropy: [UInt8]) -> String { "dev_" + Base64URL.encode(Array(entropy.prefix(16))) }

    /// `POST /api/v1/mobile/devices`.
    public mutating func register(body: [UInt8], now: Double, entropy: [UInt8]) -> HomeSecAnswer {
        var check = HomeSecValidation()
        guard let object = check.object(body) else { return check.answer }
        let platform = check.literal(object, "platform", ["ios"], default: "ios")
        let token = check.requiredText(object, "apns_token")
        let environment = check.literal(object, "environment", Self.environments)
        let bundleId = check.requiredText(object, "bundle_id")
        let name = check.optionalText(object, "device_name")
        let version = check.optionalText(object, "app_version")
        let capabilities = self.capabilities(object["capabilities"], &check) ?? Capabilities()
        guard check.isEmpty, let platform, let token, let environment, let bundleId else { return check.answer }
        let hash = Self.tokenHash(token)
        var device = Device(id: Self.deviceId(entropy: entropy), platform: platform, apnsToken: token, tokenHash: hash,
                            environment: environment, bundleId: bundleId, createdAt: now, updatedAt: now)
        if let index = devices.firstIndex(where: { $0.tokenHash == hash }) { device = devices[index] }
        device.platform = platform
        device.apnsToken = token
        device.environment = environment
        device.bundleId = bundleId
        if case .set(let value) = name { device.deviceName = value } else { device.deviceName = nil }
        if case .set(let value) = version { device.appVersion = value } else { device.appVersion = nil }
        device.capabilities = capabilities
        device.updatedAt = now
        device.lastSeenAt = now
        if let index = devices.firstIndex(where: { $0.tokenHash == hash }) { devices[index] = device } else { devices.append(device) }
        return .json(201, device.record)
    }

    /// `GET /api/v1/mobile/devices[?include_disabled=…]`: newest update first, then by id.
    public func list(query: [FormEncoding.Item]) -> HomeSecAnswer {
        var includeDisabled = false
        if let raw = query.last(where: { $0.name == "include_disabled" })?.value {
            guard let flag = HomeSecValidation.laxBool(raw) else {
                var check = HomeSecValidation()
                check.fail("bool_parsing", ["query", "include_disabled"], "Input should be a valid boolean, unable to interpret input",
                           input: .string(raw))
                return check.answer
            }
            includeDisabled = flag
        }
        let shown = devices.filter { includeDisabled || $0.enabled }.sorted { a, b in
            a.updatedAt != b.updatedAt ? a.updatedAt > b.updatedAt : Array(a.id.utf8).lexicographicallyPrecedes(Array(b.id.utf8))
        }
        return .json(200, .array(shown.map(\.record)))
    }

    /// `PATCH /api/v1/mobile/devices/{id}`: device_name, app_version, enabled, capabilities;
    /// a null `enabled` or `capabilities` changes nothing.
    public mutating func update(id: String, body: [UInt8], now: Double) -> HomeSecAnswer {
        var check = HomeSecValidation()
        guard let object = check.object(body) else { return check.answer }
        let name = check.optionalText(object, "device_name")
        let version = check.optionalText(object, "app_version")
        var enabled: Bool?
        if let value = object["enabled"], !value.isNull { enabled = check.bool(value, at: ["body", "enabled"]) }
        let capabilities = self.capabilities(object["capabilities"], &check)
        guard check.isEmpty else { return check.answer }
        guard let index = devices.firstIndex(where: { $0.id.isExactly(id) }) else { return Self.notFound }
        var changed = false
        if case .set(let value) = name { devices[index].deviceName = value; changed = true }
        if case .set(let value) = version { devices[index].appVersion = value; changed = true }
        if let enabled { devices[index].enabled = enabled; changed = true }
        if let capabilities { devices[index].capabilities = capabilities; changed = true }
        if changed { devices[index].updatedAt = now }
        return .json(200, devices[index].record)
    }

    /// `DELETE /api/v1/mobile/devices/{id}`: the device is disabled, not forgotten.
    public mutating func disable(id: String, now: Double) -> HomeSecAnswer {
        guard let index = devices.firstIndex(where: { $0.id.isExactly(id) }) else { return Self.notFound }
        devices[index].enabled = false
        devices[index].updatedAt = now
        return .json(200, devices[index].record)
    }

    /// One push attempt's result on a device (HomeSec's `record_push_result`): when it was
    /// sent, and its error (nil on success). Nothing else of the record changes.
    public mutating func recordPush(id: String, error: String?, at time: Double) {
        guard let index = devices.firstIndex(where: { $0.id.isExactly(id) }) else { return }
        devices[index].lastPushAt = time
        devices[index].lastPushError = error
    }

    static let notFound = HomeSecAnswer.json(404, ["detail": "Mobile device not found", "error_code": "MOBILE_DEVICE_NOT_FOUND"])

    /// `capabilities`: absent or null → nil; an object → its flags over the defaults.
    private func capabilities(_ value: JSONValue?, _ check: inout HomeSecValidation) -> Capabilities? {
        guard let value, !value.isNull else { return nil }
        guard let object = value.objectValue else {
            check.fail("model_attributes_type", ["body", "capabilities"],
                       "Input should be a valid dictionary or object to extract fields from", input: value)
            return nil
        }
        var result = Capabilities()
        if let flag = object["deep_links"] { result.deepLinks = check.bool(flag, at: ["body", "capabilities", "deep_links"]) ?? true }
        if let flag = object["rich_notifications"] {
            result.richNotifications = check.bool(flag, at: ["body", "capabilities", "rich_notifications"]) ?? false
        }
        return result
    }
}

/// Times as HomeSec's API writes them (pydantic's UTC datetimes): `2026-12-01T18:29:19.123456Z`,
/// the fraction only when there is one.
public enum HomeSecTime {
    public static func text(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let micros = Int(((seconds - Double(whole)) * 1_000_000).rounded())
        let (year, month, day, hour, minute, second) = CivilTime.components(whole + micros / 1_000_000)
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let fraction = micros % 1_000_000 == 0 ? "" : "." + pad(micros % 1_000_000, 6)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))\(fraction)Z"
    }
}
