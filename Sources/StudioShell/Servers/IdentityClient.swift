import CGtk
import ShellKit
import StudioContract

/// Why a server's identity could not be had, and what the check said.
package struct IdentityFailure: Error {
    package typealias Kind = IdentityFailureKind

    var kind: Kind
    package var message: String
}

/// Asks a server who it is: `GET /api/v1/system/identity`, at most 16 KiB, the whole exchange
/// within 10 s (`Deadline`: a server trickling its answer is cut off too), and
/// from the same origin — redirects are not followed, so the answer cannot come from elsewhere.
/// The window uses it asynchronously (its loading mark keeps turning while a slow server
/// answers); `server add` waits for it.
@MainActor
package enum IdentityClient {
    static func fetch(_ address: ServerAddress, done: @escaping @MainActor (Result<ServerIdentity, IdentityFailure>) -> Void) {
        guard let message = soup_message_new("GET", address.origin.description + ServerIdentity.path) else {
            done(.failure(IdentityFailure(kind: .refused, message: "\(address) is not a valid URL")))
            return
        }
        let request = AsyncIdentityRequest(address: address, message: message, done: done)
        soup_message_add_flags(message, SOUP_MESSAGE_NO_REDIRECT)
        acceptTrustedRoots(message)  // a private root the app trusts (--trust-root-cert)
        // The request lives while a reply is awaited: each reply's closure holds it.
        soup_session_send_async(request.session, message, G_PRIORITY_DEFAULT, request.deadline.cancellable, AsyncReply.callback, AsyncReply.data { source, result in
            var error: UnsafeMutablePointer<GError>? = nil
            let stream = soup_session_send_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: SoupSession.self), result, &error)
            request.sent(stream, error)
        })
    }

    /// The same request, waited for on the thread's default main context (for the CLI). With
    /// `plainTwin` (a bare local address, so https), the same server is asked over http beside
    /// it: a Tilecast answer there means the port speaks plain http, and the person is told at
    /// once how to add it, rather than after the https check's 10 s (a plain-http server may
    /// never answer a TLS hello).
    static func fetchAndWait(_ address: ServerAddress, plainTwin: ServerAddress? = nil) -> Result<ServerIdentity, IdentityFailure> {
        var outcome: Result<ServerIdentity, IdentityFailure>?
        var plain: Result<ServerIdentity, IdentityFailure>?
        fetch(address) { outcome = $0 }
        if let plainTwin { fetch(plainTwin) { plain = $0 } }
        while outcome == nil {
            if let plainTwin, case .success = plain {
                return .failure(IdentityFailure(kind: .refused, message: Self.speaksHTTP(address, plainTwin)))
            }
            g_main_context_iteration(nil, 1)
        }
        if let plainTwin, case .failure = outcome! {
            while plain == nil { g_main_context_iteration(nil, 1) }
            if case .success = plain! { return .failure(IdentityFailure(kind: .refused, message: Self.speaksHTTP(address, plainTwin))) }
        }
        return outcome!
    }

    private static func speaksHTTP(_ address: ServerAddress, _ twin: ServerAddress) -> String {
        "\(address) does not answer over https (an address without http:// or https:// means https, as on the phone), but \(twin) is a Tilecast server. To add it over plain http: hostshell server add \(twin) --allow-http"
    }
}

/// One asynchronous identity request: session, message, the bounded body, and the completion.
/// Held by the closure of the reply it waits for.
@MainActor
private final class AsyncIdentityRequest {
    let address: ServerAddress
    let done: @MainActor (Result<ServerIdentity, IdentityFailure>) -> Void
    package let session: UnsafeMutablePointer<SoupSession>
    package let message: OpaquePointer
    var stream: UnsafeMutablePointer<GInputStream>?
    /// The whole exchange's time.
    let deadline = Deadline(seconds: ServerIdentity.timeoutSeconds)
    /// A buffer that stays put while the asynchronous read fills it.
    let body = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ServerIdentity.maxBytes + 1)

    init(address: ServerAddress, message: OpaquePointer, done: @escaping @MainActor (Result<ServerIdentity, IdentityFailure>) -> Void) {
        self.address = address
        self.message = message
        self.done = done
        session = soup_session_new()!
        soup_session_set_timeout(session, UInt32(ServerIdentity.timeoutSeconds))
        soup_session_set_idle_timeout(session, UInt32(ServerIdentity.timeoutSeconds))
    }

    /// Ends the request: reports, then lets go of the session, the message and the buffer.
    func finish(_ result: Result<ServerIdentity, IdentityFailure>) {
        deadline.end()
        done(result)
        if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }
        g_object_unref(UnsafeMutableRawPointer(message))
        g_object_unref(UnsafeMutableRawPointer(session))
        body.deallocate()
    }

    static func late(_ address: ServerAddress) -> String {
        "\(address) did not finish answering its identity check within \(Int(ServerIdentity.timeoutSeconds)) s; is the server overloaded, or is something else answering on that port?"
    }

    private func fail(_ kind: IdentityFailure.Kind, _ message: String) { finish(.failure(IdentityFailure(kind: kind, message: message))) }

    func sent(_ stream: UnsafeMutablePointer<GInputStream>?, _ error: UnsafeMutablePointer<GError>?) {
        var error = error
        guard let stream else {
            if deadline.passed {
                g_clear_error(&error)
                return fail(.unreachable, Self.late(address))
            }
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no answer"
            let tls = error.map { $0.pointee.domain == g_tls_error_quark() } ?? false
            g_clear_error(&error)
            if tls {
                fail(.insecure, "The connection to \(address) is not secure: \(reason). Check the server's certificate (its name, its dates, and who issued it).")
            } else {
                fail(.unreachable, "\(address) could not be reached: \(reason).")
            }
            return
        }
        self.stream = stream
        let status = soup_message_get_status(message).rawValue
        guard status == 200 else {
            if (300..<400).contains(status) {
                let location = soup_message_headers_get_one(soup_message_get_response_headers(message), "Location")
                fail(.refused, "\(address) redirected its identity check\(location.map { " to \(String(cString: $0))" } ?? ""); HostShell only talks to the address you gave. Use the address it redirects to.")
            } else {
                fail(.refused, "\(address) answered the identity check with HTTP \(status); is this a Tilecast server?")
            }
            return
        }
        // Read at most one byte more than allowed, to tell "too large" from "just fits".
        g_input_stream_read_all_async(stream, body.baseAddress, gsize(body.count), G_PRIORITY_DEFAULT, deadline.cancellable,
                                      AsyncReply.callback, AsyncReply.data { [self] source, result in
            var read: gsize = 0
            var error: UnsafeMutablePointer<GError>? = nil
            let input = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self)
            let ok = g_input_stream_read_all_finish(input, result, &read, &error) != 0
            let reason = error.map { String(cString: $0.pointee.message) }
            g_clear_error(&error)
            self.read(ok ? Int(read) : nil, reason)
        })
    }

    func read(_ count: Int?, _ reason: String?) {
        guard let count else {
            if deadline.passed { return fail(.unreachable, Self.late(address)) }
            fail(.unreachable, "Reading \(address)'s identity failed: \(reason ?? "read error").")
            return
        }
        switch ServerIdentity.parse(Array(body[0..<count])) {
        case .success(let identity): finish(.success(identity))
        case .failure(let problem): fail(.refused, "\(address): \(problem)")
        }
    }
}
