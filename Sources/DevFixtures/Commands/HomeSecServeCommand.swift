import CGtk
import Glibc
import HomeSec
import HostCore

/// `hostshell serve --homesec …`: a HomeSec-like server on loopback for the reference Capacitor
/// app and for tests, until interrupted. Prints its address first (stdout), then how it is set
/// up (stderr).
package enum HomeSecServeCommand {
    package static let usage = """
        usage: hostshell serve --homesec [--auth on|off] [--token T] [--port N] [--cors-origin ORIGIN]…
                                         [--unhealthy] [--web-dir DIR] [--fail PATH=STATUS]…
                                         [--apns-bundle-id ID --apns-base-url URL --apns-key-id ID --apns-team-id ID --apns-key PEM]
          --auth on|off        whether /api/v1/cameras and /api/v1/mobile/devices want the API key (default off)
          --token T            the API key a client sends as "Authorization: Bearer T" (default \(HomeSecServer.defaultKey))
          --port N             listen on 127.0.0.1:N (default: a free port)
          --cors-origin ORIGIN allow this origin only (repeatable; default: any origin, "*")
          --unhealthy          /api/v1/health answers 503 with status "unhealthy" (the pipeline stopped)
          --web-dir DIR        also serve a web app from DIR (a dev server for "hostshell capacitor --url")
          --fail PATH=STATUS   answer PATH with STATUS and a body that is not JSON (for tests)
        \(HomeSecAPNsOptions.usage)
        Routes: GET /api/v1/health, GET /api/v1/cameras, GET|POST /api/v1/mobile/devices,
        PATCH|DELETE /api/v1/mobile/devices/ID, GET /__test/log (what the server received, and each event's
        notification), POST /__test/event {camera, clip_id, activity_type, risk_level, summary} (raise an event).
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var options = HomeSecServer.Options()
        var port = 0
        var webDirectory: String?
        var failures: [String: UInt32] = [:]
        var origins: [String] = []
        var apns = HomeSecAPNsOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--homesec": continue
            case "--help", "-h":
                printOut(usage)
                return ExitCode.success
            case "--auth":
                switch rest.popFirst() {
                case "on": options.authEnabled = true
                case "off": options.authEnabled = false
                default: throw UsageError("--auth takes on or off")
                }
            case "--token":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-"),
                      value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                    throw UsageError("--token takes a key of printable ASCII characters without spaces")
                }
                options.apiKey = value
            case "--port":
                guard let value = rest.popFirst().flatMap(CommandLineRules.port) else {
                    throw UsageError("--port takes a port number from 1 to 65535")
                }
                port = value
            case "--cors-origin":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError("--cors-origin takes an origin, e.g. capacitor://localhost, or *")
                }
                origins.append(value)
            case "--unhealthy": options.pipelineRunning = false
            case "--web-dir":
                guard let value = rest.popFirst(), !value.hasPrefix("-") else { throw UsageError("--web-dir takes a directory") }
                guard access(value + "/index.html", R_OK) == 0 else { throw UsageError("--web-dir: \(value)/index.html cannot be read") }
                webDirectory = value.hasSuffix("/") ? String(value.dropLast()) : value
            case "--fail":
                guard let value = rest.popFirst(), let equals = value.lastIndex(of: "="), value.hasPrefix("/"),
                      let status = UInt32(value[value.index(after: equals)...]), (400...599).contains(status) else {
                    throw UsageError("--fail takes PATH=STATUS with an absolute path and a status from 400 to 599, e.g. /api/v1/health=502")
                }
                failures[String(value[..<equals])] = status
            default:
                if try apns.take(argument, &rest) { continue }
                throw UsageError("unknown argument \(argument) for serve --homesec; run \"hostshell serve --homesec --help\"")
            }
        }
        if !origins.isEmpty { options.corsOrigins = origins }
        let notifier = try apns.resolve { name in getenv(name).map { String(cString: $0) } }
        options.apns = notifier?.config
        let settings = options
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            let server = HomeSecFixtureServer(options: settings, webDirectory: webDirectory)
            server.failures = failures
            if let notifier { server.apnsClient = APNsProviderClient(signer: notifier.signer) }
            do throws(UsageError) { try server.start(port: port) } catch { return .failure(error) }
            printOut(server.baseURL)
            let auth = settings.authEnabled ? "auth on (Authorization: Bearer \(settings.apiKey))" : "auth off"
            printError("HomeSec reference server: \(auth); CORS \(settings.corsOrigins.joined(separator: " "))"
                       + (webDirectory.map { "; web app from \($0)" } ?? "")
                       + (settings.apns.map { "; APNs notifier for \($0.bundleID) (\($0.environment)) at \($0.baseURL)" } ?? ""))
            for warning in notifier?.warnings ?? [] { printError("HomeSec reference server: " + warning + "; every event's push will fail") }
            fflush(nil)  // the address must reach a reading parent at once
            let loop = g_main_loop_new(nil, 0)
            for signal in [SIGINT, SIGTERM] {
                g_unix_signal_add(signal, { data in g_main_loop_quit(OpaquePointer(data)); return 0 }, UnsafeMutableRawPointer(loop))
            }
            g_main_loop_run(loop)
            server.stop()
            return .success(ExitCode.success)
        }
        return try result.get()
    }
}
