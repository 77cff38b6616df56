import HostCore

/// Capacitor's wire protocol as its iOS shell speaks it (contract §2): what the page posts to the
/// `bridge` handler, and what the shell hands back to `window.Capacitor.fromNative`.

/// One plugin call from the page: `{type: "message", callbackId, pluginId, methodName, options}`.
public struct CapacitorCall: Sendable, Equatable {
    /// The page's id for the answer: a string, `"-1"` when nothing waits for one.
    public var callbackId: String
    public var pluginId: String
    public var methodName: String
    public var options: JSONObject
    /// Which document of the page made the call (set by `CapacitorBridge`; a result for an older
    /// document is never sent).
    public var document: Int

    public static let nobodyWaits = "-1"

    public init(callbackId: String, pluginId: String, methodName: String, options: JSONObject = [:], document: Int = 0) {
        self.callbackId = callbackId; self.pluginId = pluginId; self.methodName = methodName
        self.options = options; self.document = document
    }

    /// True when the page keeps a callback for this call.
    public var waits: Bool { callbackId != Self.nobodyWaits }

    /// A string option, nil when missing or not a string.
    public func string(_ key: String) -> String? { options[key]?.stringValue }
    public func bool(_ key: String) -> Bool? { options[key]?.boolValue }
}

/// Everything the page may post.
public enum CapacitorInbound: Sendable, Equatable {
    case call(CapacitorCall)
    /// `Console.log` from the runtime's console forwarding.
    case console(level: String, message: String)
    /// `{type: "js.error", error: {message, url, line, col, errorObject}}`.
    case jsError(message: String, url: String?, line: Int?, column: Int?)
}

/// A message the shell could not read, and why (logged). When the call in it could still be
/// told — its callback id, plugin and method at the top of the message — it is `call`, and the
/// page's promise is rejected with the reason instead of waiting for good.
public struct CapacitorWireError: Error, Sendable, Equatable {
    public var reason: String
    public var call: CapacitorCall?
    public init(_ reason: String, call: CapacitorCall? = nil) { self.reason = reason; self.call = call }
}

public enum CapacitorWire {
    /// The longest message read, in UTF-8 bytes (the Studio bridge's limit).
    public static let maxMessageBytes = BridgeMessageSize.maxBytes
    /// Deepest nesting of a message's options.
    public static let maxDepth = 64
    /// The longest callback id, plugin or method name accepted.
    public static let maxNameBytes = 256

    /// Reads one message's JSON text.
    public static func decode(_ text: String) -> Result<CapacitorInbound, CapacitorWireError> {
        let bytes = text.utf8.count
        guard bytes <= maxMessageBytes else {
            return .failure(CapacitorWireError("the message is \(bytes) bytes; at most \(maxMessageBytes) are accepted"))
        }
        let value: JSONValue
        do { value = try JSONParser.parse(text, maxDepth: maxDepth) } catch {
            return .failure(CapacitorWireError("not JSON: \(error)", call: shallowCall(text)))
        }
        guard let object = value.objectValue else {
            return .failure(CapacitorWireError("a message is an object, not \(value.kindDescription)"))
        }
        switch object["type"]?.stringValue {
        case "message": return decodeCall(object)
        case "js.error":
            let error = object["error"]?.objectValue ?? [:]
            return .success(.jsError(message: error["message"]?.stringValue ?? "", url: error["url"]?.stringValue,
                                     line: error["line"]?.integerValue, column: error["col"]?.integerValue))
        case let other?: return .failure(CapacitorWireError("unknown message type \"\(other)\""))
        case nil: return .failure(CapacitorWireError("\"type\" is required: message or js.error"))
        }
    }

    /// The call of a message that could not be parsed whole (options nested past `maxDepth`),
    /// read from the message's top level; nil unless it names all three and is a plugin call.
    static func shallowCall(_ text: String) -> CapacitorCall? {
        let keys: Set<String> = ["type", "callbackId", "pluginId", "methodName"]
        guard let top = JSONShallow.topLevelStrings(text, keys: keys), top["type"] == "message",
              let callbackId = top["callbackId"], let plugin = top["pluginId"], let method = top["methodName"],
              [callbackId, plugin, method].allSatisfy({ !$0.isEmpty && $0.utf8.count <= maxNameBytes }) else { return nil }
        return CapacitorCall(callbackId: callbackId, pluginId: plugin, methodName: method)
    }

    private static func decodeCall(_ object: JSONObject) -> Result<CapacitorInbound, CapacitorWireError> {
        func name(_ key: String) -> Result<String, CapacitorWireError> {
            guard let text = object[key]?.stringValue, !text.isEmpty else {
                return .failure(CapacitorWireError("\"\(key)\" is required (a non-empty string)"))
            }
            guard text.utf8.count <= maxNameBytes else { return .failure(CapacitorWireError("\"\(key)\" is longer than \(maxNameBytes) bytes")) }
            return .success(text)
        }
        let options: JSONObject
        switch object["options"] {
        case nil, .null?: options = [:]
        case .object(let o)?: options = o
        case let other?: return .failure(CapacitorWireError("\"options\" is an object, not \(other.kindDescription)"))
        }
        let plugin: String, method: String
        switch name("pluginId") { case .success(let s): plugin = s; case .failure(let e): return .failure(e) }
        switch name("methodName") { case .success(let s): method = s; case .failure(let e): return .failure(e) }
        if plugin == "Console" && method == "log" {
            return .success(.console(level: options["level"]?.stringValue ?? "log", message: options["message"]?.stringValue ?? ""))
        }
        let callbackId: String
        switch name("callbackId") { case .success(let s): callbackId = s; case .failure(let e): return .failure(e) }
        return .success(.call(CapacitorCall(callbackId: callbackId, pluginId: plugin, methodName: method, options: options)))
    }
}

/// A rejection as a plugin makes it: `call.reject(message, code, error, data)`.
public struct CapacitorError: Error, Sendable, Equatable {
    public var message: String
    public var code: String?
    /// Extra fields the page finds on the error object.
    public var data: JSONObject

    public init(_ message: String, code: String? = nil, data: JSONObject = [:]) {
        self.message = message; self.code = code; self.data = data
    }

    public static let unimplementedCode = "UNIMPLEMENTED"

    /// An unknown plugin, as `registerPlugin` words it for a plugin with no header.
    public static func unknownPlugin(_ plugin: String) -> CapacitorError {
        CapacitorError("\"\(plugin)\" plugin is not implemented on ios", code: unimplementedCode)
    }

    /// A call the shell could not read whole (its options nested past `CapacitorWire.maxDepth`):
    /// rejected with the reason, so the page's promise settles.
    public static func unreadable(_ reason: String) -> CapacitorError {
        CapacitorError("the call could not be read: \(reason)")
    }

    /// A method the plugin does not have.
    public static func unknownMethod(_ plugin: String, _ method: String) -> CapacitorError {
        CapacitorError("\"\(plugin).\(method)()\" is not implemented on ios", code: unimplementedCode)
    }

    /// The error object as the page reads it: the data's fields, then `message`, `errorMessage`
    /// and `code` (omitted without one), which a data field of the same name does not replace.
    public var json: JSONObject {
        var object = JSONObject()
        for member in data.members where !["message", "errorMessage", "code"].contains(member.key) { object[member.key] = member.value }
        object["message"] = .string(message)
        object["errorMessage"] = .string(message)
        if let code { object["code"] = .string(code) }
        return object
    }
}

/// What `window.Capacitor.fromNative` is given.
public struct CapacitorResult: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// `data` absent (undefined) when nil, as `call.resolve()` sends it.
        case success(JSONObject?)
        case failure(CapacitorError)
    }

    public var callbackId: String
    public var pluginId: String
    public var methodName: String
    /// True for a listener's event: the page keeps the callback.
    public var save: Bool
    public var outcome: Outcome

    public init(callbackId: String, pluginId: String, methodName: String, save: Bool = false, outcome: Outcome) {
        self.callbackId = callbackId; self.pluginId = pluginId; self.methodName = methodName
        self.save = save; self.outcome = outcome
    }

    public init(answering call: CapacitorCall, save: Bool = false, _ outcome: Outcome) {
        self.init(callbackId: call.callbackId, pluginId: call.pluginId, methodName: call.methodName, save: save, outcome: outcome)
    }

    public var json: JSONValue {
        var object = JSONObject(capacity: 7)
        object["callbackId"] = .string(callbackId)
        object["pluginId"] = .string(pluginId)
        object["methodName"] = .string(methodName)
        object["save"] = .bool(save)
        switch outcome {
        case .success(let data):
            object["success"] = true
            if let data { object["data"] = .object(data) }
        case .failure(let error):
            object["success"] = false
            object["error"] = .object(error.json)
        }
        return .object(object)
    }

    public var text: String { JSONWriter.string(json) }
}
