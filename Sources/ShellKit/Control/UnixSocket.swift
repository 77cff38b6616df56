import Glibc
import HostCore

/// The client end of the control socket, in plain POSIX: connect, send a line, read lines (one
/// answer, or the `events` stream). Used by `hostshell ctl` and to tell a stale socket file from
/// one in use.
package final class UnixSocket {
    private let fd: Int32
    /// The app at the other end, as messages name it.
    package let app: String
    /// Bytes read past the last line returned.
    private var pending: [UInt8] = []

    /// The longest path `sockaddr_un` holds, without its terminating NUL.
    package static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Connects within `ControlRequest.connectDeadline`: a frozen app stops accepting and its
    /// queue fills, and a client must not wait on it for ever. `app` names the app in messages.
    package init(connectingTo path: String, app: String? = nil) throws(UsageError) {
        self.app = app ?? "the app at \(path)"
        guard path.utf8.count <= Self.maxPathBytes else {
            throw UsageError("the socket path is longer than \(Self.maxPathBytes) bytes: use a shorter one")
        }
        let fd = Self.newSocket()
        guard fd >= 0 else { throw UsageError("could not create a socket: \(String(cString: strerror(errno)))") }
        let deadline = monotonicSeconds() + ControlRequest.connectDeadline
        while true {
            let failure = Self.connect(fd, to: path)
            if failure == 0 { break }
            if failure == EINTR { continue }
            // A local stream socket whose queue is full refuses at once with EAGAIN: try again
            // shortly, until the deadline.
            if failure == EAGAIN, monotonicSeconds() < deadline {
                _ = poll(nil, 0, 20)
                continue
            }
            close(fd)
            if failure == EAGAIN {
                throw UsageError(ControlRequest.unanswered(self.app, .connect, within: ControlRequest.connectDeadline))
            }
            throw UsageError("could not connect to \(path): \(String(cString: strerror(failure))). Is hostshell open … --control \(path) running?")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Nil when nothing listens at `path` (no app runs); a connection, or an error that names
    /// the app when one listens but does not take it in time.
    package static func connectIfListening(_ path: String, app: String) throws(UsageError) -> UnixSocket? {
        guard isListening(path) else { return nil }
        return try UnixSocket(connectingTo: path, app: app)
    }

    /// True when something listens at `path`. A full queue counts: something listens, however stuck.
    package static func isListening(_ path: String) -> Bool {
        guard path.utf8.count <= maxPathBytes else { return false }
        let fd = newSocket()
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let failure = connect(fd, to: path)
        return failure == 0 || failure == EAGAIN
    }

    /// A local stream socket that does not block and is not inherited.
    private static func newSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    }

    /// Connects `fd` to `path` (which fits `sockaddr_un`): 0, or the error.
    private static func connect(_ fd: Int32, to path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0 ? 0 : errno
    }

    /// Sends `line`, waiting at most `ControlRequest.connectDeadline` for the app to read it.
    package func send(_ line: String) throws(UsageError) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        let deadline = monotonicSeconds() + ControlRequest.connectDeadline
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                let remaining = deadline - monotonicSeconds()
                guard remaining > 0 else { throw UsageError(ControlRequest.unanswered(app, .send, within: ControlRequest.connectDeadline)) }
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, Int32(remaining * 1000) + 1)
                continue
            }
            guard n > 0 else { throw UsageError("\(app) closed the connection while the request was sent") }
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
            guard remaining > 0 else { throw UsageError(ControlRequest.unanswered(app, .answer, within: timeout)) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining * 1000, Double(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN { continue }
            guard n > 0 else { throw UsageError("\(app) closed the connection without answering") }
            pending += chunk[0..<n]
        }
    }
}
