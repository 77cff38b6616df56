import HostCore

/// An APNs provider token: a compact JWS with header `{"alg":"ES256","kid":…}` and claims
/// `{"iss":<team id>,"iat":<seconds>}`, signed with the team's P-256 key (push CONTRACT §1).
/// Parsing is pure; whether the signature is right is asked of a `SignatureCheck` (OpenSSL in
/// the glue).
public struct ProviderToken: Sendable, Equatable {
    public let keyID: String
    public let teamID: String
    public let issuedAt: Double
    /// `base64url(header) + "." + base64url(claims)`: the bytes the signature covers.
    public let signingInput: [UInt8]
    /// The raw 64-byte signature, r‖s.
    public let signature: [UInt8]
    /// The compact text, as sent: the identity of this token for the update rule.
    public let compact: String

    /// Reads `authorization`'s value: `bearer <JWT>` (the scheme in any case). Nil for anything
    /// that is not a well-formed ES256 provider token.
    public init?(authorization: String) {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let compact = parts[1].withoutSpacesAround
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let headerBytes = Base64URL.decode(segments[0]), let claimBytes = Base64URL.decode(segments[1]),
              let signature = Base64URL.decode(segments[2]), signature.count == 64,
              let header = (try? JSONParser.parse(bytes: headerBytes))?.objectValue,
              let claims = (try? JSONParser.parse(bytes: claimBytes))?.objectValue,
              header["alg"]?.stringValue == "ES256",
              let keyID = header["kid"]?.stringValue, !keyID.isEmpty,
              let teamID = claims["iss"]?.stringValue, !teamID.isEmpty,
              let issuedAt = claims["iat"]?.numberValue, issuedAt.isFinite, issuedAt >= 0
        else { return nil }
        if let type = header["typ"], type.stringValue != "JWT" { return nil }
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.signingInput = Array(compact.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        self.signature = signature
        self.compact = compact
    }
}

/// Asks whether `signature` (raw r‖s) is a valid ES256 signature of `input` by key `keyID`.
/// False for a key it does not hold.
public protocol SignatureCheck {
    func verify(keyID: String, input: [UInt8], signature: [UInt8]) -> Bool
}

/// Apple's rules for provider tokens over time: each key's tokens, when each was first seen,
/// and which new ones come too soon.
public struct ProviderTokenRules: Sendable {
    public let teamID: String
    public let keyIDs: Set<String>
    /// 0 turns the update rule off.
    public var updateInterval: Double
    /// Per key: the tokens accepted and still valid, with the time each was first seen.
    private var seen: [String: [(token: String, issuedAt: Double, firstSeen: Double)]] = [:]
    /// Authorization values whose token was read and whose signature, key and team checked out:
    /// Apple checks a token once per key, so a value seen again skips parsing and ES256 (its
    /// age and the update rule are still checked every time). Dropped once expired.
    private var verified: [String: ProviderToken] = [:]
    /// The last value taken, and its token: a provider sends one value for up to an hour, so
    /// the next request is usually the same string — compared, not hashed.
    private var last: (authorization: String, token: ProviderToken)?
    /// The most tokens kept verified at once; past it the expired ones go, then all.
    public static let verifiedCap = 256

    public init(teamID: String, keyIDs: Set<String>, updateInterval: Double = APNsLimits.providerTokenUpdateInterval) {
        self.teamID = teamID
        self.keyIDs = keyIDs
        self.updateInterval = updateInterval
    }

    /// Nil when `authorization` is a token Apple would take now; else the reason it would not.
    /// A token is checked for shape, key, team, signature, then age, then how soon it follows
    /// the key's last new token.
    public mutating func check(authorization: String?, now: Double, signatures: some SignatureCheck) -> (APNsReason?, ProviderToken?) {
        guard let authorization else { return (.missingProviderToken, nil) }
        let token: ProviderToken
        if let last, last.authorization == authorization {
            token = last.token
        } else if let known = verified[authorization] {
            token = known
            last = (authorization, known)
        } else {
            guard !authorization.withoutSpacesAround.isEmpty else { return (.missingProviderToken, nil) }
            guard let read = ProviderToken(authorization: authorization) else { return (.invalidProviderToken, nil) }
            guard keyIDs.contains(read.keyID), read.teamID == teamID,
                  signatures.verify(keyID: read.keyID, input: read.signingInput, signature: read.signature)
            else { return (.invalidProviderToken, read) }
            token = read
            remember(authorization, token, now: now)
        }
        if token.issuedAt > now + APNsLimits.providerTokenClockSkew { return (.invalidProviderToken, token) }
        if now - token.issuedAt > APNsLimits.providerTokenLifetime {
            verified[authorization] = nil
            last = nil
            return (.expiredProviderToken, token)
        }
        // A token already taken for this key (its age was just checked): nothing to update.
        if seen[token.keyID]?.contains(where: { $0.token == token.compact }) == true { return (nil, token) }
        var tokens = seen[token.keyID, default: []].filter { now - $0.issuedAt <= APNsLimits.providerTokenLifetime }
        defer { seen[token.keyID] = tokens }
        if updateInterval > 0, let newest = tokens.map(\.firstSeen).max(), now - newest < updateInterval {
            return (.tooManyProviderTokenUpdates, token)
        }
        tokens.append((token.compact, token.issuedAt, now))
        return (nil, token)
    }

    /// How many authorization values are held verified (for tests and the bench).
    public var verifiedCount: Int { verified.count }

    private mutating func remember(_ authorization: String, _ token: ProviderToken, now: Double) {
        if verified.count >= Self.verifiedCap {
            verified = verified.filter { now - $0.value.issuedAt <= APNsLimits.providerTokenLifetime }
            if verified.count >= Self.verifiedCap { verified = [:] }
        }
        verified[authorization] = token
    }
}

extension Base64URL {
    /// Decodes base64url without padding (padding `=` is tolerated at the end); nil for any
    /// other character or an impossible length.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { padding += 1; continue }
            guard padding == 0 else { return nil }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - 48 + 52)
            case UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1, padding <= 2 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var bits: UInt32 = 0
            for (offset, value) in chunk.enumerated() { bits |= UInt32(value) << UInt32(18 - 6 * offset) }
            for offset in 0..<(chunk.count - 1) { out.append(UInt8(truncatingIfNeeded: bits >> UInt32(16 - 8 * offset))) }
            index += 4
        }
        return out
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var withoutSpacesAround: String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
