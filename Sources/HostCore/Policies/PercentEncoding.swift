/// Percent-decoding as URL parsers do it: `%XX` becomes the byte; a `%` not followed by two hex
/// digits stays as it is; bytes that are not UTF-8 become U+FFFD.
package enum PercentEncoding {
    package static func decode<S: Sequence>(_ utf8: S, plusAsSpace: Bool = false) -> String where S.Element == UInt8 {
        let bytes = Array(utf8)
        guard bytes.contains(UInt8(ascii: "%")) || (plusAsSpace && bytes.contains(UInt8(ascii: "+"))) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < bytes.count,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
