import HostCore

/// Studio's records in the bridge log.
extension BridgeLog {
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
