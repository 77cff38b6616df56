import CGtk
import HostCore

/// What the app's small loopback JSON servers (the Hermes gateway, the Hermes-like server) share
/// on libsoup: listening on a loopback port, reading a request's body, answering with JSON.
package enum SoupServing {
    /// Listens on 127.0.0.1:`port` (0: a free one); the port it got. `what` names the server in the error.
    @discardableResult
    package static func listenLocal(_ server: UnsafeMutablePointer<SoupServer>, port requested: Int, what: String) throws(UsageError) -> Int {
        var error: UnsafeMutablePointer<GError>? = nil
        guard soup_server_listen_local(server, guint(requested), SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw UsageError("cannot start \(what): \(reason)")
        }
        var port = 0
        let uris = soup_server_get_uris(server)
        if let first = uris?.pointee.data { port = Int(g_uri_get_port(OpaquePointer(first))) }
        g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) })
        return port
    }

    /// The request's body, at most `limit` bytes of it.
    package static func body(_ message: OpaquePointer, limit: Int = 64 * 1024) -> [UInt8] {
        guard let raw = soup_server_message_get_request_body(message), raw.pointee.length > 0, let data = raw.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: min(Int(raw.pointee.length), limit)))
    }

    /// Answers `status` with `json` as the body.
    package static func respond(_ message: OpaquePointer, _ status: Int, _ json: JSONValue) {
        soup_server_message_set_status(message, guint(status), nil)
        let bytes = JSONWriter.bytes(json)
        bytes.withUnsafeBufferPointer { buffer in
            soup_server_message_set_response(message, "application/json", SOUP_MEMORY_COPY,
                                             buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, gsize(buffer.count))
        }
    }
}
