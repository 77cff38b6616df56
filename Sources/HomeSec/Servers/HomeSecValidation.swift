import HostCore

/// Request validation as HomeSec's server (FastAPI + pydantic 2) answers it: every problem of a
/// body is listed, each with pydantic's `type`, `loc` and `msg`, and the answer is
/// 422 `{detail: "Request validation failed", error_code: "REQUEST_VALIDATION_FAILED",
/// validation_errors: [...]}`. Only the field kinds the reference server's routes use.
public struct HomeSecValidation: Sendable {
    public private(set) var errors: [JSONValue] = []

    public init() {}

    public var isEmpty: Bool { errors.isEmpty }

    public mutating func fail(_ type: String, _ location: [JSONValue], _ message: String, input: JSONValue? = nil) {
        var error: JSONObject = ["type": .string(type), "loc": .array(location), "msg": .string(message)]
        if let input { error["input"] = input }
        errors.append(.object(error))
    }

    /// The JSON object a body must be: a missing body, text that is not JSON and JSON that is
    /// not an object are each reported as pydantic reports them.
    public mutating func object(_ body: [UInt8]) -> JSONObject? {
        if body.isEmpty {
            fail("missing", ["body"], "Field required")
            return nil
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: body, maxDepth: 32)
        } catch {
            fail("json_invalid", ["body", .number(Double(error.offset))], "JSON decode error")
            return nil
        }
        guard let object = value.objectValue else {
            fail("model_attributes_type", ["body"], "Input should be a valid dictionary or object to extract fields from", input: value)
            return nil
        }
        return object
    }

    /// A required text field (`Field(min_length=1)` with a validator that strips it and refuses
    /// blank text): the stripped text, or nil with the error recorded.
    public mutating func requiredText(_ object: JSONObject, _ key: String) -> String? {
        guard let value = object[key] else {
            fail("missing", ["body", .string(key)], "Field required", input: .object(object))
            return nil
        }
        guard case .string(let text) = value else {
            fail("string_type", ["body", .string(key)], "Input should be a valid string", input: value)
            return nil
        }
        guard !text.isEmpty else {
            fail("string_too_short", ["body", .string(key)], "String should have at least 1 character", input: value)
            return nil
        }
        let stripped = Self.stripped(text)
        guard !stripped.isEmpty else {
            fail("value_error", ["body", .string(key)], "Value error, value must not be blank", input: value)
            return nil
        }
        return stripped
    }

    /// An optional `str | None` field: absent (`.absent`), null, or text.
    public mutating func optionalText(_ object: JSONObject, _ key: String) -> HomeSecField<String?> {
        guard let value = object[key] else { return .absent }
        switch value {
        case .null: return .set(nil)
        case .string(let text): return .set(text)
        default:
            fail("string_type", ["body", .string(key)], "Input should be a valid string", input: value)
            return .invalid
        }
    }

    /// A `Literal[...]` field: one of `allowed`, or the default when absent (nil default: required).
    public mutating func literal(_ object: JSONObject, _ key: String, _ allowed: [String], default fallback: String? = nil) -> String? {
        guard let value = object[key] else {
            if let fallback { return fallback }
            fail("missing", ["body", .string(key)], "Field required", input: .object(object))
            return nil
        }
        if case .string(let text) = value, allowed.contains(text) { return text }
        let expected = allowed.map { "'\($0)'" }
        let listed = expected.count > 1 ? expected.dropLast().joined(separator: ", ") + " or " + expected.last! : expected.joined()
        fail("literal_error", ["body", .string(key)], "Input should be \(listed)", input: value)
        return nil
    }

    /// A boolean as pydantic's lax mode reads one: JSON true/false, 0/1, or the words it knows.
    public static func laxBool(_ value: JSONValue) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case .number(let number) where number == 0 || number == 1: return number == 1
        case .string(let text): return laxBool(text)
        default: return nil
        }
    }

    /// The words pydantic (and FastAPI's query parsing) take for a boolean, in any ASCII case.
    public static func laxBool(_ text: String) -> Bool? {
        switch text.asciiLowercased() {
        case "1", "on", "t", "true", "y", "yes": return true
        case "0", "off", "f", "false", "n", "no": return false
        default: return nil
        }
    }

    /// A boolean field of a nested object (`capabilities.deep_links`).
    public mutating func bool(_ value: JSONValue, at location: [JSONValue]) -> Bool? {
        if let flag = Self.laxBool(value) { return flag }
        fail("bool_parsing", location, "Input should be a valid boolean, unable to interpret input", input: value)
        return nil
    }

    /// Python's `str.strip()`: whitespace (ASCII and Unicode) removed at both ends.
    static func stripped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }

    /// The answer for a failed validation.
    public var answer: HomeSecAnswer {
        .json(422, ["detail": "Request validation failed", "error_code": "REQUEST_VALIDATION_FAILED",
                    "validation_errors": .array(errors)])
    }
}

/// A field of a partial update: not sent, sent with a value (possibly null), or sent wrong.
public enum HomeSecField<Value: Sendable>: Sendable {
    case absent
    case set(Value)
    case invalid
}
