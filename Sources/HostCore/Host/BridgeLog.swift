/// The bridge event log (`open --bridge-log FILE`): one JSON line per message in either direction,
/// with its time, the page context, the reply or delivery, and the latency. Credential-like values
/// never reach the log: strings carrying a Tilecast credential marker, and values under
/// credential-named keys, are replaced by "[redacted]".
public enum BridgeLog {
    public static let redacted = "[redacted]"

    /// Keys whose values are secrets wherever they appear. (The share rule's wider list also
    /// names `code` and `sig`, which in the bridge's own messages are an error code and nothing
    /// secret; a credential inside such a value is still caught by its marker.)
    static let secretKeys: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "password", "passwd", "secret", "client_secret",
        "api_key", "apikey", "x-api-key", "authorization", "credential", "credentials", "bearer", "code_verifier",
        "session", "sessionid", "session_id", "csrf", "csrf_token",
    ]
    static let longestSecretKey = secretKeys.map(\.utf8.count).max() ?? 0

    /// How much of a message that is not JSON the log keeps, in Unicode scalars (so at most
    /// four times as many bytes; a count of `Character`s has no bound in bytes).
    public static let rawTextScalars = 512

    /// Whether a member named `key` holds a secret: the key is one of `secretKeys` in any ASCII
    /// case (CONTRACT.md §5). KELVIN SIGN (U+212A), the one scalar outside ASCII whose
    /// lowercase is a letter of these keys, counts as `k`, as Swift's `lowercased()` had it:
    /// the log hides at least what it hid before. A key with any other non-ASCII scalar is none
    /// of them (a mark after a letter makes another name, as in the share rule).
    static func isSecretKey(_ key: String) -> Bool {
        guard key.utf8.count <= 3 * longestSecretKey else { return false }  // U+212A is 3 bytes
        var folded = String.UnicodeScalarView()
        for scalar in key.unicodeScalars {
            if scalar.isASCII {
                folded.append(Unicode.Scalar(ScalarText.foldASCII(UInt8(scalar.value))))
            } else if scalar.value == 0x212A {
                folded.append("k")
            } else {
                return false
            }
        }
        return secretKeys.contains(String(folded))
    }

    /// The value with every credential-like part replaced.
    public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            return CredentialMarkers.contained(in: text) ? .string(redacted) : value
        case .array(let items):
            return .array(items.map(redact))
        case .object(let object):
            var out = JSONObject(capacity: object.count)
            for member in object.members {
                let sensitive = isSecretKey(member.key)
                out.appendUnique(member.key, sensitive ? .string(redacted) : redact(member.value))
            }
            return .object(out)
        default:
            return value
        }
    }
    /// One record as its JSON line.
    public static func line(_ object: JSONObject) -> String { JSONWriter.string(.object(object)) }
}
