/// A parsed JSON document as one flat array of entries over its UTF-8 text (a "tape"): one
/// allocation for the whole document, no string is copied until a reader asks for it, and keys
/// are compared as bytes. The bridge decodes every message from a tape; `JSONParser` turns a
/// tape into `JSONValue`s for everything else.
///
/// A tape is a view: it exists only inside `JSONTape.parse`'s closure, over the text's own bytes
/// and an entry buffer that closure owns, so readers copy two pointers and never touch reference
/// counts. Nothing read from it may keep the tape itself.
public struct JSONTape {

    @usableFromInline package enum Kind: UInt8, CustomStringConvertible {
        case null, bool, number, string, array, object

        /// For error messages: "a string", "an array", ...
        @usableFromInline package var description: String {
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

    @usableFromInline struct Entry {
        @usableFromInline package var kind: Kind
        /// string: bit 0 = has escapes; bool: 1 = true; number: bit 0 = integer syntax.
        @usableFromInline var flags: UInt8
        /// object: members; array: elements; an object key without escapes: its `fingerprint`
        /// (other strings: 0, never compared as keys).
        @usableFromInline package var count: Int32
        /// string: first byte after the opening quote; number: first byte.
        @usableFromInline var start: Int32
        /// string: the closing quote; number: one past the last byte.
        @usableFromInline var end: Int32
        /// The entry after this value and everything inside it.
        @usableFromInline var next: Int32
    }

    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let entries: UnsafeBufferPointer<Entry>

    @usableFromInline init(bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<Entry>) {
        self.bytes = bytes; self.entries = entries
    }

    /// Why `parse` failed: the text is not JSON within the limits, or `body` threw.
    @usableFromInline package enum ParseFailure<BodyError: Error>: Error {
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
    @inlinable
    package static func parse<T, E: Error>(_ text: String, maxDepth: Int, _ body: (JSONTape) throws(E) -> T) throws(ParseFailure<E>) -> T {
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

    package var root: Int { 0 }

    @inlinable package func kind(_ i: Int) -> Kind { entries[i].kind }

    @inlinable package func count(_ i: Int) -> Int { Int(entries[i].count) }

    package func kindDescription(_ i: Int) -> String { entries[i].kind.description }

    @inlinable package func bool(_ i: Int) -> Bool? { entries[i].kind == .bool ? entries[i].flags == 1 : nil }

    /// The elements of an array entry, in order.
    @inlinable package func elements(_ i: Int) -> Children { Children(tape: self, first: i + 1, count: count(i), stride: 1) }

    /// The member keys of an object entry; each key's value is the entry after it.
    @inlinable package func memberKeys(_ i: Int) -> Children { Children(tape: self, first: i + 1, count: count(i), stride: 2) }

    /// Entry indices of an array's elements or an object's keys, following `next` links.
    @usableFromInline package struct Children: Sequence {
        @usableFromInline package let tape: JSONTape
        @usableFromInline let first: Int
        @usableFromInline package let count: Int
        @usableFromInline let stride: Int

        @inlinable init(tape: JSONTape, first: Int, count: Int, stride: Int) {
            self.tape = tape; self.first = first; self.count = count; self.stride = stride
        }

        @inlinable package func makeIterator() -> Iterator { Iterator(tape: tape, position: first, remaining: count, stride: stride) }

        @usableFromInline package struct Iterator: IteratorProtocol {
            @usableFromInline package let tape: JSONTape
            @usableFromInline var position: Int
            @usableFromInline var remaining: Int
            @usableFromInline let stride: Int

            @inlinable init(tape: JSONTape, position: Int, remaining: Int, stride: Int) {
                self.tape = tape; self.position = position; self.remaining = remaining; self.stride = stride
            }

            @inlinable package mutating func next() -> Int? {
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
    @inlinable @inline(__always) static func fingerprint(_ text: UnsafePointer<UInt8>, _ length: Int) -> Int32 {
        guard length > 0 else { return 1 << 15 }
        return Int32(truncatingIfNeeded: min(length, 0x7FFF) | 1 << 15 | Int(text[0]) << 16 | Int(text[length - 1] & 0x7F) << 24)
    }

    /// The value of `key` in the object entry `i` (the last one, if the key repeats).
    @inlinable package func member(_ i: Int, _ key: StaticString) -> Int? {
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
    @inlinable @inline(__always) package func isKey(_ keyIndex: Int, _ key: StaticString) -> Bool {
        let e = entries[keyIndex]
        guard e.flags & 1 == 0 else { return escapedKeyEquals(e, key) }
        let length = key.utf8CodeUnitCount
        guard Int(e.end &- e.start) == length else { return false }
        return Self.equalBytes(bytes.baseAddress! + Int(e.start), key.utf8Start, length)
    }

    /// A key written with escapes (rare): decoded, then compared. Kept out of line so that the
    /// decoders that inline `isKey` for every member do not carry its code.
    @usableFromInline @inline(never) func escapedKeyEquals(_ e: Entry, _ key: StaticString) -> Bool {
        Self.unescape(UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])).isExactly(key.description)
    }

    /// True when the string entry `i` spells `key`.
    @inlinable package func keyEquals(_ i: Int, _ key: StaticString) -> Bool { keyEquals(entries[i], key) }

    @inlinable @inline(__always) func keyEquals(_ e: Entry, _ key: StaticString) -> Bool {
        let length = Int(e.end &- e.start)
        if e.flags & 1 != 0 { return escapedKeyEquals(e, key) }
        guard length == key.utf8CodeUnitCount else { return false }
        let a = bytes.baseAddress! + Int(e.start), b = key.utf8Start
        for j in 0..<length where a[j] != b[j] { return false }
        return true
    }

    /// The number entry `i`. Integers of up to 15 digits skip text conversion.
    package func number(_ i: Int) -> Double {
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

    /// The entry `i` and everything inside it as a `JSONValue`.
    package func value(_ i: Int) -> JSONValue {
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
