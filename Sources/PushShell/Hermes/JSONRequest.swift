import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// A small JSON-over-HTTP client on libsoup (loopback servers and gateways): one request, its
/// status (nil when no answer came: refused, timed out) and its body parsed as JSON when it is.
@MainActor
package final class JSONRequest {
    package typealias Done = @MainActor (_ status: Int?, _ body: JSONValue?) -> Void
    nonisolated(unsafe) private let session: UnsafeMutablePointer<SoupSession>
    /// The whole exchange's limit (the session's timeout bounds each wait for a byte).
    private let timeoutSeconds: Double

    init(timeoutSeconds: Double) {
        self.timeoutSeconds = timeoutSeconds
        session = soup_session_new()!
        soup_session_set_timeout(session, guint(max(1, timeoutSeconds.rounded(.up))))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(session)) }

    /// Sends `method url` with `headers` and `body` (as JSON), then calls `done` once.
    func send(_ method: String, _ url: String, headers: [(String, String)] = [], body: JSONValue? = nil, done: @escaping Done) {
        if let why = HeaderValue.problem(in: headers.map { (name: $0.0, value: $0.1) }) { return done(nil, ["error": .string("not sent: \(why)")]) }
        guard let message = soup_message_new(method, url) else { return done(nil, ["error": .string("not a URL: \(url)")]) }
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers { soup_message_headers_append(requestHeaders, name, value) }
        if let body { SoupExchange.setBody(message, JSONWriter.bytes(body), contentType: "application/json") }
        SoupExchange.send(session, message, deadline: timeoutSeconds) { answer in
            done(answer.status, answer.body.isEmpty ? nil : try? JSONParser.parse(bytes: answer.body))
        }
    }
}
