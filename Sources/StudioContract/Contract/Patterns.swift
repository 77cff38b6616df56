import HostCore

/// The lexical rules of the bridge contract (§3), checked over UTF-8 bytes without regular
/// expressions: these run for every field of every message.
public enum Patterns {
    /// How the contract's lengths ("≤ 2048 characters", "1–200") are measured: as Tilecast's iOS
    /// app measures them (§5), in Swift `Character`s — extended grapheme clusters: `\r\n` is one,
    /// `e` + U+0301 is one, an emoji with a skin-tone modifier is one. Matching rules (patterns,
    /// "contains", controls) are a different rule and stay on scalars.
    public static func length(_ s: String) -> Int { s.count }

    /// `length(s)` is within `range`, counted as the phone counts (see `length`). A character is
    /// at least one scalar and a scalar at least one byte, so a character count is never more
    /// than the scalar count, nor that more than the byte count: the byte count settles short
    /// texts (nearly all of them), the scalar count most others, and only a text with more
    /// scalars than the bound has its graphemes counted — and only up to one past the bound.
    @inline(__always) public static func hasLength(_ s: String, in range: ClosedRange<Int>) -> Bool {
        let bytes = s.utf8.count
        if bytes <= range.upperBound && range.lowerBound <= 1 { return bytes > 0 || range.lowerBound == 0 }
        return fitsLength(s, bytes: bytes, in: range)
    }

    /// The slower half of `hasLength`: scalars first, then graphemes when they must be.
    static func fitsLength(_ s: String, bytes: Int, in range: ClosedRange<Int>) -> Bool {
        if range.lowerBound <= 1 && scalarCount(s) <= range.upperBound { return bytes > 0 || range.lowerBound == 0 }
        var count = 0
        for _ in s {
            count += 1
            if count > range.upperBound { return false }
        }
        return count >= range.lowerBound
    }

    /// Every scalar has exactly one UTF-8 byte that is not a continuation byte (`10xxxxxx`).
    static func scalarCount(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { bytes in
            var count = 0
            for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }

    /// `^[a-z0-9][a-z0-9._:-]*$`, 1...maxLength — presentation, alert, action, menu, request,
    /// group and destination ids.
    public static func isIdentifier(_ s: String, maxLength: Int = 64) -> Bool {
        var s = s
        return s.withUTF8 { isIdentifier($0, maxLength: maxLength) }
    }

    /// Every byte must be ASCII, so the byte count is the character count: the length is
    /// settled first, then the first byte, then all bytes eight at a time (`WordClass`).
    static func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, maxLength: Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= maxLength, isLowercaseOrDigit(base[0]) else { return false }
        return WordClass.allBytes(base, bytes.count, WordClass.identifier)
    }

    /// `^[a-z][a-z0-9-]*$`, 1...maxLength — icon tokens (40), size and feedback tokens (32).
    public static func isToken(_ s: String, maxLength: Int) -> Bool {
        var s = s
        return s.withUTF8 { isToken($0, maxLength: maxLength) }
    }

    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>, maxLength: Int) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= maxLength, base[0] &- UInt8(ascii: "a") < 26 else { return false }
        return WordClass.allBytes(base, bytes.count, WordClass.token)
    }

    @inline(__always) static func isLowercaseOrDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
    }

    /// `^[a-z][a-z0-9-]*(/[a-z][a-z0-9-]*)+$`, 3...64 — a message type.
    public static func isMessageType(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isMessageType($0) }
    }

    static func isMessageType(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var count = 0
        var segmentLength = 0
        var segments = 1
        for byte in bytes {
            count += 1
            if count > 64 { return false }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): segmentLength += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                if segmentLength == 0 { return false }
                segmentLength += 1
            case UInt8(ascii: "/"):
                if segmentLength == 0 { return false }
                segments += 1
                segmentLength = 0
            default: return false
            }
        }
        return count >= 3 && segments >= 2 && segmentLength > 0
    }

    /// A canonical UUID (8-4-4-4-12 hex digits, either case).
    public static func isUUID(_ s: String) -> Bool {
        let utf8 = s.utf8
        guard utf8.count == 36 else { return false }
        for (i, byte) in utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHexDigit(byte) {
                return false
            }
        }
        return true
    }

    @inline(__always) static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"): return true
        default: return false
        }
    }

    /// True for a scalar that a path or URL must never carry (§5): white space as JavaScript's
    /// `\s` has it, a control character (Cc), or a backslash. U+200B is neither white space nor
    /// a control character, and is allowed.
    @inline(__always) static func isForbiddenInPath(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x21 || v == 0x5C { return true }  // C0 controls, space, backslash
        if v < 0x7F { return false }
        if v <= 0x9F { return true }  // DEL and the C1 controls
        return ScalarText.isWhitespace(scalar)
    }

    /// True when the string has white space, a control character or a backslash anywhere.
    public static func hasForbiddenCharacter(_ s: String) -> Bool {
        for scalar in s.unicodeScalars where isForbiddenInPath(scalar) { return true }
        return false
    }

    /// The first value that occurs twice, or nil. Linear for the short lists messages carry.
    static func firstRepeated(_ values: [String]) -> String? {
        if values.count > 32 {
            var seen = Set<String>()
            for value in values where !seen.insert(value).inserted { return value }
            return nil
        }
        for i in values.indices {
            for j in values.indices where j > i && values[i] == values[j] { return values[i] }
        }
        return nil
    }
}
