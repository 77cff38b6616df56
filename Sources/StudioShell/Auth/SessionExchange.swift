import CGtk
import HostCore
import ShellKit
import StudioContract

/// `POST /api/v1/oauth/ios-session` (and the revocation endpoint) the way the contract wants it:
/// a fresh libsoup session with no cookie jar, no Authorization header, redirects not followed.
/// Answers with the interpreted result and the `tilecast_session` cookie the server set, if any.
@MainActor
package enum SessionExchange {
    package struct Answer {
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
        SoupExchange.setBody(message, JSONWriter.bytes(body), contentType: "application/json")
        let session = soup_session_new()!  // no SoupCookieJar feature: no cookie goes out
        soup_session_set_timeout(session, guint(CredentialLifecycle.exchangeTimeout))
        let request = ExchangeRequest(origin: origin, session: session, message: message, done: done)
        SoupExchange.send(session, message) { answer in
            request.finish(answer.status == nil ? nil : answer.body, networkError: answer.failure?.message)
        }
    }
}

@MainActor
private final class ExchangeRequest {
    package let origin: Origin
    package let session: UnsafeMutablePointer<SoupSession>
    package let message: OpaquePointer
    let done: @MainActor (SessionExchange.Answer) -> Void

    init(origin: Origin, session: UnsafeMutablePointer<SoupSession>, message: OpaquePointer,
         done: @escaping @MainActor (SessionExchange.Answer) -> Void) {
        self.origin = origin; self.session = session; self.message = message; self.done = done
    }

    func finish(_ body: [UInt8]?, networkError: String?) {
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }  // the message is SoupExchange's
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
