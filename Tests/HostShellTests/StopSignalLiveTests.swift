import Foundation
import Testing

@Suite("Stop signals end the app even when its main thread is blocked (real WebKit, a Secret Service that never answers)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct StopSignalLiveTests {
    @Test("issue 32 item 1: SIGTERM while the main thread waits on the keyring ends the app within the grace period, socket file removed, status 143")
    func sigtermWhileBlocked() throws {
        let keyring = try SecretServiceStandIn(holding: "south-studio")
        defer { keyring.stop() }
        let home = TemporaryHome()
        defer { home.remove() }
        let (north, south) = try ControlTests.twoServers(home)
        defer { north.stop(); south.stop() }
        // `secret-service`, not `auto`: an app that did not take the stand-in would refuse to start.
        let app = try RunningApp(home: home, arguments: ["north-studio", "--credential-store", "secret-service"],
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": keyring.address])
        defer { app.stop() }
        _ = try app.state("screen=page")
        // Switching reads south-studio's credential from the keyring, synchronously, on the main
        // thread: the stand-in never answers, so the app is blocked from here on.
        let switching = Process()
        switching.executableURL = HostShellBinary.url
        switching.arguments = ["ctl", app.socket, "switch-server", "south-studio"]
        switching.environment = HostShellBinary.environment(home.environment)
        switching.standardOutput = FileHandle.nullDevice
        switching.standardError = FileHandle.nullDevice
        try switching.run()
        defer { if switching.isRunning { kill(switching.processIdentifier, SIGKILL) }; switching.waitUntilExit() }
        #expect(waitUntil(timeout: 20) { keyring.held > 0 }, "the app asked the keyring for south-studio's credential")
        #expect(app.process.isRunning)
        kill(app.process.processIdentifier, SIGTERM)
        // Blocked for good without the watchdog: it ends (after its 3 s grace) or never does.
        let ended = waitUntil(timeout: 20) { !app.process.isRunning }
        #expect(ended, "the app ended on SIGTERM although its main thread is blocked")
        guard ended else { return }
        #expect(app.process.terminationReason == .exit && app.process.terminationStatus == 128 + SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: app.socket), "the control socket file is gone")
        let log = String(decoding: (try? Data(contentsOf: app.logFile)) ?? Data(), as: UTF8.self)
        #expect(log.contains("ending at once on signal 15"), "it says why")
    }

    @Test("SIGTERM to an app that answers still ends it in order: status 0, socket removed")
    func sigtermWhenAnswering() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let (north, south) = try ControlTests.twoServers(home)
        defer { north.stop(); south.stop() }
        let app = try RunningApp(home: home, arguments: ["north-studio", "--credential-store", "file"])
        defer { app.stop() }
        _ = try app.state("screen=page")
        kill(app.process.processIdentifier, SIGTERM)
        #expect(waitUntil(timeout: 20) { !app.process.isRunning })
        #expect(app.process.terminationReason == .exit && app.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: app.socket))
        let log = String(decoding: (try? Data(contentsOf: app.logFile)) ?? Data(), as: UTF8.self)
        #expect(!log.contains("ending at once"))
    }

    @Test("issue 32 item 1: while the keyring's prompt is up (a write it does not answer), the app keeps answering ctl and shows the signed-in page")
    func promptDoesNotFreeze() throws {
        let keyring = try SecretServiceStandIn(holding: "", holdingWrites: true)
        defer { keyring.stop() }
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer(extra: ["--require-sign-in", "--auto-approve"])
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--credential-store", "secret-service"],
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": keyring.address])
        defer { app.stop() }
        // The sign-in ends with the credential written to the keyring, which never answers.
        #expect(waitUntil(timeout: 30) { keyring.heldWrites > 0 }, "the app wrote its credential to the keyring")
        // A synchronous write would hold the main thread until D-Bus gives up on the call (25 s
        // after it began): the app answers before that, while the write still waits.
        let state = try app.state("screen=page", "auth.credential=true", timeout: 20)
        #expect(state["screen"] as? String == "page", "ctl answers and the page shows while the write waits")
        #expect(keyring.heldWrites == 1)
    }

    @Test("issue 32 item 1: a keyring with no default collection (its first write would ask for a new password on a display nobody watches) makes auto take the file store, and say why")
    func noDefaultCollection() throws {
        let keyring = try SecretServiceStandIn(holding: "", noDefault: true)
        defer { keyring.stop() }
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: [], environment: ["DBUS_SESSION_BUS_ADDRESS": keyring.address])
        defer { app.stop() }
        _ = try app.state("screen=page", "auth.store=\"file\"")
        let log = String(decoding: (try? Data(contentsOf: app.logFile)) ?? Data(), as: UTF8.self)
        #expect(log.contains("no default collection"), "it says why: \(log)")
    }
}
