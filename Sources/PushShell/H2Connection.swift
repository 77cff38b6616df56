import CGtk
import CHTTP2
import Glibc
import Push
import ShellKit

/// One HTTP/2 connection to the stand-in — TLS (ALPN `h2`, OpenSSL) or cleartext prior
/// knowledge (`h2c`) — framed by nghttp2. Each finished request stream goes to the service;
/// its decision goes back as the stream's response. Non-blocking on the GLib main loop.
@MainActor
package final class H2Connection {
    let fd: Int32
    private let ssl: OpaquePointer?
    private var session: OpaquePointer?
    private let environment: APNsEnvironment
    private let service: APNsService
    private let onClose: (H2Connection) -> Void
    /// The open request streams: read by nghttp2's callbacks without the main actor's check.
    nonisolated let streams = H2Streams()
    private var outgoing: [UInt8] = []
    private var inWatch: UInt32 = 0, outWatch: UInt32 = 0
    private var alpnChecked = false
    /// True while nghttp2_session_mem_recv runs: its callbacks may submit answers, but the
    /// session must not be asked for output (mem_send) from inside its own receive.
    private var receiving = false
    /// One read buffer for every connection: all run on the main thread, one read at a time.
    private static let readBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 16 * 1024)
    private(set) var closed = false
    var transport: String { ssl == nil ? "h2c" : "h2" }

    init(fd: Int32, ssl: OpaquePointer?, initial: [UInt8], environment: APNsEnvironment, service: APNsService, onClose: @escaping (H2Connection) -> Void) {
        self.fd = fd
        self.ssl = ssl
        self.environment = environment
        self.service = service
        self.onClose = onClose
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        H2Callbacks.install(callbacks)
        // nghttp2 takes no destroy notify: unretained, since `close` deletes the session before the
        // connection can go (its listener holds it until `onClose`), and no callback runs after that.
        nghttp2_session_server_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        nghttp2_session_callbacks_del(callbacks)
        // Streams and header lists within the stand-in's bounds (APNsLimits): nghttp2 refuses a
        // stream past the first; the header callback resets one whose list grows past the second.
        var settings = [nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                                               value: UInt32(APNsLimits.concurrentStreams)),
                        nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                                               value: UInt32(APNsLimits.headerListBytes))]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        if !initial.isEmpty {  // the preface, read to tell the connection apart
            receiving = true
            let taken = initial.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
            receiving = false
            if taken < 0 { close(); return }
        }
        watchReadable()
        _ = readable()
    }

    private func watchReadable() {
        guard inWatch == 0, !closed else { return }
        inWatch = MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)) { [weak self] in
            guard let self else { return false }
            let again = self.readable()
            if !again { self.inWatch = 0 }
            return again
        }
        // Dispatched without GLib taking its descriptor out of the poll set and back each time
        // (which wakes the loop with an eventfd write per request); nothing here runs a nested loop.
        if let source = g_main_context_find_source_by_id(nil, inWatch) { g_source_set_can_recurse(source, 1) }
    }

    nonisolated static func from(_ data: UnsafeMutableRawPointer?) -> H2Connection { Unmanaged<H2Connection>.fromOpaque(data!).takeUnretainedValue() }

    /// Reads what is there, feeds nghttp2, writes what it answers. False once closed.
    private func readable() -> Bool {
        guard !closed else { return false }
        let buffer = Self.readBuffer, capacity = 16 * 1024
        while !closed {
            // A client that does not read its answers is not read from either, until it has.
            if outgoing.count > APNsLimits.unsentBytes { pump(); return false }
            var count = 0
            if let ssl {
                let result = SSL_read(ssl, buffer, Int32(capacity))
                if result <= 0 {
                    let error = SSL_get_error(ssl, result)
                    ERR_clear_error()
                    if error == SSL_ERROR_WANT_READ { break }
                    if error == SSL_ERROR_WANT_WRITE { watchWritable(); break }
                    close(); return false
                }
                count = Int(result)
            } else {
                count = read(fd, buffer, capacity)
                if count < 0 && (errno == EAGAIN || errno == EINTR) { break }
                if count <= 0 { close(); return false }
            }
            guard checkALPN() else { return false }
            receiving = true
            let taken = nghttp2_session_mem_recv(session, buffer, count)
            receiving = false
            if taken < 0 { close(); return false }
            if ssl == nil && count < capacity { break }
        }
        guard checkALPN() else { return false }
        pump()
        return !closed && outgoing.count <= APNsLimits.unsentBytes
    }

    /// Over TLS only `h2` is spoken: a client that did not ask for it is closed on.
    private func checkALPN() -> Bool {
        guard let ssl, !alpnChecked, SSL_is_init_finished(ssl) == 1 else { return !closed }
        alpnChecked = true
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        guard length == 2, let selected, selected[0] == UInt8(ascii: "h"), selected[1] == UInt8(ascii: "2") else { close(); return false }
        return true
    }

    /// Moves nghttp2's output to the socket; closes when neither side wants more.
    func pump() {
        guard !closed, !receiving, let session else { return }
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count < 0 { close(); return }
            if count == 0 { break }
            outgoing.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
        flush()
        if !closed, outgoing.isEmpty, nghttp2_session_want_read(session) == 0, nghttp2_session_want_write(session) == 0 { close() }
    }

    private func flush() {
        while !outgoing.isEmpty && !closed {
            switch Self.write(outgoing, fd: fd, ssl: ssl) {
            case .wrote(let written):
                if written == outgoing.count { outgoing.removeAll(keepingCapacity: true) } else { outgoing.removeFirst(written) }
            case .later: watchWritable(); return
            case .failed: close(); return
            }
        }
        if !closed && inWatch == 0 && !receiving { watchReadable() }  // the client read its answers: read it again
    }

    package enum WriteOutcome { case wrote(Int), later, failed }

    /// One write of `bytes` to the socket or TLS. Nonisolated, so its buffer closures carry no
    /// executor check (one per push otherwise).
    nonisolated static func write(_ bytes: [UInt8], fd: Int32, ssl: OpaquePointer?) -> WriteOutcome {
        if let ssl {
            let result = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard result <= 0 else { return .wrote(Int(result)) }
            let error = SSL_get_error(ssl, result)
            ERR_clear_error()
            return error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ ? .later : .failed
        }
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0 && (errno == EAGAIN || errno == EINTR) { return .later }
        return written > 0 ? .wrote(written) : .failed
    }

    private func watchWritable() {
        guard outWatch == 0 else { return }
        outWatch = MainLoop.watch(fd, G_IO_OUT) { [weak self] in
            guard let self else { return false }
            self.outWatch = 0
            self.flush()
            if self.inWatch != 0 { _ = self.readable() }
            return false
        }
    }

    /// A request stream is complete (nghttp2's callback): decide it and answer on it.
    func requestComplete(_ id: Int32, _ request: APNsRequest) {
        service.handle(request, environment: environment, transport: transport) { [weak self] decision in
            self?.respond(id, decision)
        }
    }

    private func respond(_ id: Int32, _ decision: APNsDecision) {
        guard !closed, let session, let stream = streams.stream(session, id) else { return }
        Self.submit(decision, stream: stream, id: id, session: session)
        pump()  // outside a receive; inside one, readable() pumps once the whole read is taken
    }

    /// Submits the answer on its stream. Every name and value sits in one buffer, and the field
    /// list on the stack (nghttp2 copies both while submitting); nonisolated, so its buffer
    /// closures carry no executor check.
    nonisolated static func submit(_ decision: APNsDecision, stream: H2Stream, id: Int32, session: OpaquePointer) {
        stream.response = decision.body
        let headers = decision.headers
        var storage: [UInt8] = []
        storage.reserveCapacity(64 + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
        var spans: [(name: Range<Int>, value: Range<Int>, flags: UInt8)] = []
        func add(_ name: String, _ value: String) {
            let nameStart = storage.count
            storage += name.utf8
            let valueStart = storage.count
            storage += value.utf8
            // An apns-id is new in every answer: kept out of HPACK's table, where it would only
            // push out entries that repeat.
            let flags = name == "apns-id" ? NGHTTP2_NV_FLAG_NO_INDEX : NGHTTP2_NV_FLAG_NONE
            spans.append((nameStart..<valueStart, valueStart..<storage.count, UInt8(flags.rawValue)))
        }
        spans.reserveCapacity(headers.count + 2)
        add(":status", String(decision.status))
        for header in headers { add(header.name, header.value) }
        if !stream.response.isEmpty { add("content-length", String(stream.response.count)) }
        storage.withUnsafeMutableBufferPointer { bytes in
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: spans.count) { nva in
                for (index, span) in spans.enumerated() {
                    nva[index] = nghttp2_nv(name: bytes.baseAddress! + span.name.lowerBound, value: bytes.baseAddress! + span.value.lowerBound,
                                            namelen: span.name.count, valuelen: span.value.count, flags: span.flags)
                }
                if stream.response.isEmpty {
                    nghttp2_submit_response(session, id, nva.baseAddress, spans.count, nil)
                } else {
                    var provider = nghttp2_data_provider()
                    // Unretained (nghttp2 takes no destroy notify): the stream table holds the stream
                    // until nghttp2 reports the stream closed, after its last DATA frame is read.
                    provider.source.ptr = Unmanaged.passUnretained(stream).toOpaque()
                    provider.read_callback = H2Callbacks.readBody
                    nghttp2_submit_response(session, id, nva.baseAddress, spans.count, &provider)
                }
            }
        }
    }

    package func close() {
        guard !closed else { return }
        closed = true
        if inWatch != 0 { g_source_remove(inWatch); inWatch = 0 }
        if outWatch != 0 { g_source_remove(outWatch); outWatch = 0 }
        if let session { nghttp2_session_del(session) }
        session = nil
        if let ssl { SSL_free(ssl) }
        Glibc.close(fd)
        streams.closeAll()
        onClose(self)
    }
}
