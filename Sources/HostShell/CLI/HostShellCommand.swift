import Glibc

/// Exit codes shared by every subcommand.
enum ExitCode {
    static let success: Int32 = 0
    /// The command ran and found failures (a failing case, a step that did not do what it should).
    static let failure: Int32 = 1
    /// Bad input: unknown command, bad arguments, a file that is not what it should be.
    static let usage: Int32 = 2
}

/// A mistake in how the command was called or in what it was given; printed as one clear line.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// `hostshell COMMAND …`: the dispatcher. Each command lives in its own file.
enum HostShellCommand {
    static let usage = """
        Usage: hostshell COMMAND [ARGS…]

        Commands:
          contract check FILE…   Run conformance corpora (the format of messages-v1.json) against
                                 this host's bridge codec; prints failures and "N passed, N failed".
          server add URL [--name NAME] [--allow-http] | list [--json] | remove ID
                                 The saved servers: verified by their identity, stored under
                                 $XDG_CONFIG_HOME/hostshell/servers.json.
          open [SERVER] [--device D] [--inspector] [--control SOCKET [--allow-eval]] [--check]
                                 Open a saved server's Studio in the app window, with its own
                                 website data; --control serves the control interface on a Unix
                                 socket; --check reports what shows and exits; --automation
                                 lets WebKitWebDriver drive its page (browserName "hostshell").
          capacitor [PROJECT-DIR] [--web-dir DIR | --url URL] [--app-id ID] [--device D]
                    [--control SOCKET] [--bridge-log FILE] [--automation] [--check] …
                                 Run a Capacitor app as its iOS shell does: its bundle from
                                 capacitor://localhost (or a dev server), the Capacitor runtime
                                 and plugins, its own profile per app id (see capacitor --help).
          kiosk [SERVER] [--chrome] [--cursor-timeout S] [--control SOCKET]
                                 Run a saved server's Studio unattended: full screen, no native
                                 chrome, pointer hidden, failures retried, screen kept awake.
          open-url 'tilecast-ios://open?installation=…&path=…'
                                 Open a deep link in the running app (or start it with the link);
                                 a link of a running Capacitor app's scheme (homesec://…) goes
                                 to that app as appUrlOpen.
          ctl SOCKET COMMAND [ARGS…]
                                 Read or drive a running app: state, tap, back, switch-server,
                                 reload, wait, snapshot, eval, events … (see hostshell ctl).
          replay LOG [SERVER] [--device D] [--timeout S] [--verbose]
                                 Send a bridge log's Studio messages (open --bridge-log) again
                                 and report every reply that differs from the recorded one.
          serve --reference      Serve the reference Studio on a free loopback port.
          serve --homesec [--auth on|off] [--token T] [--port N] …
                                 Serve a HomeSec-like API (health, cameras, mobile devices) on
                                 loopback, for the reference Capacitor app and tests.
          demo [--headless] [--out DIR] [--device D]…
                                 Run the bundled reference Studio; headless (automatic without a
                                 display) it runs a scripted tour and writes state.json and PNGs.
          probe (URL | --reference) [--device phone|tablet|desktop] [--timeout S]
                                 Open a Studio in a window, wait for negotiation and native
                                 chrome, print the native state as JSON (needs a display).
          bench codec [--seconds S]
                                 Measure decode + validate + encode throughput of typical messages.
          doctor [--json]        Report what this machine has and lacks for HostShell (display,
                                 session bus, Secret Service, notifications, WebDriver, GPU,
                                 sandbox) and what to install.
          help                   Show this help.

        Exit status: 0 success, 1 failures found, 2 bad arguments or input.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            printError(usage)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "contract": return try ContractCommand.run(rest)
            case "bench": return try BenchCommand.run(rest)
            case "probe": return try ProbeCommand.run(rest)
            case "server": return try ServerCommand.run(rest)
            case "open": return try OpenCommand.run(rest)
            case "capacitor": return try CapacitorCommand.run(rest)
            case "serve": return try ServeCommand.run(rest)
            case "demo": return try DemoCommand.run(rest)
            case "ctl": return try CtlCommand.run(rest)
            case "replay": return try ReplayCommand.run(rest)
            case "kiosk": return try KioskCommand.run(rest)
            case "open-url": return try OpenURLCommand.run(rest)
            case "doctor": return try MainActor.assumeIsolated { () throws(UsageError) -> Int32 in try DoctorCommand.run(rest) }
            case "help", "--help", "-h":
                printOut(usage)
                return ExitCode.success
            default:
                throw UsageError("unknown command \"\(command)\"; run \"hostshell help\" for the list")
            }
        } catch let error as UsageError {
            printError("hostshell: \(error.message)")
            return ExitCode.usage
        } catch {
            printError("hostshell: \(error)")
            return ExitCode.failure
        }
    }
}
