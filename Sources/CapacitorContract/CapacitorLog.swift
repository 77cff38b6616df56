import HostCore

/// A Capacitor page's records for the bridge log and the event stream (`--bridge-log`, `ctl
/// events`): one JSON line per message, credentials redacted as in the Studio bridge's log.
/// `contract` is `capacitor`, so a reader (and `replay`) can tell them from Studio's.
public enum CapacitorLog {
    /// A message the page posted and the results answered at once.
    public static func inbound(at time: Double, text: String, results: [CapacitorResult], latencyMicroseconds: Double,
                               secrets: CapacitorSecrets = .none) -> String {
        let message = (try? JSONParser.parse(text)).map { redactCall($0, secrets) } ?? .string(String(String.UnicodeScalarView(text.unicodeScalars.prefix(BridgeLog.rawTextScalars))))
        return line(["t": .number(time), "contract": "capacitor", "dir": "page-to-host", "message": message,
                     "results": .array(results.map { redact($0, secrets) }),
                     "latencyUs": .number((latencyMicroseconds * 10).rounded() / 10)])
    }

    /// A result sent later (a host request answered, a listener's event).
    public static func outbound(at time: Double, result: CapacitorResult, secrets: CapacitorSecrets = .none) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": "host-to-page", "result": redact(result, secrets)])
    }


    /// `object[key]["value"]` replaced, when it holds something.
    private static func hidingValue(in object: JSONObject, under key: String) -> JSONObject {
        guard var inner = object[key]?.objectValue, let value = inner["value"], value != .null else { return object }
        inner["value"] = .string(BridgeLog.redacted)
        var out = object
        out[key] = .object(inner)
        return out
    }

    /// A call as the page posted it, redacted.
    static func redactCall(_ message: JSONValue, _ secrets: CapacitorSecrets) -> JSONValue {
        guard let object = message.objectValue,
              secrets.covers(plugin: object["pluginId"]?.stringValue, method: object["methodName"]?.stringValue) else { return BridgeLog.redact(message) }
        return BridgeLog.redact(.object(hidingValue(in: object, under: "options")))
    }

    /// A result, redacted.
    static func redact(_ result: CapacitorResult, _ secrets: CapacitorSecrets) -> JSONValue {
        guard secrets.covers(plugin: result.pluginId, method: result.methodName), let object = result.json.objectValue else { return BridgeLog.redact(result.json) }
        return BridgeLog.redact(.object(hidingValue(in: object, under: "data")))
    }

    /// The page's console output.
    public static func console(at time: Double, level: String, message: String) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": "console", "level": .string(level), "message": BridgeLog.redact(.string(message))])
    }

    /// A script error the page reported, a message refused, or a plugin's note.
    public static func note(at time: Double, kind: String, text: String) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": .string(kind), "message": .string(text)])
    }

    /// A permission question answered (`PermissionCenter.onAnswered`): a replay gives the same
    /// answer when the question comes again.
    public static func permission(at time: Double, kinds: [String], granted: Bool, byApp: Bool) -> String {
        line(["t": .number(time), "contract": "capacitor", "dir": "permission", "kinds": .array(kinds.map(JSONValue.string)),
              "granted": .bool(granted), "byApp": .bool(byApp)])
    }

    private static func line(_ object: JSONObject) -> String { JSONWriter.string(.object(object)) }
}

/// Which plugin methods carry a secret in their `value` (`CapacitorPlugin.secretValueMethods`:
/// HomeSecAuth's API token, whose name says nothing a key-name rule could catch).
public struct CapacitorSecrets: Sendable, Equatable {
    private let methods: Set<String>
    public static let none = CapacitorSecrets(plugins: [])

    public init(plugins: [any CapacitorPlugin.Type]) {
        methods = Set(plugins.flatMap { plugin in plugin.secretValueMethods.map { plugin.name + "." + $0 } })
    }

    public func covers(plugin: String?, method: String?) -> Bool {
        guard let plugin, let method else { return false }
        return methods.contains(plugin + "." + method)
    }
}
