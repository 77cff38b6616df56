import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// One environment's port on 127.0.0.1. Each connection is told apart by its first bytes
/// (`APNsWire.kind`): a TLS handshake (→ OpenSSL, ALPN h2, nghttp2), HTTP/2's connection preface
/// (→ h2c, nghttp2), or anything else (→ HTTP/1.1, `HTTP1Connection`). The bytes read to tell
/// them apart are handed on, so a client that stops half way is never woken for again.
/// At most `APNsLimits.connectionsPerListener` connections are kept; more are closed at once.
@MainActor
package final class APNsListener {
    let environment: APNsEnvironment
    private let service: APNsService
    private let tls: TLSServerContext?
    private var listenFD: Int32 = -1
    private var listenWatch: UInt32 = 0
    package private(set) var port = 0
    /// Every connection kept, by descriptor: being told apart (nil) or served.
    private var connections: [Int32: AnyObject?] = [:]
    private var sniffed: [Int32: [UInt8]] = [:]

    init(environment: APNsEnvironment, service: APNsService, tls: TLSServerContext?) {
        self.environment = environment
        self.service = service
        self.tls = tls
    }

    package func start(port requested: Int) throws(UsageError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UsageError("cannot make a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(requested).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw UsageError("cannot listen on 127.0.0.1:\(requested) for \(environment.rawValue): \(reason); pick another port")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listenFD = fd
        watchListener()
    }

    private func watchListener() {
        listenWatch = MainLoop.watch(listenFD, G_IO_IN) { [weak self] in
            guard let self else { return false }
            if self.acceptAll() { return true }
            // Out of descriptors: the waiting connection would wake the loop without end. Look again later.
            self.listenWatch = 0
            MainLoop.after(milliseconds: APNsLimits.acceptRetryMs) { [weak self] in self?.watchListener() }
            return false
        }
    }

    /// Accepts every waiting connection; false when the process is out of descriptors.
    private func acceptAll() -> Bool {
        while true {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return !(errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) }
            guard connections.count < APNsLimits.connectionsPerListener else { Glibc.close(fd); continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            connections[fd] = .some(nil)
            MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)) { [weak self] in
                guard let self else { Glibc.close(fd); return false }
                return self.sniff(fd)
            }
        }
    }

    /// Reads a new connection's first bytes until they say what it is; true to wait for more.
    private func sniff(_ fd: Int32) -> Bool {
        var first: UInt8 = 0
        let peeked = recv(fd, &first, 1, Int32(MSG_PEEK))
        if peeked < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        guard peeked > 0 else { return drop(fd) }
        var bytes = sniffed[fd] ?? []
        if bytes.isEmpty && first == 0x16 {  // TLS: OpenSSL reads the handshake from the socket itself
            sniffed[fd] = nil
            guard let tls, let ssl = tls.session(fd: fd) else { return drop(fd) }  // TLS without --tls
            return adopt(fd, H2Connection(fd: fd, ssl: ssl, initial: [], environment: environment, service: service, onClose: forget))
        }
        var chunk = [UInt8](repeating: 0, count: APNsWire.preface.count - bytes.count)
        let count = read(fd, &chunk, chunk.count)
        guard count > 0 else { return count < 0 && (errno == EAGAIN || errno == EINTR) ? true : drop(fd) }
        bytes += chunk[0..<count]
        switch APNsWire.kind(of: bytes[...]) {
        case .needMore:
            sniffed[fd] = bytes
            return true
        case .h2c:
            sniffed[fd] = nil
            return adopt(fd, H2Connection(fd: fd, ssl: nil, initial: bytes, environment: environment, service: service, onClose: forget))
        case .http1, .tls:
            sniffed[fd] = nil
            return adopt(fd, HTTP1Connection(fd: fd, initial: bytes, environment: environment, service: service, onClose: forget))
        }
    }

    private func drop(_ fd: Int32) -> Bool {
        sniffed[fd] = nil
        connections[fd] = nil
        Glibc.close(fd)
        return false
    }

    /// Keeps a served connection until it closes (it may have closed already, answering at once).
    private func adopt(_ fd: Int32, _ connection: AnyObject) -> Bool {
        let closed = (connection as? H2Connection)?.closed ?? (connection as? HTTP1Connection)?.closed ?? true
        if !closed { connections[fd] = .some(connection) }
        return false
    }

    private func forget(_ connection: H2Connection) { connections[connection.fd] = nil }
    private func forget(_ connection: HTTP1Connection) { connections[connection.fd] = nil }
}
