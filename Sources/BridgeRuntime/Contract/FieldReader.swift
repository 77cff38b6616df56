/// Reads one JSON object of a payload field by field, applying the contract's rules and turning
/// every deviation into a `ContractViolation` that names the field. An explicit `null` is a wrong
/// value, not an absent one (as in the phone app's decoder); unknown keys are ignored unless
/// `requireOnly` is called.
struct FieldReader {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    /// Runs `body` and prefixes any violation it throws with `component`.
    static func within<T>(_ component: String, _ body: () throws(ContractViolation) -> T) throws(ContractViolation) -> T {
        do { return try body() } catch { throw error.prefixed(component) }
    }

    private func present(_ key: String) -> JSONValue? { object[key] }

    private func missing(_ key: String) -> ContractViolation { ContractViolation(key, "is required") }

    private func wrongKind(_ key: String, _ expected: String, _ value: JSONValue) -> ContractViolation {
        ContractViolation(key, "must be \(expected), not \(value.kindDescription)")
    }

    // MARK: strings

    func optionalString(_ key: String, length: ClosedRange<Int>) throws(ContractViolation) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw wrongKind(key, "a string", value) }
        try Self.checkLength(s, length, key)
        return s
    }

    static func checkLength(_ s: String, _ length: ClosedRange<Int>, _ key: String?) throws(ContractViolation) {
        guard !Patterns.hasLength(s, in: length) else { return }
        throw ContractViolation(key, s.isEmpty && length.lowerBound > 0
            ? "must not be empty"
            : "must be \(length.lowerBound)–\(length.upperBound) characters long")
    }

    func string(_ key: String, length: ClosedRange<Int>) throws(ContractViolation) -> String {
        guard let s = try optionalString(key, length: length) else { throw missing(key) }
        return s
    }

    func optionalIdentifier(_ key: String, maxLength: Int = 64) throws(ContractViolation) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw wrongKind(key, "a string", value) }
        guard Patterns.isIdentifier(s, maxLength: maxLength) else {
            throw ContractViolation(key, "must match ^[a-z0-9][a-z0-9._:-]*$ with at most \(maxLength) characters")
        }
        return s
    }

    func identifier(_ key: String, maxLength: Int = 64) throws(ContractViolation) -> String {
        guard let s = try optionalIdentifier(key, maxLength: maxLength) else { throw missing(key) }
        return s
    }

    func optionalToken(_ key: String, maxLength: Int) throws(ContractViolation) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw wrongKind(key, "a string", value) }
        guard Patterns.isToken(s, maxLength: maxLength) else {
            throw ContractViolation(key, "must match ^[a-z][a-z0-9-]*$ with at most \(maxLength) characters")
        }
        return s
    }

    func token(_ key: String, maxLength: Int) throws(ContractViolation) -> String {
        guard let s = try optionalToken(key, maxLength: maxLength) else { throw missing(key) }
        return s
    }

    /// A string that must be one of `cases`.
    func optionalEnum<E: RawRepresentable>(_ key: String, _ type: E.Type) throws(ContractViolation) -> E?
    where E.RawValue == String {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw wrongKind(key, "a string", value) }
        guard let e = E(rawValue: s) else { throw ContractViolation(key, "has an unknown value") }
        return e
    }

    func requiredEnum<E: RawRepresentable>(_ key: String, _ type: E.Type) throws(ContractViolation) -> E
    where E.RawValue == String {
        guard let e = try optionalEnum(key, type) else { throw missing(key) }
        return e
    }

    // MARK: other scalars

    func optionalBool(_ key: String) throws(ContractViolation) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let b) = value else { throw wrongKind(key, "a boolean", value) }
        return b
    }

    func integer(_ key: String, range: ClosedRange<Int>) throws(ContractViolation) -> Int {
        guard let value = present(key) else { throw missing(key) }
        guard case .number = value else { throw wrongKind(key, "a whole number", value) }
        guard let n = value.integerValue else { throw ContractViolation(key, "must be a whole number") }
        guard range.contains(n) else { throw ContractViolation(key, "must be between \(range.lowerBound) and \(range.upperBound)") }
        return n
    }

    func number(_ key: String, range: ClosedRange<Double>) throws(ContractViolation) -> Double {
        guard let value = present(key) else { throw missing(key) }
        guard case .number(let n) = value else { throw wrongKind(key, "a number", value) }
        guard n.isFinite, range.contains(n) else {
            throw ContractViolation(key, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return n
    }

    // MARK: containers

    func optionalArray(_ key: String, count: ClosedRange<Int>) throws(ContractViolation) -> [JSONValue]? {
        guard let value = present(key) else { return nil }
        guard case .array(let items) = value else { throw wrongKind(key, "an array", value) }
        guard count.contains(items.count) else {
            throw ContractViolation(key, items.count < count.lowerBound
                ? "must have at least \(count.lowerBound) item(s)"
                : "must have at most \(count.upperBound) items")
        }
        return items
    }

    func array(_ key: String, count: ClosedRange<Int>) throws(ContractViolation) -> [JSONValue] {
        guard let items = try optionalArray(key, count: count) else { throw missing(key) }
        return items
    }

    func optionalObject(_ key: String) throws(ContractViolation) -> FieldReader? {
        guard let value = present(key) else { return nil }
        guard case .object(let o) = value else { throw wrongKind(key, "an object", value) }
        return FieldReader(o)
    }

    func object(_ key: String) throws(ContractViolation) -> FieldReader {
        guard let reader = try optionalObject(key) else { throw missing(key) }
        return reader
    }

    /// Decodes every element of `items` (which must be objects) with `body`, naming `key[i]`
    /// in any violation.
    static func each<T>(_ items: [JSONValue], of key: String,
                        _ body: (FieldReader) throws(ContractViolation) -> T) throws(ContractViolation) -> [T] {
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .object(let o) = item else {
                throw ContractViolation("[\(index)]", "must be an object, not \(item.kindDescription)").prefixed(key)
            }
            do { result.append(try body(FieldReader(o))) } catch {
                throw error.prefixed("[\(index)]").prefixed(key)
            }
        }
        return result
    }

    /// For the contract's strict messages: any key outside `allowed` is a violation.
    func requireOnly(_ allowed: [String]) throws(ContractViolation) {
        for member in object.members where !allowed.contains(member.key) {
            throw ContractViolation(member.key, "is not allowed here")
        }
    }

    /// True when `key` is present, whatever its value.
    func has(_ key: String) -> Bool { present(key) != nil }
}
