import CGtk

/// One request on a libsoup session, sent and read whole: the one place the app's HTTP clients
/// (the credential exchange, the JSON client, the Hermes gateway, the APNs provider client) hand
/// a message to libsoup and take its answer back on the main thread.
package enum SoupExchange {
    /// What came back: the status (nil when no answer came: refused, timed out, broken), the
    /// body, the response headers asked for, and the transport failure when there was no answer.
    package struct Answer {
        package var status: Int?
        package var body: [UInt8]
        package var headers: [String: String]
        package var failure: Failure?
    }

    package struct Failure {
        package var domain: GQuark
        package var code: Int32
        package var message: String
    }

    /// Sets `bytes` as the message's request body (`contentType` nil: no Content-Type set here).
    package static func setBody(_ message: OpaquePointer, _ bytes: [UInt8], contentType: String?) {
        let payload = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        soup_message_set_request_body_from_bytes(message, contentType, payload)
        g_bytes_unref(payload)
    }

    /// The whole exchange's limit unless a caller gives its own: libsoup's session timeouts
    /// bound each wait for a byte, not a server that trickles its answer.
    package static let defaultDeadline = 30.0

    /// Sends `message` (taking its reference) and calls `done` once on the main thread, with the
    /// values of `wantedHeaders` from the response; the message lives until `done` returns (its
    /// cookies can be read there). The whole exchange ends within `seconds`.
    @MainActor
    package static func send(_ session: UnsafeMutablePointer<SoupSession>, _ message: OpaquePointer, wantedHeaders: [String] = [],
                     deadline seconds: Double = defaultDeadline, done: @escaping @MainActor (Answer) -> Void) {
        let deadline = Deadline(seconds: seconds)
        acceptTrustedRoots(message)
        soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, deadline.cancellable, AsyncReply.callback, AsyncReply.data { source, result in
            deadline.end()
            var error: UnsafeMutablePointer<GError>?
            let body = soup_session_send_and_read_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: SoupSession.self), result, &error)
            let failure = error.map { Failure(domain: $0.pointee.domain, code: $0.pointee.code,
                                              message: deadline.passed ? "no whole answer within \(Int(seconds)) s" : String(cString: $0.pointee.message)) }
            g_clear_error(&error)
            var answer = Answer(status: nil, body: [], headers: [:], failure: body == nil ? failure : nil)
            if let body {
                var size: gsize = 0
                if let data = g_bytes_get_data(body, &size) { answer.body = Array(UnsafeRawBufferPointer(start: data, count: Int(size))) }
                g_bytes_unref(body)
                answer.status = Int(soup_message_get_status(message).rawValue)
                let headers = soup_message_get_response_headers(message)
                for name in wantedHeaders {
                    if let value = soup_message_headers_get_one(headers, name) { answer.headers[name] = String(cString: value) }
                }
            }
            done(answer)
            g_object_unref(UnsafeMutableRawPointer(message))
        })
    }
}
