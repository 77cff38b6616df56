/// Compact JSON text, keys in the order the value holds them. Used for every message the host
/// sends and every reply, so output is deterministic and needs no Foundation round trip.
public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        var out = ByteBuffer(capacity: 256)
        write(value, into: &out)
        return out.finish { String(decoding: $0, as: UTF8.self) }
    }

    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out = ByteBuffer(capacity: 256)
        write(value, into: &out)
        return out.finish { Array($0) }
    }

    static func write(_ value: JSONValue, into out: inout ByteBuffer) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for i in items.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(items[i], into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            let members = object.members
            for i in members.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(members[i].key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(members[i].value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeNumber(_ n: Double, into out: inout ByteBuffer) {
        guard n.isFinite else { out.append("null"); return }  // as JSON.stringify
        if n.rounded(.towardZero) == n && abs(n) < 1e15 {
            var v = Int64(n)
            if v == 0 { out.append(UInt8(ascii: "0")); return }
            if v < 0 { out.append(UInt8(ascii: "-")); v = -v }
            var digits: (UInt64, UInt64) = (0, 0)  // up to 16 digits, written backwards
            var count = 0
            withUnsafeMutableBytes(of: &digits) { d in
                while v > 0 { d[count] = UInt8(v % 10) + UInt8(ascii: "0"); v /= 10; count += 1 }
                for i in stride(from: count - 1, through: 0, by: -1) { out.append(d[i]) }
            }
        } else {
            var text = n.description
            text.withUTF8 { out.append($0) }
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    /// Quote, backslash and control characters.
    private static let needsEscape: [Bool] = (0..<256).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }

    static func writeString(_ s: String, into out: inout ByteBuffer) {
        var s = s
        s.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            var runStart = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard needsEscape[Int(byte)] else { continue }
                // Copy the clean run before this byte in one go, then its escape.
                out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append("u00")
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                }
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
            out.append(UInt8(ascii: "\""))
        }
    }
}

/// A growable byte buffer without Array's per-append checks, for the writer's inner loops.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Hands the written bytes to `body` and frees the buffer.
    consuming func finish<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        body(UnsafeBufferPointer(start: base, count: count))
    }
}
