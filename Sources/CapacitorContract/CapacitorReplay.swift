import HostCore

/// What a bridge log holds, told from its first record: Studio's (`open --bridge-log`, records
/// with a `context`) or a Capacitor app's (`capacitor --bridge-log`, records marked
/// `"contract": "capacitor"`). `hostshell replay` replays each kind against its own app.
public enum BridgeLogKind: String, Sendable, Equatable {
    case studio, capacitor

    public static func detect(_ text: String) -> Result<BridgeLogKind, ControlError> {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !raw.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            guard let object = (try? JSONParser.parse(String(raw), maxDepth: 24))?.objectValue, object["dir"]?.stringValue != nil else {
                return .failure(ControlError("line \(index + 1) is not a bridge log record (one JSON object with \"dir\", as --bridge-log writes)"))
            }
            if object["contract"]?.stringValue == "capacitor" { return .success(.capacitor) }
            return .success(.studio)
        }
        return .failure(ControlError("the log is empty: record one with open --bridge-log FILE or capacitor --bridge-log FILE"))
    }
}

/// One plugin call of a Capacitor bridge log, to make again, with what the host answered then.
public struct CapacitorReplayCall: Sendable, Equatable {
    /// The log's line number (from 1), for reports.
    public var line: Int
    /// The message the page posted (`{type: "message", callbackId, pluginId, methodName, options}`).
    public var message: JSONObject
    public var callbackId: String
    public var pluginId: String
    public var methodName: String
    /// The results the host sent on its callback id, at once or later, in order (not events).
    public var answers: [JSONValue]
    /// Listener events the host sent on its callback id (`save: true`): they follow what the
    /// host did then (lifecycle, links, pushes), so they are counted, not compared.
    public var events: Int
    /// The log hid part of the message or an answer: the answer may differ for that reason alone.
    public var redacted: Bool

    public var name: String { "\(pluginId).\(methodName)" }

    /// The plugin calls of a Capacitor bridge log, in order, each with the results recorded on
    /// its callback id. Console output, script errors, refusals and notes are not calls; any
    /// line that is not a Capacitor log record is an error naming the line.
    public static func parse(_ text: String) -> Result<[CapacitorReplayCall], ControlError> {
        var calls: [CapacitorReplayCall] = []
        var latest: [String: Int] = [:]  // callback id → index of the latest call that used it
        // A host request answered while its message is handled is sent (and logged) before
        // the message's own record is written: such results wait here for their call.
        var early: [String: [JSONValue]] = [:]
        func attribute(_ result: JSONValue, to index: Int) {
            if result.objectValue?["save"] == .bool(true) { calls[index].events += 1 } else { calls[index].answers.append(result) }
            if hides(result) { calls[index].redacted = true }
        }
        func attribute(_ result: JSONValue) {
            guard let id = result.objectValue?["callbackId"]?.stringValue, id != CapacitorCall.nobodyWaits else { return }
            if let index = latest[id] { attribute(result, to: index) } else { early[id, default: []].append(result) }
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !raw.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            guard let object = (try? JSONParser.parse(String(raw), maxDepth: 24))?.objectValue,
                  object["contract"]?.stringValue == "capacitor", let direction = object["dir"]?.stringValue else {
                return .failure(ControlError("line \(index + 1) is not a Capacitor bridge log record (one JSON object with \"contract\": \"capacitor\", as capacitor --bridge-log writes)"))
            }
            switch direction {
            case "page-to-host":
                if let message = object["message"]?.objectValue, message["type"]?.stringValue == "message",
                   let id = message["callbackId"]?.stringValue, let plugin = message["pluginId"]?.stringValue,
                   let method = message["methodName"]?.stringValue, plugin != "Console" {
                    calls.append(CapacitorReplayCall(line: index + 1, message: message, callbackId: id, pluginId: plugin, methodName: method,
                                                     answers: [], events: 0, redacted: hides(.object(message))))
                    if id != CapacitorCall.nobodyWaits {
                        latest[id] = calls.count - 1
                        for result in early.removeValue(forKey: id) ?? [] { attribute(result, to: calls.count - 1) }
                    }
                }
                for result in object["results"]?.arrayValue ?? [] { attribute(result) }
            case "host-to-page":
                if let result = object["result"] { attribute(result) }
            default:
                continue  // console, js.error, refused, note
            }
        }
        return .success(calls)
    }

    static func hides(_ value: JSONValue) -> Bool {
        let text = JSONWriter.string(value)
        return text.contains(BridgeLog.redacted) || text.contains(BridgeLog.shortenedMark)
    }
}

/// A permission question the recorded session answered (a `"dir": "permission"` record): its
/// kinds, the answer, and whether it was the app's own question.
public struct CapacitorReplayPermission: Sendable, Equatable {
    public var kinds: [String]
    public var granted: Bool
    public var byApp: Bool

    public init(kinds: [String], granted: Bool, byApp: Bool) {
        self.kinds = kinds
        self.granted = granted
        self.byApp = byApp
    }

    /// The answers of a Capacitor bridge log, in order (other records are not answers).
    public static func parse(_ text: String) -> [CapacitorReplayPermission] {
        text.split(separator: "\n").compactMap { raw in
            guard raw.contains("\"permission\""), let object = (try? JSONParser.parse(String(raw), maxDepth: 24))?.objectValue,
                  object["contract"]?.stringValue == "capacitor", object["dir"]?.stringValue == "permission",
                  let kinds = object["kinds"]?.arrayValue?.compactMap(\.stringValue), let granted = object["granted"]?.boolValue else { return nil }
            return CapacitorReplayPermission(kinds: kinds.sorted(), granted: granted, byApp: object["byApp"]?.boolValue ?? false)
        }
    }
}
