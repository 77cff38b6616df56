import CGtk
import Glibc
import HostCore
import Push

/// `hostshell hermes-server serve --session-token T --gateway URL`: a Hermes-like server with the
/// hermes-push plugin (its routes, its hub entry, its sender) on loopback, until interrupted.
/// Prints its address (stdout).
package enum HermesServerCommand {
    package static let usage = """
        usage: hostshell hermes-server serve --session-token T [--gateway URL] [--hub enabled|disabled|inactive|absent]
                                             [--not-installed] [--port N]
        A Hermes-like server with the hermes-push plugin, for the emulated phone (device hermes):
          GET  /api/dashboard/plugins/hub                the plugin hub (readiness): hermes-push and its runtime_status
          POST /api/plugins/hermes-push/register         {device_token, apns_env, app_version} → {ok, device_token, apns_env}
          POST /api/plugins/hermes-push/unregister       {device_token} → {ok, removed}
          POST /api/plugins/hermes-push/test             {} → {ok, devices, results: [{delivered, status, error, pruned, device}]}
          (all behind X-Hermes-Session-Token). Test hooks: POST /__test/notify {type, session_id} raises an
          event (approval, clarify, complete, error) and pushes it to every device; GET /__test/devices, GET /__test/log.
        Pushes go to the gateway as the plugin sends them: register for a capability, a 403 registers again and
        retries once, a 410 prunes the device, 5xx and no answer are tried 3 times (0.5 s, then 1 s apart).
          --session-token T       the token the app sends as X-Hermes-Session-Token (required)
          --gateway URL           the gateway's push URL, taken as the plugin takes HERMES_PUSH_GATEWAY_URL (the
                                  default when this is left out): pushes go to it as it is, registrations to it
                                  with a final /push replaced by /register, else to its origin's /register.
                                  hermes-gateway serve prints one (http://127.0.0.1:PORT/push)
          --hub STATE             how the hub lists hermes-push: enabled (ready; the default), disabled,
                                  inactive (installed, neither enabled nor disabled), absent
          --not-installed         the plugin is not installed: its routes answer 404, the hub omits it
          --port N                listen on 127.0.0.1:N (default: a free port)
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.first == "serve" else {
            if ["--help", "-h", "help"].contains(arguments.first ?? "") { printOut(usage); return ExitCode.success }
            throw UsageError("hermes-server takes the subcommand serve; run \"hostshell hermes-server serve --help\"")
        }
        var token: String?, gateway: String?, hub = HermesPluginServer.HubState.enabled, installed = true, port = 0
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": printOut(usage); return ExitCode.success
            case "--session-token":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("--session-token takes a value; see --help") }
                token = value
            case "--gateway":
                guard let value = rest.popFirst(), value.hasPrefix("http://") || value.hasPrefix("https://") else {
                    throw UsageError("--gateway takes the gateway's push URL, e.g. http://127.0.0.1:40200/push")
                }
                gateway = value
            case "--hub":
                guard let value = rest.popFirst().flatMap(HermesPluginServer.HubState.init(rawValue:)) else {
                    throw UsageError("--hub takes enabled, disabled, inactive or absent")
                }
                hub = value
            case "--not-installed": installed = false
            case "--port":
                guard let value = rest.popFirst().flatMap(Int.init), (1...65535).contains(value) else {
                    throw UsageError("--port takes a port number from 1 to 65535 (leave it out to have a free port picked)")
                }
                port = value
            default:
                throw UsageError("unknown argument \(argument) for hermes-server serve; run \"hostshell hermes-server serve --help\"")
            }
        }
        guard let token else { throw UsageError("hermes-server serve needs --session-token T; see --help") }
        if gateway == nil, let value = getenv(HermesPluginSender.gatewayURLVariable).map({ String(cString: $0) }), !value.isEmpty {
            guard value.hasPrefix("http://") || value.hasPrefix("https://") else {
                throw UsageError("\(HermesPluginSender.gatewayURLVariable) must be the gateway's push URL, e.g. http://127.0.0.1:40200/push")
            }
            gateway = value
        }
        guard let gateway else {
            throw UsageError("hermes-server serve needs --gateway URL or \(HermesPluginSender.gatewayURLVariable) (hostshell hermes-gateway serve prints it)")
        }
        let options = HermesPluginServer.Options(sessionToken: token, installed: installed, hub: hub)
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            do throws(UsageError) {
                let server = HermesPluginHTTP(options: options, gateway: gateway)
                try server.start(port: port)
                printOut("http://127.0.0.1:\(server.port)")
                printError("Hermes-like server: hermes-push \(installed ? "installed, hub \(hub.rawValue)" : "not installed"); gateway \(gateway)")
                fflush(nil)
                let loop = g_main_loop_new(nil, 0)
                for signal in [SIGINT, SIGTERM] {
                    g_unix_signal_add(signal, { data in g_main_loop_quit(OpaquePointer(data)); return 0 }, UnsafeMutableRawPointer(loop))
                }
                g_main_loop_run(loop)
                withExtendedLifetime(server) {}
                return .success(ExitCode.success)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
