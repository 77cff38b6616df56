/// The envelope every bridge message travels in (§1):
/// `{ "version": 1, "id"?: string(1–64), "type": string, "payload": object }`, no other keys.
public struct Envelope: Sendable, Equatable {
    public static let version = 1
    /// The deepest a value may sit: the envelope is depth 0, its payload depth 1, and each array
    /// or object adds one. A value at depth 8 is malformed.
    public static let maxValueDepth = 7

    public var id: String?
    public var type: String
    public var payload: JSONObject

    public init(id: String? = nil, type: String, payload: JSONObject = JSONObject()) {
        self.id = id; self.type = type; self.payload = payload
    }

    /// The envelope as JSON, keys in the contract's order.
    public var json: JSONValue {
        var object = JSONObject(capacity: 4)
        object.appendUnique("version", .number(Double(Self.version)))
        if let id { object.appendUnique("id", .string(id)) }
        object.appendUnique("type", .string(type))
        object.appendUnique("payload", .object(payload))
        return .object(object)
    }

    public var text: String { JSONWriter.string(json) }
}

/// Reading envelopes in the contract's check order. Shared by both directions and by replies.
enum EnvelopeReader {
    /// Text from the page (`JSON.stringify` of what it posted) to a value. Nesting is bounded
    /// while parsing, so a hostile document costs at most a few levels of work.
    static func parse(_ text: String) throws(BridgeFailure) -> JSONValue {
        do {
            return try JSONParser.parse(text, maxDepth: Envelope.maxValueDepth)
        } catch {
            throw BridgeFailure(.malformed, reason: error.reason == .tooDeep
                ? "nested deeper than \(Envelope.maxValueDepth) levels" : "not JSON: \(error)")
        }
    }

    /// The depth of the deepest value: scalars and empty containers add nothing of their own.
    static func valueDepth(_ value: JSONValue, limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        switch value {
        case .array(let items) where !items.isEmpty:
            var deepest = 0
            for item in items where deepest < limit - 1 { deepest = max(deepest, valueDepth(item, limit: limit - 1)) }
            return deepest + 1
        case .object(let object) where !object.isEmpty:
            var deepest = 0
            for m in object.members where deepest < limit - 1 { deepest = max(deepest, valueDepth(m.value, limit: limit - 1)) }
            return deepest + 1
        default:
            return 0
        }
    }

    /// Step 1 for a value that did not come through `parse`: the same depth limit.
    static func checkDepth(_ value: JSONValue) throws(BridgeFailure) {
        guard valueDepth(value, limit: Envelope.maxValueDepth + 1) <= Envelope.maxValueDepth else {
            throw BridgeFailure(.malformed, reason: "nested deeper than \(Envelope.maxValueDepth) levels")
        }
    }

    /// Step 2: an object with a valid version. Returns the object. `unsupported_version` is
    /// decided here, before anything else is read.
    static func checkVersion(_ value: JSONValue) throws(BridgeFailure) -> JSONObject {
        guard case .object(let object) = value else {
            throw BridgeFailure(.malformed, reason: "the message must be an object, not \(value.kindDescription)")
        }
        let id = validId(object)
        guard let version = object["version"] else {
            throw BridgeFailure(.malformed, id: id, reason: "version is required")
        }
        guard case .number(let number) = version, number.isFinite, number.rounded(.towardZero) == number,
              abs(number) < 1e15, number >= 1 else {
            throw BridgeFailure(.malformed, id: id, reason: "version must be a whole number of at least 1")
        }
        guard number == Double(Envelope.version) else {
            throw BridgeFailure(.unsupportedVersion, reason: "protocol version \(Int(number)) is not supported; this host speaks 1")
        }
        return object
    }

    /// The request id when it is a string of 1–64 characters (it has no pattern), else nil.
    static func validId(_ object: JSONObject) -> String? {
        guard case .string(let id)? = object["id"], Patterns.hasLength(id, in: 1...64) else { return nil }
        return id
    }

    /// The whole envelope check: version, then keys, id, type and payload.
    static func read(_ value: JSONValue) throws(BridgeFailure) -> Envelope {
        let object = try checkVersion(value)
        let id = validId(object)
        func malformed(_ reason: String) -> BridgeFailure { BridgeFailure(.malformed, id: id, reason: reason) }
        for member in object.members {
            switch member.key {
            case "version", "id", "type", "payload": continue
            default: throw malformed("the envelope has an unknown key \"\(member.key)\"")
            }
        }
        if object["id"] != nil && id == nil { throw malformed("id must be a string of 1–64 characters") }
        guard case .string(let type)? = object["type"] else { throw malformed("type is required and must be a string") }
        guard Patterns.isMessageType(type) else { throw malformed("type \"\(type.prefix(80))\" is not a message type") }
        guard let payloadValue = object["payload"] else { throw malformed("payload is required") }
        guard case .object(let payload) = payloadValue else {
            throw malformed("payload must be an object, not \(payloadValue.kindDescription)")
        }
        return Envelope(id: id, type: type, payload: payload)
    }
}
