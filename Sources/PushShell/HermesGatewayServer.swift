import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// The Hermes push gateway on libsoup: `/register` and `/push` decided by `HermesGateway`
/// (BridgeRuntime), capabilities by OpenSSL's HMAC, the push forwarded to Apple's provider API
/// (the stand-in's base URL per environment, over HTTP/1.1) with a provider token it signs and
/// keeps about 50 minutes — across restarts too (`ProviderTokenStore`). It waits on Apple at
/// most `HermesGateway.apnsWaitSeconds`, under the plugin's own 5 s timeout.
@MainActor
package final class HermesGatewayServer {
    package struct Settings {
        var secret: [UInt8]
        var topic: String
        var bases: [APNsEnvironment: String]
        /// Where provider tokens are kept between runs (nil: in memory only).
        var tokenDirectory: String? = ProviderTokenStore.defaultDirectory
    }
    let settings: Settings
    private let tokens: ProviderTokenStore
    private let server: UnsafeMutablePointer<SoupServer>
    private let session: UnsafeMutablePointer<SoupSession>
    package private(set) var port = 0

    init(settings: Settings, signer: ES256Signer) {
        self.settings = settings
        tokens = ProviderTokenStore(signer: signer, directory: settings.tokenDirectory)
        session = soup_session_new()!
        soup_session_set_timeout(session, guint(HermesGateway.apnsWaitSeconds.rounded(.up)))
        server = cgtk_soup_server_new()!
        SoupServing.handle(server) { [weak self] message, path in self?.handle(message, path: path) }
        SoupBounds(bodyBytes: HermesGateway.requestBodyBytes, lingerMs: APNsLimits.lingerMs, lingerBytes: APNsLimits.lingerBytes,
                   refusal: ["error": .string("the body is longer than \(HermesGateway.requestBodyBytes) bytes")]).apply(to: server)
    }

    package func start(port requested: Int) throws(UsageError) {
        port = try SoupServing.listenLocal(server, port: requested, what: "the Hermes gateway")
    }

    private func capability(_ token: String) -> String {
        ES256Signer.hmacSHA256Hex(key: settings.secret, message: HermesGateway.capabilityInput(token: token))
    }

    private func handle(_ message: OpaquePointer, path: String) {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        guard method == "POST" else { return send(message, 405, ["error": "POST only"]) }
        let body = SoupServing.body(message)
        let outcome: HermesGateway.Outcome
        switch HermesGateway.route(path: path) {
        case .register: outcome = HermesGateway.register(body: body, capability: capability)
        case .push: outcome = HermesGateway.push(body: body, capability: capability)
        case nil: return send(message, 404, ["error": "no such route; the gateway serves POST /register and POST /push (or /)"])
        }
        switch outcome {
        case .answer(let status, let json): send(message, status, json)
        case .forward(let outbound):
            g_object_ref(UnsafeMutableRawPointer(message))
            soup_server_message_pause(message)
            forward(outbound) { [weak self] status, json in
                self?.send(message, status, json)
                soup_server_message_unpause(message)
                g_object_unref(UnsafeMutableRawPointer(message))
            }
        }
    }

    private func forward(_ outbound: HermesGateway.APNsOutbound, done: @escaping @MainActor (Int, JSONValue) -> Void) {
        guard let base = settings.bases[outbound.environment] else {
            return done(502, ["error": .string("the gateway has no APNs base URL for \(outbound.environment.rawValue)")])
        }
        guard let token = tokens.token(now: wallClockSeconds())?.text else { return done(502, ["error": "the gateway cannot make its APNs request"]) }
        let all = [(name: "authorization", value: "bearer " + token), (name: "apns-topic", value: settings.topic)] + outbound.headers
        if let why = HeaderValue.problem(in: all) { return done(400, ["error": .string("not sent to APNs: \(why)")]) }
        guard let message = soup_message_new("POST", base + "/3/device/" + outbound.token) else {
            return done(502, ["error": "the gateway cannot make its APNs request"])
        }
        let headers = soup_message_get_request_headers(message)
        for header in all { soup_message_headers_append(headers, header.name, header.value) }
        SoupExchange.setBody(message, JSONWriter.bytes(outbound.payload), contentType: "application/json")
        SoupExchange.send(session, message, wantedHeaders: ["apns-id"], deadline: HermesGateway.apnsWaitSeconds) { reply in
            let answer = HermesGateway.answer(forAPNs: reply.status, body: reply.body, apnsID: reply.headers["apns-id"])
            done(answer.status, answer.body)
        }
    }

    private func send(_ message: OpaquePointer, _ status: Int, _ json: JSONValue) {
        SoupServing.respond(message, status, json)
    }
}
