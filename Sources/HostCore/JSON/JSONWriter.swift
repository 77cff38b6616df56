/// Compact JSON text, keys in the order the value holds them. Used for every message the host
/// sends and every reply, so output is deterministic and needs no Foundation round trip.
public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        ByteBuffer.withStackStart { out in
            write(value, into: &out)
            return out.withBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    public static func bytes(_ value: JSONValue) -> [UInt8] {
        ByteBuffer.withStackStart { out in
            write(value, into: &out)
            return out.withBytes { Array($0) }
        }
    }

    package static func write(_ value: JSONValue, into out: inout ByteBuffer) {
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
        case .object(let object): write(object: object, into: &out)
        }
    }

    package static func write(object: JSONObject, into out: inout ByteBuffer) {
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

    package static func writeNumber(_ n: Double, into out: inout ByteBuffer) {
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

    package static func writeString(_ s: String, into out: inout ByteBuffer) {
        // The text read where it is (a native or small string always allows it): no copy of
        // the string is made, retained and released only to call the mutating `withUTF8`.
        if s.utf8.withContiguousStorageIfAvailable({ writeString(utf8: $0, into: &out) }) != nil { return }
        var s = s
        s.withUTF8 { writeString(utf8: $0, into: &out) }
    }

    /// The UTF-8 `bytes` as a JSON string, quoted and escaped.
    @inline(__always) private static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        if let base = bytes.baseAddress {
            // Copy each clean run in one go (found eight bytes at a time), then one escape.
            var runStart = 0
            while true {
                let i = PlainRun.end(base, from: runStart, count: bytes.count)
                out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                guard i < bytes.count else { break }
                writeEscape(bytes[i], into: &out)
                runStart = i + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, backslash or control byte.
    private static func writeEscape(_ byte: UInt8, into out: inout ByteBuffer) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            out.append("u00")
            out.append(hex.utf8Start[Int(byte >> 4)])
            out.append(hex.utf8Start[Int(byte & 0xF)])
        }
    }
}

/// A growable byte buffer without Array's per-append checks, for the writer's inner loops.
/// It can start in memory it does not own (the caller's stack) and moves to the heap only
/// when it outgrows it.
///
/// Inlinable, storage and all: the contracts' reply writers (in their own targets) append to it
/// byte by byte, and a call per append — or an unspecialised `withStackStart`, which asks the
/// runtime for generic metadata on every reply — cost more than the appends themselves.
/// `@usableFromInline` on the type too: the members of a plain `package` type are not inlined
/// into another target even when marked `@inlinable` (Swift 6.3, measured).
@usableFromInline package struct ByteBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    @usableFromInline var ownsStorage: Bool

    @inlinable init(borrowing storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        capacity = storage.count
        ownsStorage = false
    }

    /// Runs `body` with an empty buffer whose first 512 bytes are on the stack: most texts
    /// the writer makes (replies, bridge messages) fit there and cost no allocation of their own.
    @inlinable package static func withStackStart<T>(_ body: (inout ByteBuffer) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { stack in
            var out = ByteBuffer(borrowing: stack)
            return body(&out)
        }
    }

    deinit { if ownsStorage { base.deallocate() } }

    @inlinable @inline(__always) mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        grow(toFit: extra)
    }

    /// Out of line: the rare path of `reserve`.
    @usableFromInline @inline(never) mutating func grow(toFit extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        if ownsStorage { base.deallocate() }
        base = grown
        capacity = newCapacity
        ownsStorage = true
    }

    @inlinable @inline(__always) package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Up to 16 bytes (keys and most values) move as two overlapping loads and stores each of
    /// the widest size that fits, instead of a call to memmove.
    @inlinable @inline(__always) package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let n = bytes.count
        reserve(n)
        let target = UnsafeMutableRawPointer(base + count), from = UnsafeRawPointer(source)
        func move<T: FixedWidthInteger>(_ type: T.Type) {
            let head = from.loadUnaligned(as: T.self), tail = from.loadUnaligned(fromByteOffset: n - MemoryLayout<T>.size, as: T.self)
            target.storeBytes(of: head, as: T.self)
            target.storeBytes(of: tail, toByteOffset: n - MemoryLayout<T>.size, as: T.self)
        }
        switch n {
        case 8...16: move(UInt64.self)
        case 4...7: move(UInt32.self)
        case 2...3: move(UInt16.self)
        case 1: target.storeBytes(of: source[0], as: UInt8.self)
        default: (base + count).update(from: source, count: n)
        }
        count += n
    }

    @inlinable @inline(__always) package mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The bytes written so far, for `body` only.
    @inlinable package func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        body(UnsafeBufferPointer(start: base, count: count))
    }
}
