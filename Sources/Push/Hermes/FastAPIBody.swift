import HostCore

/// How the real Hermes routes (FastAPI with pydantic 2 models) answer a request body their model
/// refuses: 422 with `{"detail": [{type, loc, msg, input, ctx?}, …]}`, one entry per problem in
/// the model's field order. The hermes-push plugin's models: `RegisterRequest {device_token:
/// str (min_length 1), apns_env: str (pattern ^(sandbox|production)$), app_version: str
/// (min_length 1)}` and `UnregisterRequest {device_token: str (min_length 1)}` — any non-empty
/// string is a token to them; a number is not a string (pydantic does not coerce it).
public enum FastAPIBody {
    public enum Rule: Sendable {
        /// A string of at least one character.
        case nonEmpty
        /// A string that is one of `values`, checked as the model's `pattern`.
        case oneOf([String], pattern: String)
    }

    public enum Outcome: Sendable, Equatable {
        case valid(JSONObject)
        /// The 422 body.
        case invalid(JSONValue)
    }

    public static let registerFields: [(String, Rule)] = [
        ("device_token", .nonEmpty), ("apns_env", .oneOf(["sandbox", "production"], pattern: "^(sandbox|production)$")),
        ("app_version", .nonEmpty),
    ]
    public static let unregisterFields: [(String, Rule)] = [("device_token", .nonEmpty)]

    static func problem(_ type: String, _ loc: [JSONValue], _ msg: String, input: JSONValue, ctx: JSONObject? = nil) -> JSONValue {
        var object: JSONObject = ["type": .string(type), "loc": .array(loc), "msg": .string(msg), "input": input]
        if let ctx { object["ctx"] = .object(ctx) }
        return .object(object)
    }

    static func invalid(_ problems: [JSONValue]) -> Outcome { .invalid(["detail": .array(problems)]) }

    /// The body read as a model with `fields`, or its 422.
    public static func validate(_ body: [UInt8], fields: [(String, Rule)]) -> Outcome {
        guard !body.isEmpty else { return invalid([problem("missing", ["body"], "Field required", input: .null)]) }
        guard let value = try? JSONParser.parse(bytes: body) else {
            return invalid([problem("json_invalid", ["body", 0], "JSON decode error", input: [:], ctx: ["error": "Expecting value"])])
        }
        guard let object = value.objectValue else {
            return invalid([problem("model_attributes_type", ["body"], "Input should be a valid dictionary or object to extract fields from", input: value)])
        }
        var problems: [JSONValue] = []
        for (name, rule) in fields {
            let loc: [JSONValue] = ["body", .string(name)]
            guard let field = object[name] else {
                problems.append(problem("missing", loc, "Field required", input: value)); continue
            }
            guard let text = field.stringValue else {
                problems.append(problem("string_type", loc, "Input should be a valid string", input: field)); continue
            }
            switch rule {
            case .nonEmpty where text.isEmpty:
                problems.append(problem("string_too_short", loc, "String should have at least 1 character", input: field, ctx: ["min_length": 1]))
            case .oneOf(let values, let pattern) where !values.contains(text):
                problems.append(problem("string_pattern_mismatch", loc, "String should match pattern '\(pattern)'", input: field,
                                        ctx: ["pattern": .string(pattern)]))
            default: break
            }
        }
        return problems.isEmpty ? .valid(object) : invalid(problems)
    }

    /// An optional `dict` body (the plugin's `/test`): nothing, or a JSON object.
    public static func optionalObject(_ body: [UInt8]) -> Outcome {
        guard !body.isEmpty else { return .valid([:]) }
        guard let value = try? JSONParser.parse(bytes: body) else {
            return invalid([problem("json_invalid", ["body", 0], "JSON decode error", input: [:], ctx: ["error": "Expecting value"])])
        }
        guard let object = value.objectValue else { return invalid([problem("dict_type", ["body"], "Input should be a valid dictionary", input: value)]) }
        return .valid(object)
    }
}
