import BridgeRuntime
import CGtk

/// Asks a server who it is: `GET /api/v1/system/identity`, at most 16 KiB, within 10 s, and
/// from the same origin — redirects are not followed, so the answer cannot come from elsewhere.
enum IdentityClient {
    static func fetch(_ address: ServerAddress) -> Result<ServerIdentity, UsageError> {
        let session = soup_session_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        soup_session_set_timeout(session, UInt32(ServerIdentity.timeoutSeconds))
        soup_session_set_idle_timeout(session, UInt32(ServerIdentity.timeoutSeconds))
        let url = address.origin.description + ServerIdentity.path
        guard let message = soup_message_new("GET", url) else { return .failure(UsageError("\(url) is not a valid URL")) }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        soup_message_add_flags(message, SOUP_MESSAGE_NO_REDIRECT)
        var error: UnsafeMutablePointer<GError>? = nil
        guard let stream = soup_session_send(session, message, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no answer"
            let tls = error.map { $0.pointee.domain == g_tls_error_quark() } ?? false
            g_clear_error(&error)
            return .failure(UsageError(tls ? "the connection to \(address) is not secure: \(reason)"
                                           : "\(address) could not be reached: \(reason)"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        let status = soup_message_get_status(message)
        guard status.rawValue == 200 else {
            let location = soup_message_headers_get_one(soup_message_get_response_headers(message), "Location")
            if (300..<400).contains(status.rawValue) {
                return .failure(UsageError("\(address) redirected its identity check\(location.map { " to \(String(cString: $0))" } ?? ""); HostShell only talks to the address you gave. Use the address it redirects to."))
            }
            return .failure(UsageError("\(address) answered the identity check with HTTP \(status.rawValue); is this a Tilecast server?"))
        }
        // Read at most one byte more than allowed, to tell "too large" from "just fits".
        var body = [UInt8](repeating: 0, count: ServerIdentity.maxBytes + 1)
        var total = 0
        while total < body.count {
            let n = body.withUnsafeMutableBufferPointer { buffer in
                g_input_stream_read(stream, buffer.baseAddress! + total, gsize(buffer.count - total), nil, &error)
            }
            if n < 0 {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "read error"
                g_clear_error(&error)
                return .failure(UsageError("reading \(address)'s identity failed: \(reason)"))
            }
            if n == 0 { break }
            total += n
        }
        switch ServerIdentity.parse(Array(body[0..<total])) {
        case .success(let identity): return .success(identity)
        case .failure(let problem): return .failure(UsageError("\(address): \(problem)"))
        }
    }

    /// The same check without blocking the main loop: the window stays responsive (and its
    /// loading mark animated) while a slow server takes up to 10 s. `done` runs on the main loop.
    @MainActor
    static func fetch(_ address: ServerAddress, done: @escaping @MainActor (Result<ServerIdentity, UsageError>) -> Void) {
        let request = AsyncIdentityRequest(address: address, done: done)
        guard let message = soup_message_new("GET", address.origin.description + ServerIdentity.path) else {
            done(.failure(UsageError("\(address) is not a valid URL")))
            return
        }
        request.message = message
        soup_message_add_flags(message, SOUP_MESSAGE_NO_REDIRECT)
        soup_session_send_async(request.session, message, G_PRIORITY_DEFAULT, nil, { source, result, data in
            let request = Unmanaged<AsyncIdentityRequest>.fromOpaque(data!).takeUnretainedValue()
            var error: UnsafeMutablePointer<GError>? = nil
            let stream = soup_session_send_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: SoupSession.self), result, &error)
            MainActor.assumeIsolated { request.sent(stream, error) }
        }, Unmanaged.passRetained(request).toOpaque())
    }
}

/// One asynchronous identity request: session, message, the bounded body, and the completion.
/// Retained while in flight; released when it completes.
@MainActor
private final class AsyncIdentityRequest {
    let address: ServerAddress
    let done: @MainActor (Result<ServerIdentity, UsageError>) -> Void
    let session: UnsafeMutablePointer<SoupSession>
    var message: OpaquePointer?
    var stream: UnsafeMutablePointer<GInputStream>?
    /// A buffer that stays put while the asynchronous read fills it.
    let body = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ServerIdentity.maxBytes + 1)

    init(address: ServerAddress, done: @escaping @MainActor (Result<ServerIdentity, UsageError>) -> Void) {
        self.address = address
        self.done = done
        session = soup_session_new()!
        soup_session_set_timeout(session, UInt32(ServerIdentity.timeoutSeconds))
    }

    /// Ends the request: reports, then drops the reference the callbacks held.
    func finish(_ result: Result<ServerIdentity, UsageError>) {
        done(result)
        if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        g_object_unref(UnsafeMutableRawPointer(session))
        body.deallocate()
        Unmanaged.passUnretained(self).release()
    }

    func sent(_ stream: UnsafeMutablePointer<GInputStream>?, _ error: UnsafeMutablePointer<GError>?) {
        var error = error
        guard let stream else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no answer"
            let tls = error.map { $0.pointee.domain == g_tls_error_quark() } ?? false
            g_clear_error(&error)
            finish(.failure(UsageError(tls ? "the connection to \(address) is not secure: \(reason)"
                                            : "\(address) could not be reached: \(reason)")))
            return
        }
        self.stream = stream
        let status = soup_message_get_status(message).rawValue
        guard status == 200 else {
            finish(.failure(UsageError((300..<400).contains(status)
                ? "\(address) redirected its identity check; HostShell only talks to the address you gave"
                : "\(address) answered the identity check with HTTP \(status); is this a Tilecast server?")))
            return
        }
        // Read at most one byte more than allowed, to tell "too large" from "just fits".
        g_input_stream_read_all_async(stream, body.baseAddress, gsize(body.count), G_PRIORITY_DEFAULT, nil, { source, result, data in
            let request = Unmanaged<AsyncIdentityRequest>.fromOpaque(data!).takeUnretainedValue()
            var read: gsize = 0
            var error: UnsafeMutablePointer<GError>? = nil
            let input = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self)
            let ok = g_input_stream_read_all_finish(input, result, &read, &error) != 0
            let reason = error.map { String(cString: $0.pointee.message) }
            g_clear_error(&error)
            MainActor.assumeIsolated { request.read(ok ? Int(read) : nil, reason) }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    func read(_ count: Int?, _ reason: String?) {
        guard let count else {
            finish(.failure(UsageError("reading \(address)'s identity failed: \(reason ?? "read error")")))
            return
        }
        switch ServerIdentity.parse(Array(body[0..<count])) {
        case .success(let identity): finish(.success(identity))
        case .failure(let problem): finish(.failure(UsageError("\(address): \(problem)")))
        }
    }
}
