import BridgeRuntime
import CGtk
import Glibc

/// A small JSON-over-HTTP client on libsoup (loopback servers and gateways): one request, its
/// status (nil when no answer came: refused, timed out) and its body parsed as JSON when it is.
@MainActor
final class JSONRequest {
    typealias Done = @MainActor (_ status: Int?, _ body: JSONValue?) -> Void
    nonisolated(unsafe) private let session: UnsafeMutablePointer<SoupSession>

    init(timeoutSeconds: Double) {
        session = soup_session_new()!
        soup_session_set_timeout(session, guint(max(1, timeoutSeconds.rounded(.up))))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(session)) }

    /// Sends `method url` with `headers` and `body` (as JSON), then calls `done` once.
    func send(_ method: String, _ url: String, headers: [(String, String)] = [], body: JSONValue? = nil, done: @escaping Done) {
        guard let message = soup_message_new(method, url) else { return done(nil, ["error": .string("not a URL: \(url)")]) }
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers { soup_message_headers_append(requestHeaders, name, value) }
        if let body {
            let bytes = JSONWriter.bytes(body)
            let payload = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, "application/json", payload)
            g_bytes_unref(payload)
        }
        final class Pending {
            let message: OpaquePointer; let done: Done
            init(_ message: OpaquePointer, _ done: @escaping Done) { self.message = message; self.done = done }
        }
        soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, nil, { source, result, data in
            let pending = Unmanaged<Pending>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let body = soup_session_send_and_read_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: SoupSession.self), result, &error)
            g_clear_error(&error)
            var bytes: [UInt8] = []
            if let body {
                var size: gsize = 0
                if let data = g_bytes_get_data(body, &size) { bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(size))) }
                g_bytes_unref(body)
            }
            let status = body == nil ? nil : Int(soup_message_get_status(pending.message).rawValue)
            g_object_unref(UnsafeMutableRawPointer(pending.message))
            let json = bytes.isEmpty ? nil : try? JSONParser.parse(bytes: bytes)
            MainActor.assumeIsolated { pending.done(status, json) }
        }, Unmanaged.passRetained(Pending(message, done)).toOpaque())
    }
}
