import CGtk
import Foundation
import HomeSecShell
import HostCore
import ShellKit
import StudioShell

/// `hostshell demo`: the embedded default. Starts the reference Studio on a free loopback port
/// with a throw-away profile and opens it. With `--headless` (automatic without a display) it
/// starts its own Xvfb, runs the scripted tour on each device, writes `state.json` and a PNG per
/// step to `--out`, prints a summary, and exits 0 only if every step did what it should.
package enum DemoCommand {
    package static let usage = """
        usage: hostshell demo [--headless] [--out DIR] [--device phone|tablet|desktop]… [--step-timeout SECONDS]
               hostshell demo --capacitor [--headless] [--out DIR] [--step-timeout SECONDS]  (the reference Capacitor app)
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        if arguments.contains("--capacitor") { return try CapacitorDemoCommand.run(arguments) }
        var headless = false
        var out = "demo-out"
        var devices: [DeviceProfile] = []
        var stepTimeout = 20.0
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                printOut(usage)
                return ExitCode.success
            case "--headless": headless = true
            case "--out":
                guard let value = rest.popFirst(), !value.isEmpty else { throw UsageError("--out takes a directory") }
                out = value
            case "--device":
                guard let value = rest.popFirst(), let device = DeviceProfile(rawValue: value) else {
                    throw UsageError("--device takes phone, tablet or desktop")
                }
                devices.append(device)
            case "--step-timeout":
                guard let value = rest.popFirst().flatMap({ CommandLineRules.seconds($0, in: 0.001...600) }) else {
                    throw UsageError("--step-timeout takes a number of seconds between 0 and 600")
                }
                stepTimeout = value
            default:
                throw UsageError("unknown argument \(argument); \(usage)")
            }
        }
        let hasDisplay = ProcessInfo.processInfo.environment["DISPLAY"].map { !$0.isEmpty } ?? false
            || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        if !hasDisplay { headless = true }
        guard let root = FixtureServer.locateReferenceStudio() else {
            throw UsageError("the reference Studio (fixtures/studio) was not found; set HOSTSHELL_STUDIO_DIR")
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw UsageError("cannot create the output directory \(out): \(error.localizedDescription)")
        }
        // A throw-away profile: saved servers, website data, cache and the app's credential all
        // live under one temporary directory, removed at the end. Set before GTK starts, since
        // GLib reads these once.
        let profile = NSTemporaryDirectory() + "hostshell-demo-\(UUID().uuidString)"
        for (name, directory) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
            setenv(name, profile + "/" + directory, 1)
        }
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let display = headless && !hasDisplay ? try HeadlessDisplay.start() : nil
        defer { display?.stop() }
        let rendering = try MainLoop.startGTK(noDisplay: "cannot open the display \(ProcessInfo.processInfo.environment["DISPLAY"] ?? "")")
        let result: Result<Int32, UsageError> = MainActor.assumeIsolated {
            let demo = Demo(root: root, out: out, devices: devices.isEmpty ? DeviceProfile.allCases : devices,
                            stepTimeout: stepTimeout, tour: headless, environment: AppEnvironment(rendering: rendering))
            return Result { () throws(UsageError) in try demo.run() }
        }
        return try result.get()
    }
}

@MainActor
private final class Demo {
    let root: String
    let out: String
    let devices: [DeviceProfile]
    let stepTimeout: Double
    let tour: Bool
    /// The services of the apps it runs, made once for the process as `open` makes them.
    let environment: AppEnvironment
    let loop = g_main_loop_new(nil, 0)
    var exitCode = ExitCode.failure

    init(root: String, out: String, devices: [DeviceProfile], stepTimeout: Double, tour: Bool, environment: AppEnvironment) {
        self.environment = environment
        self.root = root
        // A relative --out is the caller's: the apps the tour drives have other working directories.
        self.out = ControlRequest.absolute(out, from: FileReading.workingDirectory)
        self.devices = devices
        self.stepTimeout = stepTimeout
        self.tour = tour
    }

    package func run() throws(UsageError) -> Int32 {
        let server = FixtureServer(root: root)
        try server.start()
        // The demo never touches your keyring: the credential (if you sign in) stays in the profile.
        let credentials = try CredentialStore.choose("file")
        printOut("Reference Studio at \(server.baseURL) (installation \(server.installationId))")
        if !tour {
            // Interactive: the real app on the reference Studio, until the window closes.
            let device = devices.first ?? .desktop
            let tour = Tour(device: device, server: server, outDirectory: out, stepTimeout: stepTimeout, environment: environment)
            guard let app = tour.openApp(credentials: credentials) else {
                throw UsageError("the reference Studio's address \(server.baseURL) did not parse")
            }
            onSignal(raw(app.window.window), "destroy") { [loop] in g_main_loop_quit(loop) }
            app.start()
            g_main_loop_run(loop)
            server.stop()
            return ExitCode.success
        }
        Task { @MainActor in
            var reports = JSONObject()
            var allPassed = true
            for device in devices {
                let tour = Tour(device: device, server: server, outDirectory: out, stepTimeout: stepTimeout, environment: environment)
                await tour.run(credentials: credentials)
                reports[device.rawValue] = tour.report()
                tour.finish()
                for step in tour.steps {
                    printOut("\(step.ok ? "ok  " : "FAIL") \(device.rawValue) \(step.name): \(step.detail)"
                          + (step.screenshot.map { " [\($0)]" } ?? ""))
                }
                allPassed = allPassed && tour.passed
            }
            let state: JSONValue = ["tour": .bool(allPassed), "devices": .object(reports)]
            if FileManager.default.createFile(atPath: out + "/state.json", contents: Data(JSONWriter.bytes(state))) {
                printOut("State: \(out)/state.json")
            } else {
                printError("hostshell demo: could not write \(out)/state.json; check that the directory is writable")
                allPassed = false
            }
            printOut(allPassed ? "Demo tour passed on \(devices.map(\.rawValue).joined(separator: ", "))." : "Demo tour FAILED.")
            exitCode = allPassed ? ExitCode.success : ExitCode.failure
            g_main_loop_quit(loop)
        }
        g_main_loop_run(loop)
        server.stop()
        return exitCode
    }
}
