import HostCore

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

/// An envelope read off a tape: what the decoders need, without materializing the payload, or
/// the type (which a known type never needs as a string; see `StudioMessageType(utf8:)`).
struct TapeEnvelope {
    var id: String?
    /// The type's string entry, already checked against the message-type pattern.
    var typeEntry: Int
    var payload: FieldReader

    var type: String { payload.tape.string(typeEntry) }
}

/// Reading envelopes in the contract's check order. Shared by both directions and by replies.
enum EnvelopeReader {
    /// Step 1: the posted text (`JSON.stringify` of what the page posted) to a tape, then the
    /// remaining steps in `body`. Nesting is bounded while parsing, so a hostile document costs
    /// at most a few levels of work.
    static func withTape<T>(_ text: String, _ body: (JSONTape) throws(BridgeFailure) -> T) throws(BridgeFailure) -> T {
        do {
            return try JSONTape.parse(text, maxDepth: Envelope.maxValueDepth, body)
        } catch {
            switch error {
            case .notJSON(let failure):
                throw BridgeFailure(.malformed, reason: failure.reason == .tooDeep
                    ? "nested deeper than \(Envelope.maxValueDepth) levels" : "not JSON: \(failure)")
            case .body(let failure):
                throw failure
            }
        }
    }

    /// Step 2: an object with a valid version. Returns the root object. `unsupported_version`
    /// is decided here, before anything else is read.
    static func checkVersion(_ tape: JSONTape) throws(BridgeFailure) -> FieldReader {
        let root = try rootObject(tape)
        try checkVersion(tape, at: root.entry("version"), id: validId(tape, at: root.entry("id")))
        return root
    }

    private static func rootObject(_ tape: JSONTape) throws(BridgeFailure) -> FieldReader {
        guard tape.kind(tape.root) == .object else {
            throw BridgeFailure(.malformed, reason: "the message must be an object, not \(tape.kindDescription(tape.root))")
        }
        return FieldReader(tape, tape.root)
    }

    /// The version check on the entry of `version` (nil when absent).
    private static func checkVersion(_ tape: JSONTape, at version: Int?, id: String?) throws(BridgeFailure) {
        guard let version else {
            throw BridgeFailure(.malformed, id: id, reason: "version is required")
        }
        let number = tape.kind(version) == .number ? tape.number(version) : .nan
        guard number.isFinite, number.rounded(.towardZero) == number, abs(number) < 1e15, number >= 1 else {
            throw BridgeFailure(.malformed, id: id, reason: "version must be a whole number of at least 1")
        }
        guard number == Double(Envelope.version) else {
            throw BridgeFailure(.unsupportedVersion, reason: "protocol version \(Int(number)) is not supported; this host speaks 1")
        }
    }

    /// The request id when it is a string of 1–64 characters (it has no pattern), else nil.
    static func validId(_ root: FieldReader) -> String? { validId(root.tape, at: root.entry("id")) }

    private static func validId(_ tape: JSONTape, at entry: Int?) -> String? {
        guard let e = entry, tape.kind(e) == .string else { return nil }
        let id = tape.string(e)
        return Patterns.hasLength(id, in: 1...64) ? id : nil
    }

    /// The whole envelope check: version, then keys, id, type and payload. Every message
    /// passes here, so the four members (and the first unknown one) are found in one pass over
    /// the root instead of a lookup each; a repeated key counts with its last value, as in
    /// `FieldReader.entry`.
    static func read(_ tape: JSONTape) throws(BridgeFailure) -> TapeEnvelope {
        let root = try rootObject(tape)
        var version: Int? = nil, idEntry: Int? = nil, typeEntry: Int? = nil, payload: Int? = nil, unknownKey: Int? = nil
        for key in tape.memberKeys(root.index) {
            if tape.isKey(key, "version") { version = key + 1 }
            else if tape.isKey(key, "id") { idEntry = key + 1 }
            else if tape.isKey(key, "type") { typeEntry = key + 1 }
            else if tape.isKey(key, "payload") { payload = key + 1 }
            else if unknownKey == nil { unknownKey = key }
        }
        let id = validId(tape, at: idEntry)
        try checkVersion(tape, at: version, id: id)
        func malformed(_ reason: String) -> BridgeFailure { BridgeFailure(.malformed, id: id, reason: reason) }
        if let unknownKey { throw malformed("the envelope has an unknown key \"\(tape.string(unknownKey))\"") }
        if idEntry != nil && id == nil { throw malformed("id must be a string of 1–64 characters") }
        guard let typeEntry, tape.kind(typeEntry) == .string else {
            throw malformed("type is required and must be a string")
        }
        guard tape.withUTF8(typeEntry, Patterns.isMessageType) else {
            throw malformed("type \"\(tape.string(typeEntry).prefix(80))\" is not a message type")
        }
        guard let payload else { throw malformed("payload is required") }
        guard tape.kind(payload) == .object else {
            throw malformed("payload must be an object, not \(tape.kindDescription(payload))")
        }
        return TapeEnvelope(id: id, typeEntry: typeEntry, payload: FieldReader(tape, payload))
    }
}
