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

    /// A message Studio posted (its raw text, parsed when it is JSON) and the reply it got.
    public static func inbound(at time: Double, context: HostContext, text: String, reply: Reply, latencyMicroseconds: Double) -> String {
        let message = loggedMessage(text)
        return line(["t": .number(time), "dir": "studio-to-host", "context": .string(context.rawValue), "message": message,
                     "reply": redact(reply.json), "latencyUs": .number((latencyMicroseconds * 10).rounded() / 10)])
    }

    /// A message the host sent, and whether a subscriber took it.
    public static func outbound(at time: Double, context: HostContext, message: HostMessage, accepted: Bool, latencyMicroseconds: Double) -> String {
        line(["t": .number(time), "dir": "host-to-studio", "context": .string(context.rawValue),
              "message": loggedMessage(message.envelope.json), "accepted": .bool(accepted),
              "latencyUs": .number((latencyMicroseconds * 10).rounded() / 10)])
    }

    private static func line(_ object: JSONObject) -> String { JSONWriter.string(.object(object)) }

    /// The value with every credential-like part replaced.
    public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            return SharePolicy.containsCredentialMarker(text) ? .string(redacted) : value
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
}

/// One Studio-to-host message of a bridge log, to send again (`hostshell replay LOG`).
public struct ReplayRecord: Sendable, Equatable {
    /// The log's line number (from 1), for reports.
    public var line: Int
    public var context: HostContext
    public var message: JSONValue
    /// The reply the host gave then.
    public var reply: JSONValue
    /// The log hid part of the message or reply: the answer may differ for that reason alone.
    public var redacted: Bool

    /// The Studio-to-host records of a bridge log, in order. Host-to-Studio records are not
    /// replayed (the host sends those itself); any line that is not a bridge log record is an
    /// error naming the line.
    public static func parse(_ text: String) -> Result<[ReplayRecord], ControlError> {
        var records: [ReplayRecord] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !raw.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            guard let object = (try? JSONParser.parse(String(raw), maxDepth: 24))?.objectValue,
                  let direction = object["dir"]?.stringValue, let contextName = object["context"]?.stringValue else {
                return .failure(ControlError("line \(index + 1) is not a bridge log record (one JSON object with \"dir\" and \"context\", as open --bridge-log writes)"))
            }
            guard direction == "studio-to-host" else { continue }
            guard let context = HostContext(rawValue: contextName), let message = object["message"], let reply = object["reply"] else {
                return .failure(ControlError("line \(index + 1): a studio-to-host record needs a known \"context\", a \"message\" and its \"reply\""))
            }
            let hidden = [message, reply].contains { JSONWriter.string($0).contains(BridgeLog.redacted) || JSONWriter.string($0).contains(BridgeLog.shortenedMark) }
            records.append(ReplayRecord(line: index + 1, context: context, message: message, reply: reply, redacted: hidden))
        }
        return .success(records)
    }
}
