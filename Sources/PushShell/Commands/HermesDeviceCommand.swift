import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// `hostshell device hermes --server URL --session-token T --control SOCKET`: Hermes' phone
/// without a page — its push client emulated, signed in to a Hermes server, every step shown by
/// `ctl SOCKET state` and driven through the control socket, until interrupted.
package enum HermesDeviceCommand {
    package static let usage = """
        usage: hostshell device hermes --server URL --session-token T --control SOCKET [--name N]
                                       [--environment sandbox|production] [--bundle-id ID] [--cold-start]
        Hermes' app is native (no page to host): HostShell emulates its push client, signed in to URL.
        On launch it probes readiness (GET /api/dashboard/plugins/hub): ready → it asks for notification
        permission, and once granted registers the device token; not ready → it offers setup, whose "Later"
        snoozes 1, 2, 3, 5, 8, 13, 21, 34, 55, then 60 days; unknown → nothing.
        Drive it with hostshell ctl SOCKET …:
          state | wait PATH=VALUE… [--timeout S]       the device's state (hermes.* is the client's)
          permission grant|deny                         answer the permission prompt (or change the setting)
          push-token rotate                             the system gives a new device token (registers again)
          push deliver|tap '{"aps":…,"session_id":…}'  a push arrives (and is tapped)
          lifecycle background|foreground | sign-out
          hermes probe|later|clock SECONDS|open SESSION|close|tap ID|test|ready|sign-in [URL]
          --server URL            the Hermes server, e.g. what hermes-server serve prints (required)
          --session-token T       the signed-in session's X-Hermes-Session-Token (required)
          --control SOCKET        the control socket to serve (required)
          --name N                the device's profile, $XDG_DATA_HOME/hostshell/devices/N (default hermes):
                                  hermes.json (the client's state) and push.json (its device token)
          --environment ENV       the app build's APNs environment: sandbox (default) or production
          --bundle-id ID          the app's bundle id, the apns-topic its pushes carry (default com.example.hermes);
                                  pushes the APNs stand-in accepts for the device's token come here
          --cold-start            launched from a notification: not ready (taps wait) until ctl hermes ready
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.first == "hermes" else {
            if ["--help", "-h", "help"].contains(arguments.first ?? "") { printOut(usage); return ExitCode.success }
            throw UsageError("device takes the kind of device: hermes; run \"hostshell device hermes --help\"")
        }
        var values: [String: String] = [:]
        var coldStart = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": printOut(usage); return ExitCode.success
            case "--server", "--session-token", "--control", "--name", "--environment", "--bundle-id":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("\(argument) takes a value; see --help") }
                values[argument] = value
            case "--cold-start": coldStart = true
            default:
                throw UsageError("unknown argument \(argument) for device hermes; run \"hostshell device hermes --help\"")
            }
        }
        for flag in ["--server", "--session-token", "--control"] where values[flag] == nil {
            throw UsageError("device hermes needs \(flag); see --help")
        }
        let server = values["--server"]!
        guard server.hasPrefix("http://") || server.hasPrefix("https://") else { throw UsageError("--server takes the Hermes server's URL, e.g. http://127.0.0.1:40300") }
        let name = values["--name"] ?? "hermes"
        guard name.first != ".", name.utf8.count <= 64,
              name.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-".unicodeScalars.contains($0) }) else {
            throw UsageError("--name takes letters, digits, '.', '_' and '-' (at most 64, not starting with '.')")
        }
        guard let environment = APNsEnvironment(rawValue: values["--environment"] ?? "sandbox") else {
            throw UsageError("--environment takes sandbox or production")
        }
        let bundleID = values["--bundle-id"] ?? "com.example.hermes"
        guard APNsPushType.isWellFormed(topic: bundleID) else { throw UsageError("--bundle-id takes a bundle id, e.g. com.example.hermes") }
        let token = values["--session-token"]!, socket = values["--control"]!
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            do throws(UsageError) {
                let device = HermesDevice(name: name, server: server, sessionToken: token, environment: environment, bundleID: bundleID)
                let control = HermesDeviceControl(device: device)
                let listener = try ControlServer(path: socket, events: control.events) { request, answer in control.handle(request, answer: answer) }
                device.start(coldStart: coldStart)
                printOut(socket)
                printError("Hermes device \(name): \(server); profile \(device.profile)")
                fflush(nil)
                let loop = g_main_loop_new(nil, 0)
                for signal in [SIGINT, SIGTERM] {
                    g_unix_signal_add(signal, { data in g_main_loop_quit(OpaquePointer(data)); return 0 }, UnsafeMutableRawPointer(loop))
                }
                g_main_loop_run(loop)
                listener.stop()
                device.stop()
                withExtendedLifetime(control) {}
                return .success(ExitCode.success)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
