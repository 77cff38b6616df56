import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// A device's end of push: while an app (or an emulated device without a page) holds a token,
/// it listens on an owner-only Unix socket named in the user's runtime directory
/// (`PhoneDirectory`), with an entry saying which app, bundle id and environment the token
/// belongs to. `hostshell apns serve` and `hostshell push` (`PhoneDelivery`) find it there and
/// send one `PhonePush` line per connection; `onPush` decides and answers with a `PhoneAck`.
///
/// Usable on its own — a Capacitor app's PushNotifications glue opens one when its plugin has a
/// token; an emulated native client can do the same:
///
///     let listener = try PhoneListener(token: hex, appId: "dev.example.app", topic: "dev.example.app",
///                                      environment: .sandbox) { push, ack in ack(.delivered) }
///     …
///     listener.stop()
///
/// Needs the GLib main loop running. `stop()` (or a new listener for the same token) ends it.
@MainActor
package final class PhoneListener {
    package let entry: PhoneEntry
    private let fd: Int32
    private var source: guint = 0
    private let onPush: (PhonePush, @escaping @MainActor (PhoneAck) -> Void) -> Void
    /// Pushes handed to `onPush` so far.
    package private(set) var received = 0

    /// The user's phone directory (`$XDG_RUNTIME_DIR/hostshell/phones`).
    static let directory = PhoneDirectory.directory(runtimeDirectory: String(cString: g_get_user_runtime_dir()))

    package init(token: String, appId: String, topic: String, environment: APNsEnvironment,
         onPush: @escaping (PhonePush, @escaping @MainActor (PhoneAck) -> Void) -> Void) throws(UsageError) {
        guard APNsDeviceToken.isWellFormed(token) else { throw UsageError("a device token is 64 to 200 hex digits; \(token) is not one") }
        let directory = Self.directory
        guard g_mkdir_with_parents(directory, 0o700) == 0 else {
            throw UsageError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        let path = PhoneDirectory.socketPath(directory, token: token)
        guard path.utf8.count <= UnixSocket.maxPathBytes else {
            throw UsageError("the push socket \(path) is longer than \(UnixSocket.maxPathBytes) bytes: set XDG_RUNTIME_DIR to a shorter directory")
        }
        unlink(path)  // an earlier holder's, gone or about to be replaced: the newest holder gets the pushes
        fd = try PhoneSocket.listen(path)
        entry = PhoneEntry(token: token, appId: appId, topic: topic, environment: environment, socket: path)
        self.onPush = onPush
        do throws(UsageError) {
            try AtomicFile.write(Array(entry.fileText.utf8), to: PhoneDirectory.entryPath(directory, token: token), what: "the push entry")
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        source = MainLoop.watch(fd, G_IO_IN) { [weak self] in
            self?.accept()
            return true
        }
    }

    /// Stops listening and takes the entry away (unless a newer holder of the token replaced it).
    package func stop() {
        guard source != 0 else { return }
        g_source_remove(source)
        source = 0
        close(fd)
        let entryPath = PhoneDirectory.entryPath(Self.directory, token: entry.token)
        if let bytes = try? FileReading.bytes(entryPath, limit: 4096), PhoneEntry(fileText: String(decoding: bytes, as: UTF8.self)) == entry {
            unlink(entryPath)
            unlink(entry.socket)
        }
    }

    private func accept() {
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        PhoneConnection.start(client) { [weak self] line, answer in
            guard let self else { return answer(.refused("the device is shutting down")) }
            guard let push = PhonePush(line: line) else { return answer(.refused("not a push line")) }
            guard push.token == self.entry.token else { return answer(.refused("this device does not hold that token")) }
            if let refusal = PhoneDirectory.refusal(of: self.entry, topic: push.topic, environment: push.environment) {
                return answer(.refused(refusal.rawValue))
            }
            self.received += 1
            self.onPush(push, answer)
        }
    }
}

/// One sender on a device's socket: reads one line (bounded), hands it on, writes the answer, closes.
@MainActor
private final class PhoneConnection {
    private let fd: Int32
    private var pending: [UInt8] = []
    private var source: guint = 0
    private var keepAlive: Unmanaged<PhoneConnection>?
    private let handle: (String, @escaping @MainActor (PhoneAck) -> Void) -> Void
    static let maxLine = 64 * 1024

    package static func start(_ fd: Int32, handle: @escaping (String, @escaping @MainActor (PhoneAck) -> Void) -> Void) {
        let connection = PhoneConnection(fd, handle)
        connection.keepAlive = Unmanaged.passRetained(connection)
        connection.source = MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue)) { [weak connection] in
            connection?.readable()
            return true
        }
    }

    private init(_ fd: Int32, _ handle: @escaping (String, @escaping @MainActor (PhoneAck) -> Void) -> Void) {
        self.fd = fd
        self.handle = handle
    }

    private func readable() {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard n > 0 else { return finish() }
        pending += chunk[0..<n]
        if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            stopReading()
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            var once = false
            handle(line) { [self] ack in
                guard !once else { return }
                once = true
                PhoneSocket.writeLine(fd, ack.line)
                finish()
            }
        } else if pending.count > Self.maxLine {
            PhoneSocket.writeLine(fd, PhoneAck.refused("a push line is longer than \(Self.maxLine) bytes").line)
            finish()
        }
    }

    private func stopReading() {
        if source != 0 { g_source_remove(source); source = 0 }
    }

    private func finish() {
        stopReading()
        guard let keepAlive else { return }
        self.keepAlive = nil
        close(fd)
        keepAlive.release()
    }
}
