import Foundation
import Testing

/// Issue 29 item 7: every wait has a deadline. A server that trickles its identity answer, and
/// an app whose socket is listening but stuck, end the command with a message naming who did
/// not answer — they do not hold it for hours.
@Suite("Every wait has a deadline")
struct DeadlineTests {
    /// Runs hostshell; a run still going after `limit` seconds is killed and recorded as hanging.
    static func runBounded(_ arguments: [String], environment: [String: String] = [:], limit: Double = 60) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = HostShellBinary.url
        process.arguments = arguments
        process.environment = HostShellBinary.environment(environment)
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if !waitUntil(timeout: limit, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("hostshell \(arguments.joined(separator: " ")) was still waiting after \(Int(limit)) s")
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test("server add against a server that trickles its identity answer a byte at a time gives up on the whole exchange")
    func tricklingIdentity() throws {
        let server = try TrickleServer()
        defer { server.stop() }
        let home = TemporaryHome()
        defer { home.remove() }
        let run = try Self.runBounded(["server", "add", "http://127.0.0.1:\(server.port)", "--allow-http"], environment: home.environment)
        #expect(run.status != 0)
        #expect(run.stderr.contains("did not finish answering its identity check within 10 s"), "\(run.stderr)")
        #expect(server.bytesSent > 0, "the server did start answering")
    }

    @Test("ctl against a socket that listens but never accepts: refused within the connect deadline, naming the app")
    func stuckSocket() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hs-stuck-\(UUID().uuidString.prefix(8)).sock").path
        let listener = try StuckListener(path: path)
        defer { listener.close() }
        let run = try Self.runBounded(["ctl", path, "state"], limit: 30)
        #expect(run.status != 0)
        #expect(run.stderr.contains("the app at \(path) did not accept the connection within 5 s"), "\(run.stderr)")
    }
}

/// A loopback HTTP server that answers one request with a 200 and a long body, one byte every
/// half second, until the client goes.
final class TrickleServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var sent = 0
    private var stopped = false
    var bytesSent: Int { lock.withLock { sent } }

    init() throws {
        (fd, port) = try loopbackListener(backlog: 4)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    private func serve() {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        defer { Glibc.close(client) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = read(client, &buffer, buffer.count)  // the request
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16000\r\n\r\n{".utf8)
        guard send(client, head, head.count, Int32(MSG_NOSIGNAL)) == head.count else { return }
        while !lock.withLock({ stopped }) {
            usleep(500_000)  // the server's own pace, not a test's wait
            guard send(client, " ", 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
            lock.withLock { sent += 1 }
        }
    }

    func stop() {
        lock.withLock { stopped = true }
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }
}

/// A Unix socket that listens with the smallest queue and never accepts, its queue filled: a
/// frozen app, as a client meets it.
final class StuckListener {
    private let fd: Int32
    private var queued: [Int32] = []
    let path: String

    init(path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, byte) in path.utf8.enumerated() { raw[i] = byte } }
        let size = socklen_t(MemoryLayout<sockaddr_un>.size)
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 } } && listen(fd, 0) == 0
        guard ok else { throw POSIXError(.EADDRINUSE) }
        // Fill the queue: connect until the kernel refuses with EAGAIN.
        for _ in 0..<64 {
            let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, size) } }
            if connected != 0 { Glibc.close(client); break }
            queued.append(client)
        }
    }

    func close() {
        for client in queued { Glibc.close(client) }
        Glibc.close(fd)
        unlink(path)
    }
}

/// Issue 29 item 8: a path given on the command line that is a FIFO is refused at once, with
/// one line and exit 2, by every command that reads one.
@Suite("Paths on the command line: a FIFO is refused, never waited on")
struct CommandLineFIFOTests {
    @Test("contract check, replay, push, serve --tls, hermes-gateway --key-file, serve --homesec --apns-key", arguments: [
        ["contract", "check", "@FIFO"], ["replay", "@FIFO"], ["push", "@FIFO"], ["serve", "--reference", "--tls", "@DIR"],
        ["hermes-gateway", "serve", "--secret", "s", "--team", "T", "--key-id", "K", "--topic", "com.example.app",
         "--apns-sandbox", "http://127.0.0.1:9", "--key-file", "@FIFO"],
        ["serve", "--homesec", "--apns-bundle-id", "com.x.y", "--apns-key-id", "K", "--apns-team-id", "T", "--apns-key", "@FIFO"],
    ])
    func fifo(_ arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hs-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // serve --tls reads cert.pem and key.pem from a directory.
        #expect(mkfifo(directory.appendingPathComponent("cert.pem").path, 0o600) == 0)
        #expect(mkfifo(directory.appendingPathComponent("key.pem").path, 0o600) == 0)
        let resolved = arguments.map { $0 == "@FIFO" ? fifo : $0 == "@DIR" ? directory.path : $0 }
        let run = try DeadlineTests.runBounded(resolved, limit: 20)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks: the socket and its port.
func loopbackListener(backlog: Int32) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard fd >= 0, bound else {
        if fd >= 0 { close(fd) }
        throw POSIXError(.EADDRNOTAVAIL)
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
