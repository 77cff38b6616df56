/// A parsed JSON document as one flat array of entries over its UTF-8 text (a "tape"): one
/// allocation for the whole document, no string is copied until a reader asks for it, and keys
/// are compared as bytes. The bridge decodes every message from a tape; `JSONParser` turns a
/// tape into `JSONValue`s for everything else.
///
/// A tape is a view: it exists only inside `JSONTape.parse`'s closure, over the text's own bytes
/// and an entry buffer that closure owns, so readers copy two pointers and never touch reference
/// counts. Nothing read from it may keep the tape itself.
public struct JSONTape {

    enum Kind: UInt8, CustomStringConvertible {
        case null, bool, number, string, array, object

        /// For error messages: "a string", "an array", ...
        var description: String {
            switch self {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    struct Entry {
        var kind: Kind
        /// string: bit 0 = has escapes; bool: 1 = true; number: bit 0 = integer syntax.
        var flags: UInt8
        /// object: members; array: elements; an object key without escapes: its `fingerprint`
        /// (other strings: 0, never compared as keys).
        var count: Int32
        /// string: first byte after the opening quote; number: first byte.
        var start: Int32
        /// string: the closing quote; number: one past the last byte.
        var end: Int32
        /// The entry after this value and everything inside it.
        var next: Int32
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let entries: UnsafeBufferPointer<Entry>

    /// Why `parse` failed: the text is not JSON within the limits, or `body` threw.
    enum ParseFailure<BodyError: Error>: Error {
        case notJSON(JSONParseError)
        case body(BodyError)
    }

    /// Parses `text` and runs `body` with its tape. Value depth: the document is 0, a value
    /// inside an array or object is one deeper; a value deeper than `maxDepth` is refused, so a
    /// container at `maxDepth` must be empty.
    ///
    /// `String.withUTF8` passes on only untyped errors, so failures cross it as one and are
    /// recovered below; on success `body`'s value comes straight back, not wrapped in a
    /// `Result` at each level (each wrap was a copy of a message, measurably so).
    static func parse<T, E: Error>(_ text: String, maxDepth: Int, _ body: (JSONTape) throws(E) -> T) throws(ParseFailure<E>) -> T {
        var text = text
        do {
            return try text.withUTF8 { bytes in
                guard bytes.count < Int(Int32.max) else { throw ParseFailure<E>.notJSON(JSONParseError(reason: .tooLarge, offset: 0)) }
                return try JSONTapeBuilder.withEntries(bytes, maxDepth: maxDepth) { (entries) throws(E) -> T in
                    try body(JSONTape(bytes: bytes, entries: entries))
                }
            }
        } catch let failure as ParseFailure<E> {
            throw failure
        } catch {
            preconditionFailure("parse throws only ParseFailure, not \(error)")
        }
    }

    // MARK: reading

    var root: Int { 0 }

    func kind(_ i: Int) -> Kind { entries[i].kind }

    func count(_ i: Int) -> Int { Int(entries[i].count) }

    func kindDescription(_ i: Int) -> String { entries[i].kind.description }

    func bool(_ i: Int) -> Bool? { entries[i].kind == .bool ? entries[i].flags == 1 : nil }

    /// The elements of an array entry, in order.
    func elements(_ i: Int) -> Children { Children(tape: self, first: i + 1, count: count(i), stride: 1) }

    /// The member keys of an object entry; each key's value is the entry after it.
    func memberKeys(_ i: Int) -> Children { Children(tape: self, first: i + 1, count: count(i), stride: 2) }

    /// Entry indices of an array's elements or an object's keys, following `next` links.
    struct Children: Sequence {
        let tape: JSONTape
        let first: Int
        let count: Int
        let stride: Int

        func makeIterator() -> Iterator { Iterator(tape: tape, position: first, remaining: count, stride: stride) }

        struct Iterator: IteratorProtocol {
            let tape: JSONTape
            var position: Int
            var remaining: Int
            let stride: Int

            mutating func next() -> Int? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                let current = position
                // For an object, skip the key and then the value's subtree.
                position = stride == 2 ? Int(tape.entries[current + 1].next) : Int(tape.entries[current].next)
                return current
            }
        }
    }

    /// Length and first and last bytes of a text in one word, so that looking up a key compares
    /// one number per member before it compares any bytes. Never 0 for an unescaped string.
    @inline(__always) static func fingerprint(_ text: UnsafePointer<UInt8>, _ length: Int) -> Int32 {
        guard length > 0 else { return 1 << 15 }
        return Int32(truncatingIfNeeded: min(length, 0x7FFF) | 1 << 15 | Int(text[0]) << 16 | Int(text[length - 1] & 0x7F) << 24)
    }

    /// The value of `key` in the object entry `i` (the last one, if the key repeats).
    func member(_ i: Int, _ key: StaticString) -> Int? {
        let length = key.utf8CodeUnitCount, wanted = key.utf8Start
        let print = Self.fingerprint(wanted, length)
        let text = bytes.baseAddress!
        var keyIndex = i + 1
        var found: Int? = nil
        var remaining = entries[i].count
        while remaining > 0 {
            let e = entries[keyIndex]
            if e.count == print && Int(e.end &- e.start) == length {
                let a = text + Int(e.start)
                var j = 1
                while j < length && a[j] == wanted[j] { j += 1 }
                if j >= length { found = keyIndex + 1 }
            } else if e.flags & 1 != 0 && keyEquals(e, key) {
                found = keyIndex + 1
            }
            keyIndex = Int(entries[keyIndex + 1].next)
            remaining -= 1
        }
        return found
    }

    /// True when the key entry `keyIndex` spells `key`: for a decoder that walks an object's
    /// members once and dispatches on each key. A key of another length (most of them) is
    /// told apart by one compare; an escaped key (rare) is decoded first.
    @inline(__always) func isKey(_ keyIndex: Int, _ key: StaticString) -> Bool {
        let e = entries[keyIndex]
        guard e.flags & 1 == 0 else { return keyEquals(e, key) }
        let length = key.utf8CodeUnitCount
        guard Int(e.end &- e.start) == length else { return false }
        return Self.equalBytes(bytes.baseAddress! + Int(e.start), key.utf8Start, length)
    }

    /// True when the `n` bytes at `a` and `b` are equal. Keys are short: from 4 bytes on, two
    /// overlapping words (the first and the last) settle up to twice their size.
    @inline(__always) static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        func load<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ offset: Int, as: T.Type) -> T {
            UnsafeRawPointer(p + offset).loadUnaligned(as: T.self)
        }
        switch n {
        case 8...16:
            return load(a, 0, as: UInt64.self) == load(b, 0, as: UInt64.self)
                && load(a, n - 8, as: UInt64.self) == load(b, n - 8, as: UInt64.self)
        case 4..<8:
            return load(a, 0, as: UInt32.self) == load(b, 0, as: UInt32.self)
                && load(a, n - 4, as: UInt32.self) == load(b, n - 4, as: UInt32.self)
        default:
            var j = 0
            while j < n && a[j] == b[j] { j += 1 }
            return j == n
        }
    }

    /// True when the string entry `i` spells `key`.
    func keyEquals(_ i: Int, _ key: StaticString) -> Bool { keyEquals(entries[i], key) }

    @inline(__always) private func keyEquals(_ e: Entry, _ key: StaticString) -> Bool {
        let length = Int(e.end &- e.start)
        if e.flags & 1 != 0 {
            return Self.unescape(UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])) == key.description
        }
        guard length == key.utf8CodeUnitCount else { return false }
        let a = bytes.baseAddress! + Int(e.start), b = key.utf8Start
        for j in 0..<length where a[j] != b[j] { return false }
        return true
    }

    /// The string entry `i` as a Swift string, escapes decoded.
    func string(_ i: Int) -> String {
        let e = entries[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])
        return e.flags & 1 == 0 ? makeString(raw) : Self.unescape(raw)
    }

    /// `raw` (UTF-8 without escapes, a slice of this tape's text) as a Swift string. Up to 15
    /// bytes — nearly every key, id, token and short title — is a small string, stored inline,
    /// which `String(unsafeUninitializedCapacity:)` builds in place for about two thirds of the
    /// work of `String(decoding:as:)` (that one checks for ASCII in a pass of its own first).
    ///
    /// Up to 8 bytes, the text is copied as one 8-byte word, read from the tape when the text
    /// goes on that far (the bytes past `raw` are the closing quote and what follows, never
    /// part of the string: only `raw.count` bytes are reported initialised). One whole-word
    /// store is what the string's own word-sized reads of the buffer can take straight from
    /// the store buffer; a byte-wise copy makes them wait for it to drain, which measured as the
    /// larger part of the cost of a short string. Invalid UTF-8 is repaired the same way on
    /// every path (a tape's text is valid anyway).
    @inline(__always) func makeString(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        let count = raw.count
        if count <= 8, let source = raw.baseAddress, bytes.baseAddress! + bytes.count - source >= 8 {
            let word = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
            return String(unsafeUninitializedCapacity: 8) { buffer in
                UnsafeMutableRawPointer(buffer.baseAddress!).storeBytes(of: word, as: UInt64.self)
                return count
            }
        }
        guard count <= 15 else { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: count) { $0.initialize(fromContentsOf: raw) }
    }

    /// `body` run on the decoded UTF-8 of the string entry `i`: the text's own bytes when it
    /// has no escapes, so no string is made.
    func withUTF8<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let e = entries[i]
        guard e.flags & 1 == 0 else {
            var decoded = string(i)
            return decoded.withUTF8(body)
        }
        return body(UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)]))
    }

    /// The string entry `i` when its decoded text satisfies `pattern` (checked on the bytes, before
    /// any string is made), else nil.
    @inline(__always) func patternString(_ i: Int, _ pattern: (UnsafeBufferPointer<UInt8>) -> Bool) -> String? {
        let e = entries[i]
        guard e.flags & 1 == 0 else {
            var decoded = string(i)
            return decoded.withUTF8(pattern) ? decoded : nil
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])
        return pattern(raw) ? makeString(raw) : nil
    }

    /// The case of `E` whose raw value the string entry `i` spells, compared as bytes.
    func matchCase<E: RawRepresentable & CaseIterable>(_ i: Int, of type: E.Type) -> E? where E.RawValue == String {
        let e = entries[i]
        guard e.flags & 1 == 0 else { return E(rawValue: string(i)) }
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])
        for candidate in E.allCases {
            var name = candidate.rawValue
            guard name.utf8.count == raw.count else { continue }
            if raw.isEmpty || name.withUTF8({ Self.equalBytes($0.baseAddress!, raw.baseAddress!, raw.count) }) { return candidate }
        }
        return nil
    }

    /// The number entry `i`. Integers of up to 15 digits skip text conversion.
    func number(_ i: Int) -> Double {
        let e = entries[i]
        let start = Int(e.start), end = Int(e.end)
        if e.flags & 1 != 0 && end - start <= 15 {
            var value: Int64 = 0
            var j = start
            let negative = bytes[j] == UInt8(ascii: "-")
            if negative { j += 1 }
            while j < end { value = value * 10 + Int64(bytes[j] - UInt8(ascii: "0")); j += 1 }
            return Double(negative ? -value : value)
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) ?? .nan
    }

    /// Decodes escapes; a lone surrogate becomes U+FFFD. The builder already checked the syntax.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in at..<at + 4 { v = v << 4 | UInt32(PercentEncoding.hexValue(raw[k]) ?? 0) }
            return v
        }
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); i += 1; continue }
            let escape = raw[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = hex4(i)
                i += 4
                if (0xD800...0xDBFF).contains(code) {
                    if i + 6 <= raw.count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u"),
                       case let low = hex4(i + 2), (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    } else {
                        code = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(code) {
                    code = 0xFFFD
                }
                UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}") { out.append($0) }
            default: out.append(escape)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The entry `i` and everything inside it as a `JSONValue`.
    func value(_ i: Int) -> JSONValue {
        switch entries[i].kind {
        case .null: return .null
        case .bool: return .bool(entries[i].flags == 1)
        case .number: return .number(number(i))
        case .string: return .string(string(i))
        case .array: return .array(elements(i).map(value))
        case .object:
            var object = JSONObject(capacity: count(i))
            var index: [String: Int]? = nil  // for large objects, keeps repeated-key checks linear
            for keyIndex in memberKeys(i) {
                let key = string(keyIndex), v = value(keyIndex + 1)
                if object.count < 16 && index == nil {
                    object[key] = v  // a repeated key keeps its first position and last value
                } else {
                    if index == nil { index = Dictionary(object.keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { $1 }) }
                    if index![key] != nil { object[key] = v } else {
                        index![key] = object.count
                        object.appendUnique(key, v)
                    }
                }
            }
            return .object(object)
        }
    }
}
