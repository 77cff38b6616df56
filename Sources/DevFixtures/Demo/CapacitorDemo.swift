import Foundation
import HostCore
import ShellKit

/// `hostshell demo --capacitor`: the reference Capacitor app (`fixtures/capacitor/homesec-reference`)
/// in `hostshell capacitor`, against `hostshell serve --homesec` with auth on, both started here
/// as child processes on a throw-away profile (file secret store: the demo never touches your
/// keyring). With `--headless` (automatic without a display) it starts its own Xvfb, runs the
/// scripted tour (`CapacitorTour`) over the control socket, writes `state.json`, the app's log and
/// a PNG per step to `--out`, prints a summary, and exits 0 only if every step did what it should.
/// With a display and without `--headless` it opens the app and waits until its window closes.
package enum CapacitorDemoCommand {
    package static let usage = """
        usage: hostshell demo --capacitor [--headless] [--out DIR] [--step-timeout SECONDS]
          --headless             tour the app without a window on your display (its own Xvfb); automatic without a display
          --out DIR              where state.json, app.log and a PNG per step go (default demo-out)
          --step-timeout SECONDS how long one step may take (default 20)
        """
    static let token = "homesec-demo-key"
    static let appId = "com.example.homesec"

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var headless = false
        var out = "demo-out"
        var stepTimeout = 20.0
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--capacitor": continue
            case "--help", "-h":
                printOut(usage)
                return ExitCode.success
            case "--headless": headless = true
            case "--out":
                guard let value = rest.popFirst(), !value.isEmpty else { throw UsageError("--out takes a directory") }
                out = value
            case "--step-timeout":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0, value <= 600 else {
                    throw UsageError("--step-timeout takes a number of seconds between 0 and 600")
                }
                stepTimeout = value
            default:
                throw UsageError("unknown argument \(argument) for demo --capacitor; run \"hostshell demo --capacitor --help\"")
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if !hasDisplay { headless = true }
        guard let project = locateProject() else {
            throw UsageError("the reference Capacitor app (fixtures/capacitor/homesec-reference) was not found; set HOSTSHELL_CAPACITOR_DIR")
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw UsageError("cannot create the output directory \(out): \(error.localizedDescription)")
        }
        let home = NSTemporaryDirectory() + "hostshell-demo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let display = headless && !hasDisplay ? try HeadlessDisplay.start() : nil
        defer { display?.stop() }
        let children = DemoChildren(home: home, out: out)
        defer { children.stop() }
        let serverURL = try children.startServer(["--auth", "on", "--token", token])
        printOut("HomeSec reference server at \(serverURL) (auth on; API token \(token))")
        let socket = home + "/control.sock"
        let app = try children.startApp([project, "--control", socket, "--allow-eval", "--credential-store", "file", "--app-id", appId,
                                           "--link-scheme", "homesec"])
        let client = ControlClient(socketPath: socket)
        guard client.waitUntilListening(app, timeout: 60) else {
            throw UsageError("hostshell capacitor did not open its control socket; its log is \(out)/app.log")
        }
        if !headless {
            printOut("The reference app is open: connect it to \(serverURL) with the API token \(token). Close its window to end.")
            app.waitUntilExit()
            return ExitCode.success
        }
        let tour = CapacitorTour(client: client, serverURL: serverURL, token: token, outDirectory: out, stepTimeout: stepTimeout)
        tour.run()
        for step in tour.steps {
            printOut("\(step.ok ? "ok  " : "FAIL") capacitor \(step.name): \(step.detail)" + (step.screenshot.map { " [\($0)]" } ?? ""))
        }
        var passed = tour.passed
        let state: JSONValue = ["tour": .bool(passed), "server": .string(serverURL), "capacitor": tour.report()]
        if FileManager.default.createFile(atPath: out + "/state.json", contents: Data(JSONWriter.bytes(state))) {
            printOut("State: \(out)/state.json")
        } else {
            printError("hostshell demo: could not write \(out)/state.json; check that the directory is writable")
            passed = false
        }
        printOut(passed ? "Capacitor demo tour passed." : "Capacitor demo tour FAILED (the app's log: \(out)/app.log).")
        return passed ? ExitCode.success : ExitCode.failure
    }

    /// `fixtures/capacitor/homesec-reference` beside the executable (a checkout or an installed
    /// prefix), or `$HOSTSHELL_CAPACITOR_DIR`.
    static func locateProject() -> String? {
        if let dir = ProcessInfo.processInfo.environment["HOSTSHELL_CAPACITOR_DIR"] { return dir }
        return locateBundled("fixtures/capacitor/homesec-reference", marker: "capacitor.config.json")
    }
}

/// The demo's two child processes, this same executable: the HomeSec server and the app, on a
/// throw-away home (XDG directories under `home`).
package final class DemoChildren {
    let home: String
    let out: String
    private var processes: [Process] = []

    init(home: String, out: String) {
        self.home = home
        // A relative --out is the caller's: the apps the tour drives have other working directories.
        self.out = ControlRequest.absolute(out, from: FileReading.workingDirectory)
    }

    private var executable: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, directory) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
            environment[name] = home + "/" + directory
        }
        if let display = getenv("DISPLAY") { environment["DISPLAY"] = String(cString: display) }  // a started Xvfb
        if getenv("WAYLAND_DISPLAY") == nil { environment["WAYLAND_DISPLAY"] = nil }
        return environment
    }

    /// `hostshell serve --homesec ARGS`; its address once it listens.
    func startServer(_ arguments: [String]) throws(UsageError) -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--homesec"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw UsageError("could not start hostshell serve --homesec: \(error.localizedDescription)") }
        processes.append(process)
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += data
        }
        let address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("http://127.0.0.1:") else { throw UsageError("hostshell serve --homesec did not start: \(address)") }
        return address
    }

    /// `hostshell capacitor ARGS`, printing into `out/app.log`.
    func startApp(_ arguments: [String]) throws(UsageError) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["capacitor"] + arguments
        process.environment = environment
        let log = out + "/app.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: log) else { throw UsageError("cannot write \(log)") }
        process.standardOutput = handle
        process.standardError = handle
        do { try process.run() } catch { throw UsageError("could not start hostshell capacitor: \(error.localizedDescription)") }
        processes.append(process)
        return process
    }

    /// Ends the children, the app first.
    func stop() {
        for process in processes.reversed() where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        processes = []
    }
}
