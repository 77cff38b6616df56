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

    public var text: String { JSONWriter.string(json) }

    public var id: String? {
        switch self {
        case .success(let id, _), .failure(let id, _): return id
        }
    }

    /// Decodes a reply the way Studio does: version first; then only `version, id, ok, payload,
    /// error`; success has an object payload and no error; failure has a known code and no payload.
    public static func decode(value: JSONValue) throws(BridgeFailure) -> DecodedReply {
        try EnvelopeReader.checkDepth(value)
        let object = try EnvelopeReader.checkVersion(value)
        let id = EnvelopeReader.validId(object)
        func malformed(_ reason: String) -> BridgeFailure { BridgeFailure(.malformed, id: id, reason: reason) }
        for member in object.members {
            switch member.key {
            case "version", "id", "ok", "payload", "error": continue
            default: throw malformed("the reply has an unknown key \"\(member.key)\"")
            }
        }
        if object["id"] != nil && id == nil { throw malformed("id must be a string of 1–64 characters") }
        guard case .bool(let ok)? = object["ok"] else { throw malformed("ok is required and must be a boolean") }
        if ok {
            guard object["error"] == nil else { throw malformed("a success reply has no error") }
            guard case .object(let payload)? = object["payload"] else { throw malformed("a success reply needs an object payload") }
            return DecodedReply(reply: .success(id: id, payload: payload), supportedVersions: nil)
        }
        guard object["payload"] == nil else { throw malformed("an error reply has no payload") }
        guard case .object(let error)? = object["error"] else { throw malformed("an error reply needs an error object") }
        guard case .string(let raw)? = error["code"], let code = ReplyErrorCode(rawValue: raw) else {
            throw malformed("error.code must be one of the five reply codes")
        }
        var versions: [Int]? = nil
        if let list = error["supportedVersions"] {
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
