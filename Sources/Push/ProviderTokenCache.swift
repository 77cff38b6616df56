import HostCore

/// A provider token kept on disk between a sender's runs, so a restarted sender (the Hermes
/// gateway, `apns token`) sends the token it already made while that token is valid: Apple
/// refuses a new token for a key more often than every 20 minutes
/// (`TooManyProviderTokenUpdates`), so a sender that made a fresh one at each start would have
/// every push refused after a restart.
///
/// The file holds the compact token and a fingerprint of the key that signed it (the key's
/// public half); the team, key id and issue time are read from the token itself.
public struct ProviderTokenCache: Sendable, Equatable {
    public var token: String
    /// Hex SHA-256 of the signing key's public half (DER): a token is reused only by the key
    /// that made it, never by another key that happens to carry the same id.
    public var keyFingerprint: String

    public init(token: String, keyFingerprint: String) {
        self.token = token; self.keyFingerprint = keyFingerprint
    }

    /// The longest file read back (a token is a few hundred bytes).
    public static let maxFileBytes = 4096

    public var fileText: String {
        JSONWriter.string(["token": .string(token), "key_fingerprint": .string(keyFingerprint)])
    }

    /// Nil for anything damaged: not JSON, a missing member, a token that is not one.
    public init?(fileText: String) {
        guard let object = (try? JSONParser.parse(fileText, maxDepth: 2))?.objectValue,
              let token = object["token"]?.stringValue, ProviderToken(authorization: "bearer " + token) != nil,
              let fingerprint = object["key_fingerprint"]?.stringValue, !fingerprint.isEmpty else { return nil }
        self.init(token: token, keyFingerprint: fingerprint)
    }

    /// The kept token when it may be sent at `now` for this team and key: signed by the same
    /// key (fingerprint), carrying this team and key id, not issued in the future, and younger
    /// than senders keep one (`HermesGateway.providerTokenIsStale`: 50 of Apple's 60 minutes).
    public func reusable(teamID: String, keyID: String, keyFingerprint: String, now: Double) -> String? {
        guard keyFingerprint == self.keyFingerprint, let read = ProviderToken(authorization: "bearer " + token),
              read.teamID == teamID, read.keyID == keyID,
              !HermesGateway.providerTokenIsStale(issuedAt: read.issuedAt, now: now) else { return nil }
        return token
    }

    /// The cache file's name for a team and key id: both kept to letters, digits, `-` and `_`
    /// (anything else becomes `_`), so no id can name a path elsewhere.
    public static func fileName(teamID: String, keyID: String) -> String {
        func safe(_ text: String) -> String {
            String(text.unicodeScalars.prefix(64).map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
                    ? Character(scalar) : "_"
            })
        }
        return safe(teamID) + "." + safe(keyID) + ".json"
    }
}
