/// Checks that every byte of a text lies in a small set of ASCII ranges, eight bytes at a time.
/// Identifier and token patterns run over every id and token of every message; a byte-by-byte
/// loop costs a dozen instructions a byte, a word about three.
///
/// For a byte `x` below 0x80, `x + (0x80 - lo)` has its top bit set exactly when `x >= lo`,
/// and `x + (0x7F - hi)` exactly when `x > hi`; neither carries into the next byte, so all
/// eight bytes of a word are tested at once. A word with any byte of 0x80 or more fails first.
enum WordClass {
    /// Up to four inclusive ranges; unused ones repeat a used one.
    typealias Ranges = (ClosedRange<UInt8>, ClosedRange<UInt8>, ClosedRange<UInt8>, ClosedRange<UInt8>)

    /// `a-z 0-9 - . : _` — the identifier pattern after its first character.
    static var identifier: Ranges {
        (UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: ":"),
         UInt8(ascii: "-")...UInt8(ascii: "."), UInt8(ascii: "_")...UInt8(ascii: "_"))
    }

    /// `a-z 0-9 -` — the token pattern after its first character.
    static var token: Ranges {
        (UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
         UInt8(ascii: "-")...UInt8(ascii: "-"), UInt8(ascii: "-")...UInt8(ascii: "-"))
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let tops: UInt64 = 0x8080_8080_8080_8080

    /// True when each of the `count` bytes at `base` lies in one of `ranges`. Only those bytes
    /// are read; a text that does not fill its last word is gathered into one in registers from
    /// overlapping reads (copying it to memory and reading a word back would stall on the
    /// store, which measured as the larger part of the check).
    @inline(__always) static func allBytes(_ base: UnsafePointer<UInt8>, _ count: Int, _ ranges: Ranges) -> Bool {
        func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> UInt64 {
            UInt64(UnsafeRawPointer(base + offset).loadUnaligned(as: T.self))
        }
        if count >= 8 {
            var i = 0
            while count - i > 8 {
                guard wordInRanges(load(i, as: UInt64.self), ranges) else { return false }
                i += 8
            }
            return wordInRanges(load(count - 8, as: UInt64.self), ranges)  // the last word, overlapping
        }
        // Fewer than eight bytes: every byte lands in some lane; lanes left over get a byte of
        // the first range, which always passes.
        let padding = ones &* UInt64(ranges.0.lowerBound)
        let word: UInt64
        switch count {
        case 4...7: word = load(0, as: UInt32.self) | load(count - 4, as: UInt32.self) << 32
        case 2...3: word = load(0, as: UInt16.self) | load(count - 2, as: UInt16.self) << 16 | padding & 0xFFFF_FFFF_0000_0000
        case 1: word = UInt64(base[0]) | padding & ~0xFF
        default: return true
        }
        return wordInRanges(word, ranges)
    }

    /// Byte order does not matter: every byte is tested alike.
    @inline(__always) private static func wordInRanges(_ w: UInt64, _ r: Ranges) -> Bool {
        guard w & tops == 0 else { return false }
        let hits = inRange(w, r.0) | inRange(w, r.1) | inRange(w, r.2) | inRange(w, r.3)
        return hits == tops
    }

    /// 0x80 in each byte of `w` that lies in `range`, 0 elsewhere (bytes of `w` below 0x80).
    @inline(__always) private static func inRange(_ w: UInt64, _ range: ClosedRange<UInt8>) -> UInt64 {
        let atLeastLow = w &+ ones &* UInt64(0x80 - range.lowerBound)
        let aboveHigh = w &+ ones &* UInt64(0x7F - range.upperBound)
        return atLeastLow & ~aboveHigh & tops
    }
}
