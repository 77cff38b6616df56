import CGtk
import CapacitorContract
import HomeSec
import PushShell
import ShellKit
import StudioContract

/// A provider's client to Apple's provider API (or the stand-in) on libsoup: it POSTs each
/// request as built by the rules and reports the status and body, or the transport failure by
/// name. A plain `http://` base URL is spoken to over HTTP/1.1 (as HomeSec's httpx does with a
/// non-TLS base URL). It keeps one ES256 provider token and signs a new one when the rule says
/// the old one is stale — kept with the other HostShell senders' (`ProviderTokenStore`), so the
/// fixture, `apns token` and the Hermes gateway send one token per key, as Apple wants, and a
/// restart does not make a new one. It lives as long as the server that made it (its session is
/// never freed).
@MainActor
package final class APNsProviderClient {
    private let session: UnsafeMutablePointer<SoupSession>
    private let tokens: ProviderTokenStore?

    /// `signer` nil: the credentials are missing, so there is no provider token.
    init(signer: ES256Signer?, timeoutSeconds: UInt32 = 10) {
        tokens = signer.map { ProviderTokenStore(signer: $0) }
        session = soup_session_new()!
        soup_session_set_timeout(session, timeoutSeconds)
    }


    /// The provider token to send now, or nil without credentials.
    func providerToken(now: Double) -> String? {
        tokens?.token(now: now)?.text
    }

    /// Sends `request`; `done` gets the status and body, or nil and the failure's name.
    func post(_ request: HomeSecNotifier.Outbound, done: @escaping @MainActor (_ status: Int?, _ body: [UInt8], _ failure: String?) -> Void) {
        guard let message = soup_message_new("POST", request.url) else { return done(nil, [], "InvalidURL") }
        let headers = soup_message_get_request_headers(message)
        for header in request.headers { soup_message_headers_append(headers, header.name, header.value) }
        SoupExchange.setBody(message, request.body, contentType: nil)
        SoupExchange.send(session, message) { answer in
            done(answer.status, answer.body, answer.status == nil ? (answer.failure.map(APNsProviderClient.failureName) ?? "TransportError") : nil)
        }
    }

    /// A transport failure named as HomeSec records it (httpx's exception names).
    nonisolated static func failureName(_ error: SoupExchange.Failure) -> String {
        guard error.domain == g_io_error_quark() else { return error.domain == g_tls_error_quark() ? "ConnectError" : "TransportError" }
        switch GIOErrorEnum(rawValue: UInt32(error.code)) {
        case G_IO_ERROR_TIMED_OUT: return "ReadTimeout"
        case G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE, G_IO_ERROR_HOST_NOT_FOUND:
            return "ConnectError"
        case G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE: return "RemoteProtocolError"
        default: return "TransportError"
        }
    }
}
