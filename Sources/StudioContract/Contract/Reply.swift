import HostCore

/// The host's answer to one Studio message (§1), resolving the page's `postMessage` Promise.
public enum Reply: Sendable, Equatable {
    case success(id: String?, payload: JSONObject)
    case failure(id: String?, code: ReplyErrorCode)

    public static let supportedVersions = [1]

    public static func ok(_ id: String?, _ payload: JSONObject = JSONObject()) -> Reply { .success(id: id, payload: payload) }

    public var json: JSONValue {
        var object = JSONObject(capacity: 4)
        object.appendUnique("version", .number(Double(Envelope.version)))
        switch self {
        case .success(let id, let payload):
            if let id { object.appendUnique("id", .string(id)) }
            object.appendUnique("ok", .bool(true))
            object.appendUnique("payload", .object(payload))
        case .failure(let id, let code):
            if let id { object.appendUnique("id", .string(id)) }
            object.appendUnique("ok", .bool(false))
            var error = JSONObject()
            error.appendUnique("code", .string(code.rawValue))
            if code == .unsupportedVersion {
                error.appendUnique("supportedVersions", .array(Self.supportedVersions.map { .number(Double($0)) }))
            }
            object.appendUnique("error", .object(error))
        }
        return .object(object)
    }

    /// The reply's JSON text, the same as `json`'s, written straight from the reply: the host
    /// answers every message with it, so no JSON tree is built for the envelope.
    public var text: String {
        ByteBuffer.withStackStart { out in
            write(into: &out)
            return out.withBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    func write(into out: inout ByteBuffer) {
        out.append("{\"version\":")
        JSONWriter.writeNumber(Double(Envelope.version), into: &out)
        switch self {
        case .success(let id, let payload):
            if let id {
                out.append(",\"id\":")
                JSONWriter.writeString(id, into: &out)
            }
            out.append(",\"ok\":true,\"payload\":")
            JSONWriter.write(object: payload, into: &out)
        case .failure(let id, let code):
            if let id {
                out.append(",\"id\":")
                JSONWriter.writeString(id, into: &out)
            }
            out.append(",\"ok\":false,\"error\":{\"code\":")
            JSONWriter.writeString(code.rawValue, into: &out)
            if code == .unsupportedVersion {
                out.append(",\"supportedVersions\":[")
                for (i, version) in Self.supportedVersions.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONWriter.writeNumber(Double(version), into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
    }

    public var id: String? {
        switch self {
        case .success(let id, _), .failure(let id, _): return id
        }
    }

    /// Decodes a reply the way Studio does: version first; then only `version, id, ok, payload,
    /// error`; success has an object payload and no error; failure has a known code and no payload.
    public static func decode(value: JSONValue) throws(BridgeFailure) -> DecodedReply {
        try decode(text: JSONWriter.string(value))
    }

    public static func decode(text: String) throws(BridgeFailure) -> DecodedReply {
        try EnvelopeReader.withTape(text) { (tape) throws(BridgeFailure) in try decode(tape: tape) }
    }

    static func decode(tape: JSONTape) throws(BridgeFailure) -> DecodedReply {
        let root = try EnvelopeReader.checkVersion(tape)
        let id = EnvelopeReader.validId(root)
        func malformed(_ reason: String) -> BridgeFailure { BridgeFailure(.malformed, id: id, reason: reason) }
        do { try root.requireOnly(["version", "id", "ok", "payload", "error"]) } catch {
            throw malformed("the reply has an unknown key \"\(error.field)\"")
        }
        if root.entry("id") != nil && id == nil { throw malformed("id must be a string of 1–64 characters") }
        guard let okEntry = root.entry("ok"), let ok = tape.bool(okEntry) else { throw malformed("ok is required and must be a boolean") }
        let payload = root.entry("payload"), error = root.entry("error")
        if ok {
            guard error == nil else { throw malformed("a success reply has no error") }
            guard let payload, case .object(let object) = tape.value(payload) else {
                throw malformed("a success reply needs an object payload")
            }
            return DecodedReply(reply: .success(id: id, payload: object), supportedVersions: nil)
        }
        guard payload == nil else { throw malformed("an error reply has no payload") }
        guard let error, case .object(let object) = tape.value(error) else { throw malformed("an error reply needs an error object") }
        guard case .string(let raw)? = object["code"], let code = ReplyErrorCode(rawValue: raw) else {
            throw malformed("error.code must be one of the five reply codes")
        }
        var versions: [Int]? = nil
        if let list = object["supportedVersions"] {
            guard case .array(let items) = list else { throw malformed("error.supportedVersions must be an array") }
            versions = []
            for item in items {
                guard let v = item.integerValue, v >= 1 else { throw malformed("error.supportedVersions must hold versions ≥ 1") }
                versions?.append(v)
            }
        }
        return DecodedReply(reply: .failure(id: id, code: code), supportedVersions: versions)
    }
}

/// A reply as Studio decoded it.
public struct DecodedReply: Sendable, Equatable {
    public var reply: Reply
    public var supportedVersions: [Int]?
}
