/// Finding where a run of string bytes that JSON writes as they are ends: the parser scans
/// every string with it for its closing quote, and the writer every string it escapes.
enum PlainRun {
    /// The offset of the first quote, backslash or control byte at or after `from` (or
    /// `count`), eight bytes at a time: a byte is flagged when it equals `"` or `\` or is below
    /// 0x20, and the lowest flagged byte of a word is always a true match. Inlined, so the loop
    /// works on the caller's cursor in registers.
    @inline(__always) static func end(_ bytes: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var q = from
        while n &- q >= 8 {
            let w = UInt64(littleEndian: UnsafeRawPointer(bytes + q).loadUnaligned(as: UInt64.self))
            let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
            let hits = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- ones &* 0x20) & ~w) & highs
            if hits != 0 { return q &+ hits.trailingZeroBitCount >> 3 }
            q &+= 8
        }
        while q < n {
            let b = bytes[q]
            if b < 0x20 || b == 0x22 || b == 0x5C { return q }
            q &+= 1
        }
        return q
    }
}
