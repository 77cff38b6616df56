/// `path = value` conditions over the state JSON: a path is object keys and array indices
/// joined by dots (`navigation.selected`, `navigation.tabs.0.id`); a value matches when it is
/// equal as JSON. A path that does not exist matches only `null`.
public struct StatePredicate: Sendable, Equatable {
    public var conditions: JSONObject

    public init(_ conditions: JSONObject) { self.conditions = conditions }

    public func holds(in state: JSONValue) -> Bool {
        conditions.members.allSatisfy { Self.value(at: $0.key, in: state) == $0.value }
    }

    /// The conditions that do not hold, with the value found, for a timeout's message.
    public func unmet(in state: JSONValue) -> [String] {
        conditions.members.compactMap { condition in
            let found = Self.value(at: condition.key, in: state)
            return found == condition.value ? nil
                : "\(condition.key) is \(JSONWriter.string(found)), not \(JSONWriter.string(condition.value))"
        }
    }

    public static func value(at path: String, in state: JSONValue) -> JSONValue {
        var current = state
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let object):
                guard let next = object[String(component)] else { return .null }
                current = next
            case .array(let array):
                guard let index = Int(component), array.indices.contains(index) else { return .null }
                current = array[index]
            default:
                return .null
            }
        }
        return current
    }
}
