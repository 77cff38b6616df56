/// Builds a tape in one pass: a strict RFC 8259 scanner with an explicit stack of open
/// containers, so there is no recursion and the cursor stays in a register.
enum JSONTapeBuilder {
    typealias Entry = JSONTape.Entry

    /// True for the bytes that end a plain run inside a string: quote, backslash, controls.
    private static let stopBytes: [Bool] = (0..<256).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }

    /// Entries written through a pointer, grown by doubling: no per-append checks but the bound.
    struct EntryBuffer: ~Copyable {
        var base: UnsafeMutablePointer<Entry>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 8)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        @inline(__always) mutating func append(_ entry: Entry) {
            if count == capacity {
                let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
                base = grown
                capacity *= 2
            }
            (base + count).initialize(to: entry)
            count += 1
        }

        subscript(i: Int) -> Entry {
            get { base[i] }
            set { base[i] = newValue }
        }

        func finish() -> [Entry] { Array(UnsafeBufferPointer(start: base, count: count)) }
    }

    static func build(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONParseError) -> [Entry] {
        // Every value but the last takes at least two bytes; capped so a huge text reserves little.
        var entries = EntryBuffer(capacity: min(bytes.count / 2 + 2, 8192))
        var open: [Int] = []  // entry index of each open container, innermost last
        let n = bytes.count
        var p = 0
        let stops = stopBytes

        func fail(_ reason: JSONParseError.Reason) -> JSONParseError { JSONParseError(reason: reason, offset: p) }

        func skipWhitespace() {
            while p < n {
                let b = bytes[p]
                guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
                p += 1
            }
        }

        func append(_ kind: JSONTape.Kind, _ flags: UInt8, _ start: Int, _ end: Int) {
            entries.append(Entry(kind: kind, flags: flags, count: 0, start: Int32(truncatingIfNeeded: start),
                                 end: Int32(truncatingIfNeeded: end), next: Int32(truncatingIfNeeded: entries.count + 1)))
        }

        /// A string at `p` (its opening quote), appended as one entry.
        func scanString() throws(JSONParseError) {
            p += 1
            let start = p
            var escaped = false
            while true {
                while p < n && !stops[Int(bytes[p])] { p += 1 }
                guard p < n else { throw fail(.unexpectedEnd) }
                let b = bytes[p]
                if b == UInt8(ascii: "\"") { break }
                guard b == UInt8(ascii: "\\") else { throw fail(.controlCharacterInString) }
                escaped = true
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
            }
            append(.string, escaped ? 1 : 0, start, p)
            p += 1
        }

        /// An object key and its colon, leaving `p` at the value.
        func scanKey() throws(JSONParseError) {
            skipWhitespace()
            guard p < n else { throw fail(.unexpectedEnd) }
            guard bytes[p] == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter) }
            try scanString()
            skipWhitespace()
            guard p < n else { throw fail(.unexpectedEnd) }
            guard bytes[p] == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter) }
            p += 1
        }

        func scanLiteral(_ literal: StaticString) throws(JSONParseError) {
            let count = literal.utf8CodeUnitCount
            guard n - p >= count else { throw fail(.unexpectedEnd) }
            for i in 0..<count where bytes[p + i] != literal.utf8Start[i] {
                p += i
                throw fail(.unexpectedCharacter)
            }
            p += count
        }

        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

        func scanNumber() throws(JSONParseError) {
            let start = p
            var integer = true
            if bytes[p] == UInt8(ascii: "-") { p += 1 }
            guard p < n else { throw fail(.unexpectedEnd) }
            if bytes[p] == UInt8(ascii: "0") {
                p += 1
            } else if isDigit(bytes[p]) {
                while p < n && isDigit(bytes[p]) { p += 1 }
            } else {
                throw fail(.invalidNumber)
            }
            if p < n && bytes[p] == UInt8(ascii: ".") {
                integer = false
                p += 1
                guard p < n, isDigit(bytes[p]) else { throw fail(.invalidNumber) }
                while p < n && isDigit(bytes[p]) { p += 1 }
            }
            if p < n && bytes[p] | 0x20 == UInt8(ascii: "e") {
                integer = false
                p += 1
                if p < n && (bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-")) { p += 1 }
                guard p < n, isDigit(bytes[p]) else { throw fail(.invalidNumber) }
                while p < n && isDigit(bytes[p]) { p += 1 }
            }
            append(.number, integer ? 1 : 0, start, p)
        }

        while true {
            // A value is expected at p.
            skipWhitespace()
            guard p < n else { throw fail(.unexpectedEnd) }
            let b = bytes[p]
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b == UInt8(ascii: "{")
                let index = entries.count
                append(isObject ? .object : .array, 0, 0, 0)
                p += 1
                skipWhitespace()
                guard p < n else { throw fail(.unexpectedEnd) }
                if bytes[p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p += 1  // empty: complete at once, fall through to what follows a value
                } else {
                    // The container sits at depth open.count; its members one deeper.
                    guard open.count < maxDepth else { throw fail(.tooDeep) }
                    open.append(index)
                    if isObject { try scanKey() }
                    continue
                }
            case UInt8(ascii: "\""): try scanString()
            case UInt8(ascii: "t"): try scanLiteral("true"); append(.bool, 1, 0, 0)
            case UInt8(ascii: "f"): try scanLiteral("false"); append(.bool, 0, 0, 0)
            case UInt8(ascii: "n"): try scanLiteral("null"); append(.null, 0, 0, 0)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
            default: throw fail(.unexpectedCharacter)
            }
            // A value just ended: close containers, or move to the next member or element.
            while true {
                skipWhitespace()
                guard let top = open.last else {
                    guard p == n else { throw fail(.trailingData) }
                    return entries.finish()
                }
                guard p < n else { throw fail(.unexpectedEnd) }
                entries[top].count += 1
                let isObject = entries[top].kind == .object
                let c = bytes[p]
                p += 1
                if c == UInt8(ascii: ",") {
                    if isObject { try scanKey() }
                    break
                }
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    p -= 1
                    throw fail(.unexpectedCharacter)
                }
                entries[top].next = Int32(truncatingIfNeeded: entries.count)
                open.removeLast()
            }
        }
    }
}
