import BridgeRuntime
import CGtk

/// `POST /api/v1/oauth/ios-session` (and the revocation endpoint) the way the contract wants it:
/// a fresh libsoup session with no cookie jar, no Authorization header, redirects not followed.
/// Answers with the interpreted result and the `tilecast_session` cookie the server set, if any.
@MainActor
enum SessionExchange {
    struct Answer {
        var result: SessionExchangeResult
        /// The Studio session cookie for the server's host (owned: free with `soup_cookie_free`).
        var studioCookie: OpaquePointer?
    }

    static func post(_ body: JSONValue, to origin: Origin, path: String = "/api/v1/oauth/ios-session",
                     done: @escaping @MainActor (Answer) -> Void) {
        let url = origin.description + path
        guard let message = soup_message_new("POST", url) else {
            done(Answer(result: .failed(.unavailable("\(url) is not a valid URL")), studioCookie: nil))
            return
        }
        soup_message_add_flags(message, SOUP_MESSAGE_NO_REDIRECT)
        let bytes = JSONWriter.bytes(body)
        let payload = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        soup_message_set_request_body_from_bytes(message, "application/json", payload)
        g_bytes_unref(payload)
        let session = soup_session_new()!  // no SoupCookieJar feature: no cookie goes out
        soup_session_set_timeout(session, guint(CredentialLifecycle.exchangeTimeout))
        let request = ExchangeRequest(origin: origin, session: session, message: message, done: done)
        soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, nil, { source, result, data in
            let request = Unmanaged<ExchangeRequest>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let body = soup_session_send_and_read_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: SoupSession.self), result, &error)
            let reason = error.map { String(cString: $0.pointee.message) }
            g_clear_error(&error)
            var bytes: [UInt8] = []
            if let body {
                var size: gsize = 0
                if let data = g_bytes_get_data(body, &size) { bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(size))) }
                g_bytes_unref(body)
            }
            MainActor.assumeIsolated { request.finish(body == nil ? nil : bytes, networkError: reason) }
        }, Unmanaged.passRetained(request).toOpaque())
    }
}

@MainActor
private final class ExchangeRequest {
    let origin: Origin
    let session: UnsafeMutablePointer<SoupSession>
    let message: OpaquePointer
    let done: @MainActor (SessionExchange.Answer) -> Void

    init(origin: Origin, session: UnsafeMutablePointer<SoupSession>, message: OpaquePointer,
         done: @escaping @MainActor (SessionExchange.Answer) -> Void) {
        self.origin = origin; self.session = session; self.message = message; self.done = done
    }

    func finish(_ body: [UInt8]?, networkError: String?) {
        defer {
            g_object_unref(UnsafeMutableRawPointer(message))
            g_object_unref(UnsafeMutableRawPointer(session))
        }
        guard let body else {
            done(.init(result: .failed(.unavailable(networkError ?? "no answer")), studioCookie: nil))
            return
        }
        let status = Int(soup_message_get_status(message).rawValue)
        let result = SessionExchangeResult.interpret(status: status, body: body)
        var studioCookie: OpaquePointer?
        if case .failed = result {} else {
            // Only a cookie named tilecast_session, for this server's host, is taken.
            var cookies = soup_cookies_from_response(message)
            var node = cookies
            while let current = node {
                let cookie = OpaquePointer(current.pointee.data)
                if studioCookie == nil, String(cString: soup_cookie_get_name(cookie)) == "tilecast_session",
                   soup_cookie_domain_matches(cookie, origin.host) != 0 {
                    studioCookie = soup_cookie_copy(cookie)
                }
                node = current.pointee.next
            }
            soup_cookies_free(cookies)
            cookies = nil
        }
        done(.init(result: result, studioCookie: studioCookie))
    }
}
