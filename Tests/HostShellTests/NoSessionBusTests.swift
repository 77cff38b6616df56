import Foundation
import Testing

@Suite("open --check without a session bus starts none (so no keyring) as a side effect (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct NoSessionBusTests {
    @Test("issue 32 item 1: no DBUS_SESSION_BUS_ADDRESS and no $XDG_RUNTIME_DIR/bus: the file store is chosen, and nothing asks dbus-launch to start a bus")
    func checkStartsNoBus() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        // GLib, asked for the session bus with none given, runs `dbus-launch --autolaunch` (found
        // on PATH), which starts a bus whose activation starts the keyring: a `dbus-launch` of
        // the test's own, first on PATH, records that it was run and starts nothing.
        let tools = home.root.appendingPathComponent("tools"), runtime = home.root.appendingPathComponent("runtime")
        let marker = home.root.appendingPathComponent("dbus-launch-was-run")
        for directory in [tools, runtime] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        chmod(runtime.path, 0o700)
        let fake = tools.appendingPathComponent("dbus-launch")
        try Data("#!/bin/sh\necho \"$@\" >> '\(marker.path)'\nexit 1\n".utf8).write(to: fake)
        chmod(fake.path, 0o755)
        var environment = HostShellBinary.environment(home.environment)
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["PATH"] = tools.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let process = Process()
        process.executableURL = HostShellBinary.url
        process.arguments = ["open", "--check", "--timeout", "60"]
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("in owner-only files") && stderr.contains("no session bus"), "\(stderr)")
        let asked = (try? String(contentsOf: marker, encoding: .utf8)) ?? ""
        #expect(asked.isEmpty, "dbus-launch was run: \(asked)")
    }
}
