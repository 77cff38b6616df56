import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// The POSIX calls of a device's socket, in one place: listen (owner-only from the moment the
/// file exists), connect, write a line, and wait for one line on the main loop.
package enum PhoneSocket {
    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        return address
    }

    static func listen(_ path: String) throws(UsageError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw UsageError("could not create a socket: \(String(cString: strerror(errno)))") }
        var address = Self.address(path)
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw UsageError("could not listen on \(path): \(reason)")
        }
        return fd
    }

    /// What connecting to a device's socket came to, at once.
    package enum Connection { case connected(Int32), busy, absent }

    /// A connected non-blocking socket; `.busy` when something listens there but takes no
    /// connection now (its app stopped, its queue full), `.absent` when nothing listens. Never waits.
    static func connect(_ path: String) -> Connection {
        guard path.utf8.count <= UnixSocket.maxPathBytes else { return .absent }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .absent }
        var address = Self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected != 0 else { return .connected(fd) }
        let failure = errno
        close(fd)
        return failure == EAGAIN || failure == EINPROGRESS ? .busy : .absent
    }

    /// Writes `line` and a newline to a non-blocking socket if it takes all of it now; false
    /// when it does not (a device that reads nothing is not waited on).
    static func sendLineNow(_ fd: Int32, _ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Writes `line` and a newline (a few hundred bytes to a local socket: it fits its buffer).
    @discardableResult
    static func writeLine(_ fd: Int32, _ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 1000)
                continue
            }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Waits on the main loop for one line on `fd` (at most `timeoutMs`), then closes `fd` and
    /// calls `done` with the line, or nil (closed, too long, or too late).
    @MainActor
    static func awaitLine(_ fd: Int32, timeoutMs: UInt32, done: @escaping @MainActor (String?) -> Void) {
        final class Wait {
            var pending: [UInt8] = []
            var source: guint = 0
            var finished = false
        }
        let wait = Wait()
        func finish(_ line: String?) {
            guard !wait.finished else { return }
            wait.finished = true
            if wait.source != 0 { g_source_remove(wait.source); wait.source = 0 }
            close(fd)
            done(line)
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        wait.source = MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue)) {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            guard n > 0 else { finish(nil); return true }
            wait.pending += chunk[0..<n]
            if let newline = wait.pending.firstIndex(of: UInt8(ascii: "\n")) {
                finish(String(decoding: wait.pending[..<newline], as: UTF8.self))
            } else if wait.pending.count > PhoneDeliveryLimits.ackLineBytes {
                finish(nil)
            }
            return true  // `finish` removes the source
        }
        MainLoop.after(milliseconds: timeoutMs) { finish(nil) }
    }
}
