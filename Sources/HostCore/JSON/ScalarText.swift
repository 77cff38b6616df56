/// The character classes and text operations of the contract's rules (CONTRACT.md §5). Every
/// rule works on Unicode scalars, never on Swift `Character`s (grapheme clusters): a combining
/// mark, a zero-width joiner or a variation selector after `/`, `@`, `_`, `=`, `&` or `;` joins
/// that character into one `Character`, so `split`, `contains`, `hasPrefix`, `firstIndex(of:)`
/// and `==` on `String` would not see it (and `==` compares by canonical equivalence, so
/// U+212A KELVIN SIGN equals `K`). The delimiters are ASCII, and an ASCII byte of UTF-8 is
/// always a whole scalar, so the rules look for them in `utf8`; equal scalars are equal bytes.
package enum ScalarText {
    /// JavaScript's `\s`, the contract's white space: U+0009–U+000D, U+0020, U+00A0, U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF. A fixed list, so the
    /// rule does not move with the Unicode tables of the Swift runtime. Two deliberate gaps
    /// next to Unicode's White_Space: U+0085 is not in it (JavaScript leaves it out, though the
    /// contract glosses the set as "White_Space plus U+FEFF"; it is a control character and
    /// forbidden as one wherever white space is), and U+180E and U+200B are neither.
    @inline(__always) package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// General category Cc: U+0000–U+001F and U+007F–U+009F.
    @inline(__always) package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// An ASCII letter `A`–`Z` as its lowercase byte; every other byte as it is.
    @inline(__always) package static func foldASCII(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// True when `needle` (lowercase ASCII) occurs in `bytes` with ASCII letters of either case.
    static func containsFoldingASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= bytes.count {
            if foldASCII(bytes[i]) == first {
                var j = 1
                while j < needle.count && foldASCII(bytes[i + j]) == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}

extension StringProtocol {
    /// The same scalars in the same order. (`==` on strings is canonical equivalence.)
    @inline(__always) package func isExactly(_ other: some StringProtocol) -> Bool { utf8.elementsEqual(other.utf8) }

    /// ASCII letters lowercased, every other scalar kept: the contract's case folding. (Swift's
    /// `lowercased()` is full Unicode lowercasing: KELVIN SIGN becomes `k`, `İ` becomes `i̇`.)
    package func asciiLowercased() -> String {
        guard utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else { return String(self) }
        return String(decoding: utf8.map(ScalarText.foldASCII), as: UTF8.self)
    }

    /// True when the text starts with `prefix` (lowercase ASCII), its ASCII letters in either
    /// case and every other scalar exactly.
    func hasPrefixFoldingASCII(_ prefix: String) -> Bool {
        var text = utf8.makeIterator()
        for byte in prefix.utf8 {
            guard let next = text.next(), ScalarText.foldASCII(next) == byte else { return false }
        }
        return true
    }

    /// Where `needle` first occurs, scalar for scalar.
    package func firstScalarRange(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return nil }
        var i = utf8.startIndex
        while i != utf8.endIndex {
            if utf8[i...].starts(with: pattern) { return i..<utf8.index(i, offsetBy: pattern.count) }
            utf8.formIndex(after: &i)
        }
        return nil
    }

    /// At most the first `count` scalars: a bound on text shown to people, where `prefix(_:)`
    /// would count grapheme clusters, which have no bound of their own.
    package func prefix(scalars count: Int) -> String {
        String(String.UnicodeScalarView(unicodeScalars.prefix(count)))
    }
}

extension String {
    /// Without leading and trailing white space, as JavaScript's `trim()` removes it
    /// (`ScalarText.isWhitespace`).
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !ScalarText.isWhitespace($0) }),
              let end = scalars.lastIndex(where: { !ScalarText.isWhitespace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}

extension Unicode.Scalar {
    package var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    package var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
    package var isASCIIHexDigit: Bool { isASCIIDigit || (0x41...0x46).contains(value) || (0x61...0x66).contains(value) }
}

extension StringProtocol {
    /// The text without white space (Unicode's) at either end.
    package func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
