import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// The Hermes-like reference server on libsoup: requests decided by `HermesPluginServer`
/// (BridgeRuntime); a fan-out runs one `HermesPluginSender` per device against the gateway,
/// one device after another as the plugin does, pausing between retries on the main loop.
@MainActor
package final class HermesPluginHTTP {
    private var rules: HermesPluginServer
    private let pushURL: String
    private let server: UnsafeMutablePointer<SoupServer>
    private let client = JSONRequest(timeoutSeconds: HermesPluginSender.timeoutSeconds)
    package private(set) var port = 0

    init(options: HermesPluginServer.Options, gateway: String) {
        rules = HermesPluginServer(options: options)
        pushURL = gateway  // as the plugin takes HERMES_PUSH_GATEWAY_URL: pushes go to it as it is
        server = cgtk_soup_server_new()!
        SoupServing.handle(server) { [weak self] message, path in self?.handle(message, path: path) }
        SoupBounds(bodyBytes: HermesPluginServer.requestBodyBytes, lingerMs: APNsLimits.lingerMs, lingerBytes: APNsLimits.lingerBytes,
                   refusal: ["error": .string("the body is longer than \(HermesPluginServer.requestBodyBytes) bytes")]).apply(to: server)
    }

    package func start(port requested: Int) throws(UsageError) {
        port = try SoupServing.listenLocal(server, port: requested, what: "the Hermes-like server")
    }

    private func handle(_ message: OpaquePointer, path: String) {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        let body = SoupServing.body(message)
        let headers = soup_server_message_get_request_headers(message)
        let outcome = rules.handle(method: method, path: path, header: { name in
            soup_message_headers_get_one(headers, name).map { String(cString: $0) }
        }, body: body)
        switch outcome {
        case .answer(let status, let json):
            send(message, status, json)
        case .fanOut(let type, let session, let devices, let test):
            g_object_ref(UnsafeMutableRawPointer(message))
            soup_server_message_pause(message)
            fanOut(type: type, session: session, devices: devices, results: []) { [weak self] results in
                guard let self else { return }
                let answer = self.rules.finished(type: type, sessionID: session, devices: devices, results: results, test: test)
                self.send(message, answer.status, answer.body)
                soup_server_message_unpause(message)
                g_object_unref(UnsafeMutableRawPointer(message))
            }
        }
    }

    private func fanOut(type: HermesPushType, session: String, devices: [HermesPushDevice], results: [HermesPluginSender.Result],
                        done: @escaping @MainActor ([HermesPluginSender.Result]) -> Void) {
        guard results.count < devices.count else { return done(results) }
        let device = devices[results.count]
        var sender = HermesPluginSender(device: device, type: type, sessionID: session, capability: rules.capabilities[device.token])
        let step = sender.start()
        run(step, sender) { [weak self] result in
            self?.fanOut(type: type, session: session, devices: devices, results: results + [result], done: done)
        }
    }

    /// Carries out one step of a device's sender, and the next, until it is done.
    private func run(_ step: HermesPluginSender.Step, _ sender: HermesPluginSender, done: @escaping @MainActor (HermesPluginSender.Result) -> Void) {
        let headers = [("Content-Type", "application/json"), ("User-Agent", HermesPluginSender.userAgent)]
        switch step {
        case .done(let result):
            done(result)
        case .wait(let seconds):
            MainLoop.after(milliseconds: UInt32(min(seconds, 3600) * 1000)) { [weak self] in
                var next = sender
                let step = next.waited()
                self?.run(step, next, done: done)
            }
        case .register(let body):
            client.send("POST", HermesPluginSender.registerURL(pushURL: pushURL), headers: headers, body: body) { [weak self] status, json in
                var next = sender
                let step = next.registered(status: status, body: json)
                self?.run(step, next, done: done)
            }
        case .push(let body):
            client.send("POST", pushURL, headers: headers, body: body) { [weak self] status, json in
                var next = sender
                let step = next.pushed(status: status, body: json)
                self?.run(step, next, done: done)
            }
        }
    }

    private func send(_ message: OpaquePointer, _ status: Int, _ json: JSONValue) {
        SoupServing.respond(message, status, json)
    }
}
