import CGtk
import Glibc
import HostCore

/// Serves the control interface on a Unix socket only its owner can open (mode 0600, made so
/// at bind time). Each connection reads JSON lines and answers each in order; a malformed line
/// gets an error answer and the connection goes on, a line over the limit closes it. Nothing a
/// client sends can disturb the app.
@MainActor
package final class ControlServer {
    package let path: String
    private let service: UnsafeMutablePointer<GSocketService>
    /// Carries out one request and calls `answer` (once) with the response line.
    package let handle: (ControlRequest, @escaping @MainActor (String) -> Void) -> Void
    /// Where an `events` request's stream comes from: the app's (`AppEnvironment.events`).
    let events: EventStream

    package init(path: String, events: EventStream,
                 handle: @escaping (ControlRequest, @escaping @MainActor (String) -> Void) -> Void) throws(UsageError) {
        guard path.utf8.count <= UnixSocket.maxPathBytes else {
            throw UsageError("--control: the socket path is longer than \(UnixSocket.maxPathBytes) bytes; use a shorter one")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw UsageError("--control: \(path) exists and is not a socket; choose another path")
            }
            guard !UnixSocket.isListening(path) else {
                throw UsageError("--control: another app is already listening on \(path)")
            }
            unlink(path)  // left behind by an app that did not exit cleanly
        }
        self.path = path
        self.handle = handle
        self.events = events
        service = g_socket_service_new()!
        let address = g_unix_socket_address_new(path)!
        var error: UnsafeMutablePointer<GError>?
        // Owner-only from the moment the socket file exists.
        let previous = umask(0o177)
        let added = g_socket_listener_add_address(OpaquePointer(service).map { UnsafeMutablePointer<GSocketListener>($0) },
                                                  UnsafeMutablePointer(OpaquePointer(address)), G_SOCKET_TYPE_STREAM,
                                                  G_SOCKET_PROTOCOL_DEFAULT, nil, nil, &error)
        umask(previous)
        g_object_unref(UnsafeMutableRawPointer(address))
        guard added != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            g_object_unref(UnsafeMutableRawPointer(service))
            throw UsageError("--control: could not listen on \(path): \(reason)")
        }
        chmod(path, 0o600)
        StopSignals.removeOnForcedExit(path)
        onIncoming(service) { [weak self] connection in
            guard let self else { return false }
            ControlConnection.start(connection, server: self)
            return true
        }
        g_socket_service_start(service)
    }

    package func stop() {
        g_socket_service_stop(service)
        g_socket_listener_close(OpaquePointer(service).map { UnsafeMutablePointer<GSocketListener>($0) })
        unlink(path)
        StopSignals.forget(path)
    }
}

/// One client: reads chunks into a bounded buffer, answers complete lines one at a time, and
/// writes answers in order. Keeps itself alive until the client hangs up and work is done.
@MainActor
private final class ControlConnection {
    private let connection: UnsafeMutablePointer<GSocketConnection>
    private unowned let server: ControlServer
    private let events: EventStream
    private let input: UnsafeMutablePointer<GInputStream>
    private let output: UnsafeMutablePointer<GOutputStream>
    private let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16 * 1024)
    private var pending: [UInt8] = []
    private var lines: [String] = []
    private var busy = false
    private var hungUp = false
    private var reading = false
    private var outbox: [UInt8] = []
    private var writing: UnsafeMutableBufferPointer<UInt8>?
    private var keepAlive: Unmanaged<ControlConnection>?
    /// Set once the client asked for `events`: the connection is a stream from then on.
    private var subscription: Int?

    package static func start(_ connection: UnsafeMutablePointer<GSocketConnection>, server: ControlServer) {
        let client = ControlConnection(connection, server: server)
        client.keepAlive = Unmanaged.passRetained(client)
        client.readMore()
    }

    private init(_ connection: UnsafeMutablePointer<GSocketConnection>, server: ControlServer) {
        g_object_ref(UnsafeMutableRawPointer(connection))
        self.connection = connection
        self.server = server
        events = server.events
        let stream = UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
        input = g_io_stream_get_input_stream(stream)
        output = g_io_stream_get_output_stream(stream)
    }

    private func readMore() {
        reading = true
        g_input_stream_read_async(input, chunk.baseAddress, gsize(chunk.count), G_PRIORITY_DEFAULT, nil,
                                  AsyncReply.callback, AsyncReply.data { [self] source, result in
            var error: UnsafeMutablePointer<GError>?
            let n = g_input_stream_read_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self), result, &error)
            g_clear_error(&error)
            received(Int(n))
        })
    }

    private func received(_ count: Int) {
        reading = false
        guard count > 0 else {
            hungUp = true
            endStream()
            finishIfDone()
            return
        }
        guard subscription == nil else { readMore(); return }  // a stream ignores what else comes
        pending += chunk[0..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(pending[..<newline])
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            pending.removeSubrange(...newline)
            if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        }
        guard pending.count <= ControlRequest.maxLineBytes else {
            send(ControlResponse.failure(nil, ControlError("a request line is longer than \(ControlRequest.maxLineBytes) bytes; the connection is closed")))
            pending = []
            hungUp = true
            finishIfDone()
            return
        }
        next()
        if !hungUp { readMore() }
    }

    /// Answers the next line when the previous one has been answered.
    private func next() {
        guard !busy, !lines.isEmpty else { return }
        let line = lines.removeFirst()
        busy = true
        switch ControlRequest.decode(line) {
        case .failure(let failure):
            answered(ControlResponse.failure(failure.id, failure.error))
        case .success(let request) where request.command.isEvents:
            guard case .events(let names) = request.command else { return }
            let kinds = Set(names.compactMap(EventStream.Kind.init(rawValue:)))
            send(ControlResponse.ok(request.id, ["streaming": .array((kinds.isEmpty ? Set(EventStream.Kind.allCases) : kinds)
                .map(\.rawValue).sorted().map(JSONValue.string))]))
            lines = []  // a stream takes no more requests; `busy` stays set until the client hangs up
            subscription = events.subscribe(kinds.isEmpty ? Set(EventStream.Kind.allCases) : kinds) { [weak self] line in
                self?.send(line)
            }
        case .success(let request):
            var once = false
            server.handle(request) { [weak self] response in
                guard !once else { return }
                once = true
                self?.answered(response)
            }
        }
    }

    private func answered(_ response: String) {
        send(response)
        busy = false
        next()
        finishIfDone()
    }

    private func send(_ line: String) {
        outbox += Array(line.utf8)
        outbox.append(UInt8(ascii: "\n"))
        flush()
    }

    private func flush() {
        guard writing == nil, !outbox.isEmpty else { return }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: outbox.count)
        _ = buffer.initialize(from: outbox)
        outbox = []
        writing = buffer
        g_output_stream_write_all_async(output, buffer.baseAddress, gsize(buffer.count), G_PRIORITY_DEFAULT, nil,
                                        AsyncReply.callback, AsyncReply.data { [self] source, result in
            var error: UnsafeMutablePointer<GError>?
            let ok = g_output_stream_write_all_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GOutputStream.self), result, nil, &error) != 0
            g_clear_error(&error)
            wrote(ok)
        })
    }

    /// The stream ends with its client.
    private func endStream() {
        guard let subscription else { return }
        events.unsubscribe(subscription)
        self.subscription = nil
        busy = false
    }

    private func wrote(_ ok: Bool) {
        writing?.deallocate()
        writing = nil
        if !ok { hungUp = true; outbox = []; lines = []; endStream() }
        flush()
        finishIfDone()
    }

    /// Lets go once the client hung up, nothing is being answered and everything is written.
    private func finishIfDone() {
        guard hungUp, !busy, !reading, writing == nil, outbox.isEmpty, let keepAlive else { return }
        if !lines.isEmpty { next(); return }
        self.keepAlive = nil
        g_io_stream_close(UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self), nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
        chunk.deallocate()
        keepAlive.release()
    }
}
