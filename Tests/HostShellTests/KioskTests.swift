import Foundation
import Testing

/// `hostshell kiosk`: full screen and unattended, recovering by itself.
@Suite("Kiosk (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct KioskTests {
    /// A kiosk on a reference server saved in a throw-away home.
    static func start(_ server: ReferenceServer, home: TemporaryHome, _ arguments: [String] = []) throws -> RunningApp {
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        return try RunningApp(home: home, arguments: ["--allow-eval", "--cursor-timeout", "0.5"] + arguments, command: "kiosk")
    }

    @Test("full screen without native chrome (Studio draws its own navigation), the pointer hidden, a killed web process reloaded, a clean exit on SIGTERM")
    func unattended() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        let app = try Self.start(server, home: home)
        defer { app.stop() }
        let ready = try app.state("screen=page", "negotiated=true", "frontendReady=false", "navigation.kind=none", "kiosk.chrome=false", "kiosk.fullscreen=true",
                                  "webProcess.responsive=true", "webProcess.hungEnded=0")
        #expect((ready["hostCapabilities"] as? [String])?.contains("nativeNavigation") == false)
        #expect(try app.ctl("eval", #"getComputedStyle(document.getElementById("sidebar")).display !== "none""#).result as? Bool == true,
                "Studio shows its own navigation")
        _ = try app.state("kiosk.cursorHidden=true")
        let awake = try #require((try app.state("kiosk.chrome=false")["kiosk"] as? [String: Any])?["awake"] as? String)
        #expect(awake.contains("kept awake"), "says whether the screen is kept awake: \(awake)")

        // A crashed page comes back by itself.
        #expect(try app.ctl("eval", "window.__before = 1; true").status == 0)
        for victim in LiveFailureTests.webProcesses(of: app.process.processIdentifier) { kill(victim, SIGKILL) }
        let fresh = try app.evalWhen(#"typeof window.__before === "undefined""#) as? Bool
        #expect(fresh == true, "the page was reloaded")
        _ = try app.state("screen=page")

        // SIGTERM: exit 0, the control socket gone.
        app.process.terminate()
        app.process.waitUntilExit()
        #expect(app.process.terminationReason == .exit && app.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: app.socket))
    }

    @Test("issue 29 item 6: a page that spins with nobody touching it is judged by the host's own ping, ended and reloaded")
    func spinningPage() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        let app = try Self.start(server, home: home)
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true", "webProcess.responsive=true", "webProcess.hungEnded=0")
        #expect(try app.ctl("eval", "window.__before = 1; setTimeout(() => { for (;;) {} }, 0); true").status == 0)
        // WebKit alone never judges it (no input reaches the page): the ping does, within its
        // deadline, and HangWatch ends the process after its limit.
        _ = try app.state("webProcess.responsive=false", timeout: 60)
        _ = try app.state("webProcess.hungEnded=1", timeout: 60)
        let fresh = try app.evalWhen(#"typeof window.__before === "undefined""#) as? Bool
        #expect(fresh == true, "the page was reloaded")
        _ = try app.state("screen=page", "webProcess.responsive=true")
    }

    @Test("a server that went away is retried behind the loading mark, with growing pauses, until it is back")
    func serverComesBack() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        var server = try ReferenceServer()
        let port = server.port
        let app = try Self.start(server, home: home, ["--chrome"])
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true", "kiosk.chrome=true", "navigation.kind=sidebar")
        server.stop()
        #expect(try app.ctl("reload").status == 0)  // as a nightly reload or a crash would
        let waiting = try app.state("screen=loading", "kiosk.retry.attempt=2", timeout: 30)
        let retry = try #require((waiting["kiosk"] as? [String: Any])?["retry"] as? [String: Any])
        #expect(retry["inSeconds"] as? Double == 2)
        #expect((retry["reason"] as? String)?.contains("Can't reach") == true, "\(retry)")
        #expect((waiting["status"] as? [String: Any])?["title"] as? String != nil)
        server = try ReferenceServer(port: port)
        defer { server.stop() }
        _ = try app.state("screen=page", "negotiated=true", "kiosk.retry=null", timeout: 60)
    }
}
