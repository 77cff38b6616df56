import HostCore

/// An APNs device token as the app sees it: 32 bytes, reported as 64 upper-case hex digits
/// (capacitor-shell CONTRACT §4, `registration {value}`).
public struct PushToken: Sendable, Equatable, Hashable, CustomStringConvertible {
    public static let byteCount = 32
    public let bytes: [UInt8]

    /// Nil unless exactly `byteCount` bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// Reads 64 hex digits, either case; nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == Self.byteCount * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// A new token from `generator` (the system's random source in the app).
    public static func random(using generator: inout some RandomNumberGenerator) -> PushToken {
        PushToken(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })!
    }

    /// The 64 upper-case hex digits.
    public var hex: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { hex }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// What an app profile's push registration is, kept in the profile's `push.json` so that the
/// push side (issue 14) can find the app a token belongs to: the token, the bundle id and the
/// APNs environment it was issued for.
public struct PushRecord: Sendable, Equatable {
    public var token: PushToken
    public var bundleId: String?
    public var environment: APNsEnvironment

    public init(token: PushToken, bundleId: String?, environment: APNsEnvironment) {
        self.token = token; self.bundleId = bundleId; self.environment = environment
    }

    /// The file's name in the app profile's data directory.
    public static let fileName = "push.json"
    /// Largest file read; a record is a few hundred bytes.
    public static let maxFileBytes = 4096

    /// `{"token": "<64 upper-case hex>", "bundleId": "…"|null, "environment": "sandbox"|"production"}`.
    public var fileText: String {
        JSONWriter.string(["token": .string(token.hex),
                           "bundleId": bundleId.map(JSONValue.string) ?? .null,
                           "environment": .string(environment.rawValue)])
    }

    /// Reads the file; nil when it is damaged (no token of 32 bytes, an unknown environment):
    /// the app then gets a new token, as a reinstalled app would.
    /// What is wrong with a record file's bytes, or nil when they are a record.
    public static func fileProblem(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "it is not UTF-8 text" }
        return PushRecord(fileText: text) == nil ? "it is not a push registration (token, environment, bundleId)" : nil
    }

    public init?(fileText: String) {
        guard let object = (try? JSONParser.parse(fileText, maxDepth: 2))?.objectValue,
              let hex = object["token"]?.stringValue, let token = PushToken(hex: hex),
              let environment = object["environment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)) else { return nil }
        let bundle = object["bundleId"]
        guard bundle == nil || bundle == .null || bundle?.stringValue != nil else { return nil }
        self.init(token: token, bundleId: bundle?.stringValue, environment: environment)
    }
}
