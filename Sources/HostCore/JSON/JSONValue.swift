/// A JSON document as the bridge sees it: the value model JavaScript hands over through
/// `JSON.stringify`, with numbers as doubles (so `1` and `1.0` are the same integer, as in JS).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's kind, for error messages ("a string", "an array", ...).
    public var kindDescription: String {
        let kind: JSONTape.Kind
        switch self {
        case .null: kind = .null
        case .bool: kind = .bool
        case .number: kind = .number
        case .string: kind = .string
        case .array: kind = .array
        case .object: kind = .object
        }
        return kind.description
    }

    /// The deepest nesting of arrays and objects; a scalar is 0, `{}` and `[]` are 1.
    /// Stops counting at `limit` so a hostile tree cannot cost more than `limit` levels of work.
    public func nestingDepth(limit: Int = .max) -> Int {
        guard limit > 0 else { return 0 }
        switch self {
        case .array(let items):
            var deepest = 0
            for item in items where deepest < limit - 1 {
                deepest = max(deepest, item.nestingDepth(limit: limit - 1))
            }
            return 1 + deepest
        case .object(let object):
            var deepest = 0
            for member in object.members where deepest < limit - 1 {
                deepest = max(deepest, member.value.nestingDepth(limit: limit - 1))
            }
            return 1 + deepest
        default:
            return 0
        }
    }

    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The number as an integer when it has no fractional part and fits exactly (JS `Number.isInteger`).
    public var integerValue: Int? {
        guard case .number(let n) = self, n.isFinite, n.rounded(.towardZero) == n,
              abs(n) <= 9_007_199_254_740_992 else { return nil }
        return Int(n)
    }
}

/// A JSON object that keeps its members in document order (so encodings are stable and
/// readable) with unique keys: a repeated key keeps its first position and its last value,
/// as `JSON.parse` does.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public struct Member: Sendable {
        public let key: String
        public var value: JSONValue

        @usableFromInline init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// The members in document order. (Stored under another name so that `appendUnique`, which
    /// the contracts' reply builders in other targets call a dozen times a reply, can be
    /// inlined there while the public view stays read-only.)
    @inlinable public var members: [Member] { storage }
    @usableFromInline var storage: [Member]

    public init() { storage = [] }

    /// An empty object with room for `capacity` members.
    @inlinable public init(capacity: Int) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    public init(_ pairs: [(String, JSONValue)]) {
        storage = []
        storage.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = storage.firstIndex(where: { $0.key == key }) {
                if let newValue { storage[index].value = newValue } else { storage.remove(at: index) }
            } else if let newValue {
                storage.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Appends without looking for an existing key; for builders that know keys are unique.
    @inlinable package mutating func appendUnique(_ key: String, _ value: JSONValue) {
        storage.append(Member(key: key, value: value))
    }

    /// JSON equality: the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}
