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
}
