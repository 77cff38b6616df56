/// Reading strings off a tape: making Swift strings of them, matching them, comparing bytes.
/// Every field of every message passes here, so the common cases (short, unescaped) are the
/// fast ones. The readers a decoder calls per field are inlinable: the decoders live in the
/// contracts' targets, and a call per field (with its closure context for `makeString`) cost
/// the codec about a tenth after the split.
extension JSONTape {
    /// The string entry `i` as a Swift string, escapes decoded.
    @inlinable package func string(_ i: Int) -> String {
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
    @inlinable @inline(__always) func makeString(_ raw: UnsafeBufferPointer<UInt8>) -> String {
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
    @inlinable package func withUTF8<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let e = entries[i]
        guard e.flags & 1 == 0 else {
            var decoded = string(i)
            return decoded.withUTF8(body)
        }
        return body(UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)]))
    }

    /// The string entry `i` when its decoded text satisfies `pattern` (checked on the bytes, before
    /// any string is made), else nil.
    @inlinable @inline(__always) package func patternString(_ i: Int, _ pattern: (UnsafeBufferPointer<UInt8>) -> Bool) -> String? {
        let e = entries[i]
        guard e.flags & 1 == 0 else {
            var decoded = string(i)
            return decoded.withUTF8(pattern) ? decoded : nil
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])
        return pattern(raw) ? makeString(raw) : nil
    }

    /// The case of `E` whose raw value the string entry `i` spells, compared as bytes, escapes
    /// decoded first. (Not `E(rawValue:)`: that compares by canonical equivalence, where
    /// `"\u212A"`, KELVIN SIGN, is `"K"` and `"e\u0301"` is `"é"`; CONTRACT.md §5.)
    @inlinable package func matchCase<E: RawRepresentable & CaseIterable>(_ i: Int, of type: E.Type) -> E? where E.RawValue == String {
        let e = entries[i]
        guard e.flags & 1 == 0 else {
            var decoded = string(i)
            return decoded.withUTF8 { Self.matchCase($0, of: E.self) }
        }
        return Self.matchCase(UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)]), of: E.self)
    }

    @inlinable @inline(__always) package static func matchCase<E: RawRepresentable & CaseIterable>(_ raw: UnsafeBufferPointer<UInt8>, of type: E.Type) -> E?
    where E.RawValue == String {
        for candidate in E.allCases {
            var name = candidate.rawValue
            guard name.utf8.count == raw.count else { continue }
            if raw.isEmpty || name.withUTF8({ equalBytes($0.baseAddress!, raw.baseAddress!, raw.count) }) { return candidate }
        }
        return nil
    }

    /// True when the `n` bytes at `a` and `b` are equal. Keys are short: from 4 bytes on, two
    /// overlapping words (the first and the last) settle up to twice their size.
    @inlinable @inline(__always) static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
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

    /// Decodes escapes; a lone surrogate becomes U+FFFD. The builder already checked the syntax.
    @usableFromInline static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
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
}
