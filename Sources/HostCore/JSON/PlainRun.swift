/// Finding where a run of string bytes that JSON writes as they are ends: the parser scans
/// every string with it for its closing quote, and the writer every string it escapes.
enum PlainRun {
    /// The offset of the first quote, backslash or control byte at or after `from` (or
    /// `count`), eight bytes at a time: a byte is flagged when it equals `"` or `\` or is below
    /// 0x20, and the lowest flagged byte of a word is always a true match. Inlined, so the loop
    /// works on the caller's cursor in registers.
    @inline(__always) static func end(_ bytes: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func flagged(_ w: UInt64) -> UInt64 {
            let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
            return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- ones &* 0x20) & ~w) & highs
        }
        func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> UInt64 {
            UInt64(T(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: T.self)))
        }
        var q = from
        while n &- q >= 8 {
            let hits = flagged(load(q, as: UInt64.self))
            if hits != 0 { return q &+ hits.trailingZeroBitCount >> 3 }
            q &+= 8
        }
        // Fewer than eight bytes left (the end of a text, or a short string the writer escapes):
        // the first four (or two) in the low lanes, the last four (or two) above them, read only
        // within the text. The lowest flagged lane is still the first flagged byte: a later
        // lane never holds an earlier byte than a flagged lower one.
        let left = n &- q
        let padding: UInt64 = ones &* 0x61  // 'a', never flagged
        switch left {
        case 4...7:
            let hits = flagged(load(q, as: UInt32.self) | load(n &- 4, as: UInt32.self) << 32)
            guard hits != 0 else { return n }
            let lane = hits.trailingZeroBitCount >> 3
            return lane < 4 ? q &+ lane : n &- 4 &+ (lane &- 4)
        case 2...3:
            let word = load(q, as: UInt16.self) | load(n &- 2, as: UInt16.self) << 16 | padding & 0xFFFF_FFFF_0000_0000
            let hits = flagged(word)
            guard hits != 0 else { return n }
            let lane = hits.trailingZeroBitCount >> 3
            return lane < 2 ? q &+ lane : n &- 2 &+ (lane &- 2)
        case 1:
            let b = bytes[q]
            return b < 0x20 || b == 0x22 || b == 0x5C ? q : n
        default:
            return q
        }
    }
}
