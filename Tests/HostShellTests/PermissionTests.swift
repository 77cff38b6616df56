import Foundation
import Testing

/// Issue 15 item 6 in the real app: WebKit's permission questions get a native prompt shown in
/// `ctl state`, which `ctl permission grant|deny` answers; answers are remembered per server
/// across restarts; with no one to ask (a kiosk) they are denied unless the control interface
/// answered first.
@Suite("Permissions: prompted, remembered per server, denied with no one to ask (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct PermissionTests {
    static let askNotifications = "window.__perm = undefined; Notification.requestPermission().then((r) => { window.__perm = r; }); true"
    static let askLocation = "window.__geo = undefined; navigator.geolocation.getCurrentPosition(() => { window.__geo = 'position'; }, (e) => { window.__geo = e.code === 1 ? 'denied' : 'error ' + e.code; }); true"

    @Test("a question shows a prompt; ctl answers it; the answers are kept for the server across a restart")
    func promptAndRemember() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "permissions.pending=null", "permissions.attended=true", timeout: 60)
        #expect(try app.ctl("eval", Self.askNotifications).status == 0)
        _ = try app.state(#"permissions.pending.kinds=["notifications"]"#)
        let granted = try app.ctl("permission", "grant")
        #expect(granted.status == 0, "\(granted.error)")
        #expect((granted.result as? [String: Any])?["message"] as? String == "notifications granted")
        #expect(try app.evalWhen("window.__perm") as? String == "granted")
        _ = try app.state("permissions.pending=null", "permissions.remembered.notifications=granted", "permissions.answered.0.how=control")

        #expect(try app.ctl("eval", Self.askLocation).status == 0)
        _ = try app.state(#"permissions.pending.kinds=["geolocation"]"#)
        #expect(try app.ctl("permission", "deny").status == 0)
        #expect(try app.evalWhen("window.__geo") as? String == "denied")
        _ = try app.state("permissions.remembered.geolocation=denied")

        // A new run of the app on the same server: the answers come from its profile.
        app.stop()
        let again = try RunningApp(home: live.home, arguments: ["--allow-eval"])
        defer { again.stop() }
        _ = try again.state("screen=page", "negotiated=true", "permissions.remembered.notifications=granted",
                            "permissions.remembered.geolocation=denied", timeout: 60)
        #expect(try again.ctl("eval", Self.askLocation).status == 0)
        #expect(try again.evalWhen("window.__geo") as? String == "denied", "answered from memory, no prompt")
        // The Permissions API reports the remembered answers.
        #expect(try again.ctl("eval", "window.__q = undefined; Promise.all(['geolocation', 'camera'].map((name) => navigator.permissions.query({ name }))).then((r) => { window.__q = r.map((s) => s.state).join(','); }); true").status == 0)
        #expect(try again.evalWhen("window.__q") as? String == "denied,prompt")
        _ = try again.state("permissions.pending=null", "permissions.answered.0.how=remembered")
        let file = live.home.root.appendingPathComponent("data/hostshell/servers")
        let servers = try FileManager.default.contentsOfDirectory(atPath: file.path)
        let kept = try String(contentsOf: file.appendingPathComponent(servers[0]).appendingPathComponent("permissions.json"), encoding: .utf8)
        #expect(kept == #"{"geolocation":"denied","notifications":"granted"}"#)
    }

    @Test("a kiosk has no one to ask: denied at once, and not remembered, unless ctl answered first")
    func unattended() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval"], command: "kiosk")
        defer { app.stop() }
        _ = try app.state("screen=page", "permissions.attended=false", timeout: 60)
        #expect(try app.ctl("eval", Self.askLocation).status == 0)
        #expect(try app.evalWhen("window.__geo") as? String == "denied")
        _ = try app.state("permissions.pending=null", "permissions.answered.0.how=unattended", "permissions.remembered={}")
        let queued = try app.ctl("permission", "grant")
        #expect((queued.result as? [String: Any])?["message"] as? String == "no question is open: the next one will be granted")
        #expect(try app.ctl("eval", Self.askNotifications).status == 0)
        #expect(try app.evalWhen("window.__perm") as? String == "granted")
        _ = try app.state("permissions.answered.1.how=control", "permissions.remembered.notifications=granted")
    }
}
