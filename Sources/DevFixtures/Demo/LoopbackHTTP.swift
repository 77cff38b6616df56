import Glibc

/// One plain HTTP/1.1 GET to a loopback address (`http://127.0.0.1:PORT/path`), for a tour that
/// checks what a reference server recorded. Nothing else: no TLS, no redirects, no other hosts.
package enum LoopbackHTTP {
    /// The status and body, or nil when the address is not a loopback http URL or no answer came.
    static func get(_ url: String, timeout: Double = 10) -> (status: Int, body: [UInt8])? {
        let prefix = "http://127.0.0.1:"
        guard url.hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        let portText = rest.prefix { $0.isNumber }
        guard let port = UInt16(portText) else { return nil }
        let path = rest.dropFirst(portText.count)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path.isEmpty ? "/" : path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
            guard n > 0 else { return nil }
            sent += n
        }
        var incoming: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while incoming.count < 16 << 20 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { break }
            incoming += chunk[0..<n]
        }
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(0, incoming.count - 3)).first(where: { Array(incoming[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: incoming[..<end], as: UTF8.self)
        guard let status = head.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return (status, Array(incoming[(end + 4)...]))
    }
}
