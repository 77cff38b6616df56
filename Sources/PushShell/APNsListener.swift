import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// One environment's port on 127.0.0.1. Each connection is told apart by its first bytes: a TLS
/// handshake (→ OpenSSL, ALPN h2, nghttp2), HTTP/2's connection preface (→ h2c, nghttp2), or
/// anything else (→ HTTP/1.1, libsoup).
@MainActor
package final class APNsListener {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    let environment: APNsEnvironment
    private let service: APNsService
    private let tls: TLSServerContext?
    private let http1: HTTP1Front
    private var listenFD: Int32 = -1
    package private(set) var port = 0
    private var connections: [ObjectIdentifier: H2Connection] = [:]

    init(environment: APNsEnvironment, service: APNsService, tls: TLSServerContext?) {
        self.environment = environment
        self.service = service
        self.tls = tls
        http1 = HTTP1Front(environment: environment, service: service)
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
        MainLoop.watch(fd, G_IO_IN) { [self] in  // the source holds the listener: it lives as long as the process
            acceptAll()
            return true
        }
    }

    private func acceptAll() {
        while true {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)) { [weak self] in
                self?.sniff(fd) ?? false
            }
        }
    }

    /// Looks at a new connection's first bytes; true to wait for more.
    private func sniff(_ fd: Int32) -> Bool {
        var head = [UInt8](repeating: 0, count: Self.preface.count)
        let count = recv(fd, &head, head.count, Int32(MSG_PEEK))
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        guard count > 0 else { Glibc.close(fd); return false }
        if head[0] == 0x16 {
            guard let tls, let ssl = tls.session(fd: fd) else { Glibc.close(fd); return false }  // TLS without --tls
            adopt(H2Connection(fd: fd, ssl: ssl, environment: environment, service: service, onClose: forget))
        } else if head[0..<count].elementsEqual(Self.preface[0..<count]) {
            if count < Self.preface.count { return true }
            adopt(H2Connection(fd: fd, ssl: nil, environment: environment, service: service, onClose: forget))
        } else {
            http1.accept(fd: fd)
        }
        return false
    }

    private func adopt(_ connection: H2Connection) {
        if !connection.closed { connections[ObjectIdentifier(connection)] = connection }
    }

    private func forget(_ connection: H2Connection) { connections[ObjectIdentifier(connection)] = nil }
}
