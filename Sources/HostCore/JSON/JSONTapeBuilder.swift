/// Builds a tape in one pass: a strict RFC 8259 scanner with an explicit stack of open
/// containers, so there is no recursion. Everything it touches is a raw pointer owned for the
/// length of one parse — the text, the entry buffer, the stack — so the hot loops carry no
/// bounds checks beyond the scanner's own and no reference counting.
///
/// The stack of open containers and the first entries live on the machine stack: a short
/// message (most bridge messages) is parsed without any allocation; a longer one moves its
/// entries to the heap once, sized for the whole text.
@usableFromInline
struct JSONTapeBuilder: ~Copyable {
    @usableFromInline typealias Entry = JSONTape.Entry

    private let bytes: UnsafePointer<UInt8>
    private let n: Int
    private var p = 0
    private var entries: UnsafeMutablePointer<Entry>
    private var count = 0
    private var capacity: Int
    /// Whether `entries` is a heap allocation of this builder (else the caller's stack).
    private var ownsEntries = false
    /// Entry index of each open container, innermost last.
    private let open: UnsafeMutablePointer<Int32>
    private var depth = 0
    private let maxDepth: Int

    /// Entries kept on the stack: within the standard library's 1 KiB for a stack allocation
    /// without asking the runtime (an entry is 20 bytes).
    @usableFromInline static let stackEntries = 48

    /// Parses `text` and runs `body` over its entries; the entries live only during `body`.
    /// Inlinable so that a caller in another target gets it specialized for its `T` and `E`.
    @inlinable
    static func withEntries<T, E: Error>(_ text: UnsafeBufferPointer<UInt8>, maxDepth: Int,
                                         _ body: (UnsafeBufferPointer<Entry>) throws(E) -> T) throws(JSONTape.ParseFailure<E>) -> T {
        guard let base = text.baseAddress, !text.isEmpty else {
            throw .notJSON(JSONParseError(reason: .unexpectedEnd, offset: 0))
        }
        let maxDepth = max(0, maxDepth)
        return try withUnsafeTemporaryAllocation(of: Int32.self, capacity: maxDepth + 1) { (open) throws(JSONTape.ParseFailure<E>) -> T in
            try withUnsafeTemporaryAllocation(of: Entry.self, capacity: stackEntries) { (stack) throws(JSONTape.ParseFailure<E>) -> T in
                let scanned: Scanned
                do throws(JSONParseError) { scanned = try scan(base, text.count, maxDepth: maxDepth, open: open.baseAddress!, entries: stack) } catch {
                    throw .notJSON(error)
                }
                defer { scanned.release() }
                do throws(E) { return try body(UnsafeBufferPointer(start: scanned.entries, count: scanned.count)) } catch { throw .body(error) }
            }
        }
    }

    /// A scan's entries: on the caller's stack, or on the heap when they outgrew it (then
    /// `release` frees them).
    @usableFromInline struct Scanned {
        @usableFromInline let entries: UnsafeMutablePointer<Entry>
        @usableFromInline let count: Int
        @usableFromInline let owned: Bool
        @inlinable func release() { if owned { entries.deallocate() } }
    }

    /// Scans the whole document (not generic: compiled once, here).
    @usableFromInline
    static func scan(_ bytes: UnsafePointer<UInt8>, _ n: Int, maxDepth: Int, open: UnsafeMutablePointer<Int32>,
                     entries: UnsafeMutableBufferPointer<Entry>) throws(JSONParseError) -> Scanned {
        var builder = JSONTapeBuilder(bytes, n, maxDepth: maxDepth, open: open, entries: entries)
        try builder.scanDocument()
        // The entries go to the caller, heap or not.
        let scanned = Scanned(entries: builder.entries, count: builder.count, owned: builder.ownsEntries)
        builder.ownsEntries = false
        return scanned
    }

    private init(_ bytes: UnsafePointer<UInt8>, _ n: Int, maxDepth: Int, open: UnsafeMutablePointer<Int32>,
                 entries: UnsafeMutableBufferPointer<Entry>) {
        self.bytes = bytes
        self.n = n
        self.maxDepth = maxDepth
        self.open = open
        self.entries = entries.baseAddress!
        capacity = entries.count
    }

    deinit {
        if ownsEntries { entries.deallocate() }
    }

    private func fail(_ reason: JSONParseError.Reason) -> JSONParseError { JSONParseError(reason: reason, offset: p) }

    /// Offsets and counts stay below `Int32.max` (the text is shorter), so the arithmetic on
    /// this path wraps instead of checking for overflow.
    @inline(__always) private mutating func append(_ kind: JSONTape.Kind, _ flags: UInt8, _ start: Int, _ end: Int,
                                                   count fingerprint: Int32 = 0) {
        if count == capacity { grow() }
        let next = count &+ 1
        (entries + count).initialize(to: Entry(kind: kind, flags: flags, count: fingerprint, start: Int32(truncatingIfNeeded: start),
                                               end: Int32(truncatingIfNeeded: end), next: Int32(truncatingIfNeeded: next)))
        count = next
    }

    private mutating func grow() {
        // Every value but the last takes at least two bytes, so n / 2 + 2 entries hold the whole
        // text; capped so that a huge text reserves little, doubling from there.
        let newCapacity = ownsEntries ? capacity * 2 : max(min(n / 2 + 2, 8192), capacity * 2)
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: entries, count: count)
        if ownsEntries { entries.deallocate() }
        entries = grown
        capacity = newCapacity
        ownsEntries = true
    }

    @inline(__always) private mutating func skipWhitespace() {
        if p < n && bytes[p] > 0x20 { return }  // compact JSON: nothing to skip
        while p < n {
            let b = bytes[p]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            p += 1
        }
    }

    @inline(__always) private func plainRunEnd(from: Int) -> Int { PlainRun.end(bytes, from: from, count: n) }

    /// A string at `p` (its opening quote), appended as one entry; a key without escapes also
    /// gets its fingerprint, which member lookups compare first. Inlined into the two places
    /// that scan strings, so the cursor stays in a register; escapes take the slow path.
    @inline(__always) private mutating func scanString(isKey: Bool) throws(JSONParseError) {
        let start = p &+ 1
        let q = plainRunEnd(from: start)
        guard q < n && bytes[q] == UInt8(ascii: "\"") else {  // an escape, a control byte or the end
            try scanEscapedString(start: start, from: q)
            return
        }
        append(.string, 0, start, q, count: isKey ? JSONTape.fingerprint(bytes + start, q &- start) : 0)
        p = q &+ 1
    }

    /// The rest of a string from `from`, the first byte that is not plain text.
    @inline(never) private mutating func scanEscapedString(start: Int, from: Int) throws(JSONParseError) {
        p = from
        while true {
            guard p < n else { throw fail(.unexpectedEnd) }
            let b = bytes[p]
            if b == UInt8(ascii: "\"") { break }
            guard b == UInt8(ascii: "\\") else { throw fail(.controlCharacterInString) }
            p += 1
            guard p < n else { throw fail(.unexpectedEnd) }
            switch bytes[p] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                p += 1
            case UInt8(ascii: "u"):
                guard n - p > 4 else { throw fail(.unexpectedEnd) }
                for k in 1...4 where PercentEncoding.hexValue(bytes[p + k]) == nil {
                    p += k
                    throw fail(.invalidEscape)
                }
                p += 5
            default:
                throw fail(.invalidEscape)
            }
            p = plainRunEnd(from: p)
        }
        append(.string, 1, start, p)
        p += 1
    }

    /// An object key and its colon, leaving `p` at the value.
    @inline(__always) private mutating func scanKey() throws(JSONParseError) {
        skipWhitespace()
        guard p < n else { throw fail(.unexpectedEnd) }
        guard bytes[p] == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter) }
        try scanString(isKey: true)
        try scanColon()
    }

    /// The colon after a key, leaving `p` at the value.
    @inline(__always) private mutating func scanColon() throws(JSONParseError) {
        if p < n && bytes[p] == UInt8(ascii: ":") { p &+= 1; return }  // the compact form
        skipWhitespace()
        guard p < n else { throw fail(.unexpectedEnd) }
        guard bytes[p] == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter) }
        p += 1
    }

    private mutating func scanLiteral(_ literal: StaticString) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        guard n - p >= length else { throw fail(.unexpectedEnd) }
        for i in 0..<length where bytes[p + i] != literal.utf8Start[i] {
            p += i
            throw fail(.unexpectedCharacter)
        }
        p += length
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    private mutating func scanDigits() { while p < n && isDigit(bytes[p]) { p += 1 } }

    private mutating func scanNumber() throws(JSONParseError) {
        let start = p
        var integer = true
        if bytes[p] == UInt8(ascii: "-") { p += 1 }
        guard p < n else { throw fail(.unexpectedEnd) }
        if bytes[p] == UInt8(ascii: "0") {
            p += 1
        } else if isDigit(bytes[p]) {
            scanDigits()
        } else {
            throw fail(.invalidNumber)
        }
        if p < n && bytes[p] == UInt8(ascii: ".") {
            integer = false
            p += 1
            guard p < n, isDigit(bytes[p]) else { throw fail(.invalidNumber) }
            scanDigits()
        }
        if p < n && bytes[p] | 0x20 == UInt8(ascii: "e") {
            integer = false
            p += 1
            if p < n && (bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-")) { p += 1 }
            guard p < n, isDigit(bytes[p]) else { throw fail(.invalidNumber) }
            scanDigits()
        }
        append(.number, integer ? 1 : 0, start, p)
    }

    private mutating func scanDocument() throws(JSONParseError) {
        nextValue: while true {
            // A value is expected at p.
            skipWhitespace()
            guard p < n else { throw fail(.unexpectedEnd) }
            let b = bytes[p]
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b == UInt8(ascii: "{")
                let index = count
                append(isObject ? .object : .array, 0, 0, 0)
                p += 1
                skipWhitespace()
                guard p < n else { throw fail(.unexpectedEnd) }
                if bytes[p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p += 1  // empty: complete at once, fall through to what follows a value
                } else {
                    // The container sits at depth `depth`; its members one deeper.
                    guard depth < maxDepth else { throw fail(.tooDeep) }
                    open[depth] = Int32(truncatingIfNeeded: index)
                    depth += 1
                    if isObject { try scanKey() }
                    continue
                }
            case UInt8(ascii: "\""):
                try scanString(isKey: false)
                // The commonest stretch of a bridge message, members `,"key":"text"` in compact
                // JSON, loops here, skipping the general steps below; they would do the same.
                if depth > 0 {
                    let container = Int(open[depth - 1])
                    if entries[container].kind == .object {
                        while n &- p > 1 && bytes[p] == UInt8(ascii: ",") && bytes[p &+ 1] == UInt8(ascii: "\"") {
                            entries[container].count &+= 1
                            p &+= 1
                            try scanString(isKey: true)  // the key: its quote is at p already
                            try scanColon()
                            guard p < n && bytes[p] == UInt8(ascii: "\"") else { continue nextValue }
                            try scanString(isKey: false)
                        }
                    }
                }
            case UInt8(ascii: "t"): try scanLiteral("true"); append(.bool, 1, 0, 0)
            case UInt8(ascii: "f"): try scanLiteral("false"); append(.bool, 0, 0, 0)
            case UInt8(ascii: "n"): try scanLiteral("null"); append(.null, 0, 0, 0)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
            default: throw fail(.unexpectedCharacter)
            }
            // A value just ended: close containers, or move to the next member or element.
            while true {
                skipWhitespace()
                guard depth > 0 else {
                    guard p == n else { throw fail(.trailingData) }
                    return
                }
                guard p < n else { throw fail(.unexpectedEnd) }
                let top = entries + Int(open[depth &- 1])
                top.pointee.count &+= 1
                let isObject = top.pointee.kind == .object
                let c = bytes[p]
                p &+= 1
                if c == UInt8(ascii: ",") {
                    if isObject { try scanKey() }
                    break
                }
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    p -= 1
                    throw fail(.unexpectedCharacter)
                }
                top.pointee.next = Int32(truncatingIfNeeded: count)
                depth -= 1
            }
        }
    }
}
