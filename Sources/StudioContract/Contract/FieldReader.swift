import HostCore

/// Reads one JSON object of a message, field by field, straight off the message's tape, applying
/// the contract's rules and turning every deviation into a `ContractViolation` that names the
/// field. An explicit `null` is a wrong value, not an absent one (as in the phone app's
/// decoder); unknown keys are ignored unless `requireOnly` is called.
///
/// Each rule comes in two forms: by key (the reader finds the member) and `at:` an entry a
/// schema-specialised decoder already found in its own single pass over the members (nil when
/// absent). Both apply the same checks and name the field the same way. The `at:` forms are
/// marked for inlining: a call costs about as much as the checks, and a catalog makes dozens.
struct FieldReader {
    let tape: JSONTape
    /// The object's entry on the tape.
    let index: Int

    init(_ tape: JSONTape, _ index: Int) {
        self.tape = tape
        self.index = index
    }

    /// Runs `body` and prefixes any violation it throws with `component`.
    static func within<T>(_ component: String, _ body: () throws(ContractViolation) -> T) throws(ContractViolation) -> T {
        do { return try body() } catch { throw error.prefixed(component) }
    }

    /// The entry of `key`'s value, whatever it is (null included), or nil when absent.
    func entry(_ key: StaticString) -> Int? { tape.member(index, key) }

    var isEmpty: Bool { tape.count(index) == 0 }

    /// Each member's key and value entry, in document order.
    func forEachMember(_ body: (String, Int) -> Void) {
        for keyIndex in tape.memberKeys(index) { body(tape.string(keyIndex), keyIndex + 1) }
    }

    private func missing(_ key: StaticString) -> ContractViolation { ContractViolation(key.description, "is required") }

    private func wrongKind(_ key: StaticString, _ expected: String, _ entry: Int) -> ContractViolation {
        ContractViolation(key.description, "must be \(expected), not \(tape.kindDescription(entry))")
    }

    // MARK: strings

    func optionalString(_ key: StaticString, length: ClosedRange<Int>) throws(ContractViolation) -> String? {
        try optionalString(at: entry(key), key, length: length)
    }

    @inline(__always) func optionalString(at entry: Int?, _ key: StaticString, length: ClosedRange<Int>) throws(ContractViolation) -> String? {
        guard let e = entry else { return nil }
        guard tape.kind(e) == .string else { throw wrongKind(key, "a string", e) }
        let s = tape.string(e)
        guard Patterns.hasLength(s, in: length) else { throw Self.lengthViolation(s, length, key.description) }
        return s
    }

    static func lengthViolation(_ s: String, _ length: ClosedRange<Int>, _ key: String?) -> ContractViolation {
        ContractViolation(key, s.isEmpty && length.lowerBound > 0
            ? "must not be empty"
            : "must be \(length.lowerBound)–\(length.upperBound) characters long")
    }

    func string(_ key: StaticString, length: ClosedRange<Int>) throws(ContractViolation) -> String {
        try string(at: entry(key), key, length: length)
    }

    @inline(__always) func string(at entry: Int?, _ key: StaticString, length: ClosedRange<Int>) throws(ContractViolation) -> String {
        guard let s = try optionalString(at: entry, key, length: length) else { throw missing(key) }
        return s
    }

    func optionalIdentifier(_ key: StaticString, maxLength: Int = 64) throws(ContractViolation) -> String? {
        try optionalIdentifier(at: entry(key), key, maxLength: maxLength)
    }

    @inline(__always) func optionalIdentifier(at entry: Int?, _ key: StaticString, maxLength: Int = 64) throws(ContractViolation) -> String? {
        guard let e = entry else { return nil }
        guard tape.kind(e) == .string else { throw wrongKind(key, "a string", e) }
        guard let s = tape.patternString(e, { Patterns.isIdentifier($0, maxLength: maxLength) }) else {
            throw ContractViolation(key.description, "must match ^[a-z0-9][a-z0-9._:-]*$ with at most \(maxLength) characters")
        }
        return s
    }

    func identifier(_ key: StaticString, maxLength: Int = 64) throws(ContractViolation) -> String {
        try identifier(at: entry(key), key, maxLength: maxLength)
    }

    @inline(__always) func identifier(at entry: Int?, _ key: StaticString, maxLength: Int = 64) throws(ContractViolation) -> String {
        guard let s = try optionalIdentifier(at: entry, key, maxLength: maxLength) else { throw missing(key) }
        return s
    }

    func optionalToken(_ key: StaticString, maxLength: Int) throws(ContractViolation) -> String? {
        try optionalToken(at: entry(key), key, maxLength: maxLength)
    }

    @inline(__always) func optionalToken(at entry: Int?, _ key: StaticString, maxLength: Int) throws(ContractViolation) -> String? {
        guard let e = entry else { return nil }
        guard tape.kind(e) == .string else { throw wrongKind(key, "a string", e) }
        guard let s = tape.patternString(e, { Patterns.isToken($0, maxLength: maxLength) }) else {
            throw ContractViolation(key.description, "must match ^[a-z][a-z0-9-]*$ with at most \(maxLength) characters")
        }
        return s
    }

    func token(_ key: StaticString, maxLength: Int) throws(ContractViolation) -> String {
        try token(at: entry(key), key, maxLength: maxLength)
    }

    @inline(__always) func token(at entry: Int?, _ key: StaticString, maxLength: Int) throws(ContractViolation) -> String {
        guard let s = try optionalToken(at: entry, key, maxLength: maxLength) else { throw missing(key) }
        return s
    }

    /// A string that must be one of `E`'s raw values, matched as bytes: no string is made.
    func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: StaticString, _ type: E.Type) throws(ContractViolation) -> E?
    where E.RawValue == String {
        try optionalEnum(at: entry(key), key, type)
    }

    @inline(__always) func optionalEnum<E: RawRepresentable & CaseIterable>(at entry: Int?, _ key: StaticString, _ type: E.Type) throws(ContractViolation) -> E?
    where E.RawValue == String {
        guard let e = entry else { return nil }
        guard tape.kind(e) == .string else { throw wrongKind(key, "a string", e) }
        guard let value = tape.matchCase(e, of: E.self) else { throw ContractViolation(key.description, "has an unknown value") }
        return value
    }

    func requiredEnum<E: RawRepresentable & CaseIterable>(_ key: StaticString, _ type: E.Type) throws(ContractViolation) -> E
    where E.RawValue == String {
        guard let value = try optionalEnum(key, type) else { throw missing(key) }
        return value
    }

    // MARK: other scalars

    func optionalBool(_ key: StaticString) throws(ContractViolation) -> Bool? {
        guard let e = entry(key) else { return nil }
        guard let b = tape.bool(e) else { throw wrongKind(key, "a boolean", e) }
        return b
    }

    func integer(_ key: StaticString, range: ClosedRange<Int>) throws(ContractViolation) -> Int {
        guard let e = entry(key) else { throw missing(key) }
        guard tape.kind(e) == .number else { throw wrongKind(key, "a whole number", e) }
        guard let n = JSONValue.number(tape.number(e)).integerValue else {
            throw ContractViolation(key.description, "must be a whole number")
        }
        guard range.contains(n) else {
            throw ContractViolation(key.description, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return n
    }

    func number(_ key: StaticString, range: ClosedRange<Double>) throws(ContractViolation) -> Double {
        guard let e = entry(key) else { throw missing(key) }
        guard tape.kind(e) == .number else { throw wrongKind(key, "a number", e) }
        let n = tape.number(e)
        guard n.isFinite, range.contains(n) else {
            throw ContractViolation(key.description, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return n
    }

    // MARK: containers

    func optionalArray(_ key: StaticString, count: ClosedRange<Int>) throws(ContractViolation) -> JSONTape.Children? {
        try optionalArray(at: entry(key), key, count: count)
    }

    @inline(__always) func optionalArray(at entry: Int?, _ key: StaticString, count: ClosedRange<Int>) throws(ContractViolation) -> JSONTape.Children? {
        guard let e = entry else { return nil }
        guard tape.kind(e) == .array else { throw wrongKind(key, "an array", e) }
        let n = tape.count(e)
        guard count.contains(n) else {
            throw ContractViolation(key.description, n < count.lowerBound
                ? "must have at least \(count.lowerBound) item(s)"
                : "must have at most \(count.upperBound) items")
        }
        return tape.elements(e)
    }

    func array(_ key: StaticString, count: ClosedRange<Int>) throws(ContractViolation) -> JSONTape.Children {
        try array(at: entry(key), key, count: count)
    }

    @inline(__always) func array(at entry: Int?, _ key: StaticString, count: ClosedRange<Int>) throws(ContractViolation) -> JSONTape.Children {
        guard let items = try optionalArray(at: entry, key, count: count) else { throw missing(key) }
        return items
    }

    func optionalObject(_ key: StaticString) throws(ContractViolation) -> FieldReader? {
        guard let e = entry(key) else { return nil }
        guard tape.kind(e) == .object else { throw wrongKind(key, "an object", e) }
        return FieldReader(tape, e)
    }

    func object(_ key: StaticString) throws(ContractViolation) -> FieldReader {
        guard let reader = try optionalObject(key) else { throw missing(key) }
        return reader
    }

    /// Decodes every element of `items` (which must be objects) with `body`, naming `key[i]`
    /// in any violation.
    static func each<T>(_ items: JSONTape.Children?, of key: StaticString,
                        _ body: (FieldReader) throws(ContractViolation) -> T) throws(ContractViolation) -> [T] {
        guard let items else { return [] }
        var result: [T] = []
        result.reserveCapacity(items.count)
        var position = 0
        for item in items {
            guard items.tape.kind(item) == .object else {
                throw ContractViolation("[\(position)]", "must be an object, not \(items.tape.kindDescription(item))")
                    .prefixed(key.description)
            }
            do { result.append(try body(FieldReader(items.tape, item))) } catch {
                throw error.prefixed("[\(position)]").prefixed(key.description)
            }
            position += 1
        }
        return result
    }

    /// For the contract's strict messages: any key outside `allowed` is a violation.
    func requireOnly(_ allowed: [StaticString]) throws(ContractViolation) {
        for keyIndex in tape.memberKeys(index) where !allowed.contains(where: { tape.keyEquals(keyIndex, $0) }) {
            throw ContractViolation(tape.string(keyIndex), "is not allowed here")
        }
    }
}
