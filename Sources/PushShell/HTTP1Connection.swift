import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// One HTTP/1.1 connection to the stand-in (what a server's client speaks to a plain `http://`
/// base URL). `HTTP1RequestReader` (pure) takes the bytes as they arrive; one request at a time
/// is decided by the service and answered, on the same connection while the client keeps it.
/// A body past its limit is answered (PayloadTooLarge, or whatever Apple would say first) as
/// soon as that is known and the connection closed, its rest unread. Non-blocking on the GLib
/// main loop; the descriptor is closed when the client closes its side or the answer says so.
@MainActor
final class HTTP1Connection {
    let fd: Int32
    private let environment: APNsEnvironment
    private let service: APNsService
    private let onClose: (HTTP1Connection) -> Void
    private var reader = HTTP1RequestReader()
    private var inWatch: UInt32 = 0, outWatch: UInt32 = 0
    private var outgoing: [UInt8] = []
    /// A request is with the service: nothing more is read until it is answered.
    private var busy = false
    /// Inside `process`: an answer given at once continues its loop rather than starting another.
    private var processing = false
    /// The last answer is the connection's: once it is written the sending side is shut.
    private var ending = false
    /// Reading only to drop what a refused client still sends (see `APNsLimits.lingerBytes`).
    private var lingering = false, dropped = 0
    private(set) var closed = false
    private static let readBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 16 * 1024)

    init(fd: Int32, initial: [UInt8], environment: APNsEnvironment, service: APNsService, onClose: @escaping (HTTP1Connection) -> Void) {
        self.fd = fd
        self.environment = environment
        self.service = service
        self.onClose = onClose
        reader.append(initial)
        process()
        if !closed && !busy { watchReadable() }
    }

    private func watchReadable() {
        guard inWatch == 0, !closed else { return }
        inWatch = MainLoop.watch(fd, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)) { [weak self] in
            guard let self else { return false }
            let again = self.readable()
            if !again { self.inWatch = 0 }
            return again
        }
    }

    /// One read: into the reader, or dropped while lingering. False to stop watching.
    private func readable() -> Bool {
        guard !closed else { return false }
        let count = read(fd, Self.readBuffer, 16 * 1024)
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        guard count > 0 else { close(); return false }  // the client closed (or failed): so does the stand-in
        if lingering {
            dropped += count
            if dropped > APNsLimits.lingerBytes { close(); return false }
            return true
        }
        reader.append(UnsafeBufferPointer(start: Self.readBuffer, count: count))
        process()
        // Lingering keeps this watch to drop what still comes; otherwise reading waits for the answer.
        return !closed && (lingering || (!busy && !ending && outgoing.count <= APNsLimits.unsentBytes))
    }

    /// Takes the reader's steps until it needs more bytes, a request is with the service, or
    /// the connection is ending.
    private func process() {
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while !busy && !closed && !ending && outgoing.count <= APNsLimits.unsentBytes {
            switch reader.next() {
            case .needMore:
                if reader.takeContinue() { send(APNsWire.http1Continue) }
                return
            case .request(let head, let body):
                dispatch(head, body: body, overLimit: false)
            case .bodyTooLarge(let head, let start):
                dispatch(head, body: start, overLimit: true)
            case .malformed(let status):
                ending = true
                send(APNsWire.http1Response(status: status, headers: [], body: [], close: true))
            }
        }
    }

    private func dispatch(_ head: HTTP1RequestReader.Head, body: [UInt8], overLimit: Bool) {
        busy = true
        var request = APNsRequest(method: head.method, path: head.target, lowerCaseHeaders: head.headers, body: body)
        request.bodyOverLimit = overLimit
        let keepAlive = head.keepAlive && !overLimit, toHead = head.method == "HEAD"
        service.handle(request, environment: environment, transport: "http/1.1") { [weak self] decision in
            self?.answer(decision, keepAlive: keepAlive, toHead: toHead)
        }
    }

    private func answer(_ decision: APNsDecision, keepAlive: Bool, toHead: Bool) {
        guard !closed else { return }
        busy = false
        if !keepAlive { ending = true }
        send(APNsWire.http1Response(status: decision.status, headers: decision.headers, body: decision.body, close: !keepAlive, toHead: toHead))
        guard !closed, !processing else { return }
        process()
        if !closed && !busy && !ending && outgoing.count <= APNsLimits.unsentBytes { watchReadable() }
    }

    private func send(_ bytes: some Collection<UInt8>) {
        outgoing.append(contentsOf: bytes)
        flush()
    }

    private func flush() {
        while !outgoing.isEmpty && !closed {
            switch H2Connection.write(outgoing, fd: fd, ssl: nil) {
            case .wrote(let written): outgoing.removeFirst(written)
            case .later: watchWritable(); return
            case .failed: close(); return
            }
        }
        guard !closed else { return }
        if ending { linger() } else if !busy && inWatch == 0 { process(); if !closed && !busy && !ending { watchReadable() } }
    }

    private func watchWritable() {
        guard outWatch == 0 else { return }
        outWatch = MainLoop.watch(fd, G_IO_OUT) { [weak self] in
            self?.outWatch = 0
            self?.flush()
            return false
        }
    }

    /// The last answer is out: shut the sending side, drop what still comes for a while, close.
    private func linger() {
        guard !lingering else { return }
        lingering = true
        shutdown(fd, Int32(SHUT_WR))
        watchReadable()
        MainLoop.after(milliseconds: APNsLimits.lingerMs) { [weak self] in self?.close() }
    }

    func close() {
        guard !closed else { return }
        closed = true
        if inWatch != 0 { g_source_remove(inWatch); inWatch = 0 }
        if outWatch != 0 { g_source_remove(outWatch); outWatch = 0 }
        Glibc.close(fd)
        onClose(self)
    }
}
