import Foundation
import Glibc
import Testing

/// A server process's resources, read from /proc: open descriptors, resident memory, CPU time.
struct ServerFigures {
    let pid: Int32

    var descriptors: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }

    var residentMB: Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    /// User and system CPU seconds so far (fields 14 and 15 of /proc/PID/stat).
    var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU seconds the process used while the test thread waited `window` seconds. A server with
    /// nothing to do uses none; one woken without end for a waiting descriptor burned 0.12–0.13 s
    /// of each second here before the fix (it gets less, not more, on a busier machine).
    func cpuUsed(over window: Double) -> Double {
        let before = cpuSeconds
        let deadline = Date().addingTimeInterval(window)
        while Date() < deadline { usleep(50_000) }  // an observation window, not a wait for a result
        return cpuSeconds - before
    }
}

/// Raw loopback sockets for hostile clients: every call bounded by a short timeout.
enum Loopback {
    static func connect(_ port: Int, timeoutMs: Int = 200) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else { Glibc.close(fd); return -1 }
        var timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: (timeoutMs % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends `bytes` until all are sent, the peer stops taking them, or `deadline`; how many went.
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8], until deadline: Date = Date().addingTimeInterval(3)) -> Int {
        var sent = 0
        while sent < bytes.count && Date() < deadline {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    static func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    /// Reads until `done` says so, the peer closes (`closed` true), or `timeout` seconds pass.
    static func receive(_ fd: Int32, timeout: Double = 3, until done: ([UInt8]) -> Bool = { _ in false }) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !done(bytes) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if count <= 0 { return (bytes, true) }
            bytes += buffer[0..<count]
        }
        return (bytes, false)
    }
}

/// HTTP/2 frames and HPACK fields built by hand, for clients no library would be.
enum H2Frames {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    static let headers: UInt8 = 1, data: UInt8 = 0, rstStream: UInt8 = 3, settings: UInt8 = 4, goAway: UInt8 = 7, continuation: UInt8 = 9
    static let endStream: UInt8 = 1, endHeaders: UInt8 = 4, ack: UInt8 = 1

    static func frame(_ type: UInt8, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    /// An HPACK integer with an `bits`-bit prefix whose other bits are `high`.
    static func integer(_ value: Int, bits: Int, high: UInt8 = 0) -> [UInt8] {
        let limit = (1 << bits) - 1
        if value < limit { return [high | UInt8(value)] }
        var out = [high | UInt8(limit)], rest = value - limit
        while rest >= 128 { out.append(UInt8(rest % 128) | 0x80); rest /= 128 }
        return out + [UInt8(rest)]
    }

    /// A field literal without indexing, a new name, no Huffman.
    static func literal(_ name: String, _ value: String) -> [UInt8] {
        [0x00] + integer(name.utf8.count, bits: 7) + Array(name.utf8) + integer(value.utf8.count, bits: 7) + Array(value.utf8)
    }

    /// :method POST, :scheme http, :path, :authority — a request's pseudo-headers.
    static func request(path: String) -> [UInt8] { [0x83, 0x86] + literal(":path", path) + literal(":authority", "127.0.0.1") }

    /// The frames in `bytes`: type, flags, stream and payload.
    static func parse(_ bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        var frames: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] = []
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard index + 9 + length <= bytes.count else { break }
            let stream = UInt32(bytes[index + 5] & 0x7F) << 24 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 8 | UInt32(bytes[index + 8])
            frames.append((bytes[index + 3], bytes[index + 4], stream, Array(bytes[(index + 9)..<(index + 9 + length)])))
            index += 9 + length
        }
        return frames
    }

    /// The error code of a RST_STREAM frame.
    static func errorCode(_ payload: [UInt8]) -> UInt32 {
        payload.count == 4 ? UInt32(payload[0]) << 24 | UInt32(payload[1]) << 16 | UInt32(payload[2]) << 8 | UInt32(payload[3]) : .max
    }
}
