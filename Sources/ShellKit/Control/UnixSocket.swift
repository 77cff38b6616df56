import Glibc
import HostCore

/// The client end of the control socket, in plain POSIX: connect, send a line, read lines (one
/// answer, or the `events` stream). Used by `hostshell ctl` and to tell a stale socket file from
/// one in use.
package final class UnixSocket {
    private let fd: Int32
    /// Bytes read past the last line returned.
    private var pending: [UInt8] = []

    /// The longest path `sockaddr_un` holds, without its terminating NUL.
    package static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    package init(connectingTo path: String) throws(UsageError) {
        guard path.utf8.count <= Self.maxPathBytes else {
            throw UsageError("the socket path is longer than \(Self.maxPathBytes) bytes: use a shorter one")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UsageError("could not create a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw UsageError("could not connect to \(path): \(reason). Is hostshell open … --control \(path) running?")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// True when something listens at `path`.
    package static func isListening(_ path: String) -> Bool {
        (try? UnixSocket(connectingTo: path)) != nil
    }

    package func send(_ line: String) throws(UsageError) {
        var bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw UsageError("the app closed the control socket while a request was sent") }
            sent += n
        }
    }

    /// One line (without its newline), waiting at most `timeout` seconds.
    package func receiveLine(timeout: Double) throws(UsageError) -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonicSeconds() + timeout
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw UsageError("no answer within \(Int(timeout)) s") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining * 1000, Double(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw UsageError("the app closed the control socket without answering") }
            pending += chunk[0..<n]
        }
    }
}
