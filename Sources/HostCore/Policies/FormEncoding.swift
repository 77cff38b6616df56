/// the host writes into a query.
public enum FormEncoding {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public static func items(_ query: String) -> [Item] {
        query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { item in
            let pieces = item.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return Item(name: PercentEncoding.decode(pieces[0], plusAsSpace: true),
                        value: pieces.count > 1 ? PercentEncoding.decode(pieces[1], plusAsSpace: true) : "")
        }
    }

    /// Percent-escapes everything but unreserved characters (RFC 3986 §2.3).
    public static func escape(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }
}
