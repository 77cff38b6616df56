import Foundation
import Testing

/// The host core's features for a Capacitor app (issue 13 item 1): snapshots, resizing, memory
/// pressure, the bridge log, and WebDriver driving the app's own page.
@Suite("Capacitor apps and the host core: snapshots, resize, bridge log, WebDriver (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct CapacitorHostCoreTests {
    @Test("snapshot, resize and memory-pressure work unchanged; --bridge-log records calls, results and console lines")
    func coreCommands() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let log = home.root.appendingPathComponent("bridge.jsonl")
        let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--allow-eval", "--bridge-log", log.path], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page", "capacitor.listeners.3.event=appUrlOpen", timeout: 60)
        for target in [[], ["--page"]] {
            let file = home.root.appendingPathComponent("shot\(target.count).png").path
            let shot = try app.ctl(["snapshot", file] + target)
            #expect(shot.status == 0, "\(shot.error)")
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG was written for \(target)")
        }
        #expect(try app.ctl("resize", "700", "500").status == 0)
        _ = try app.state("window.width=700", "window.height=500")
        #expect((try app.evalWhen("window.innerWidth > 390 && window.innerWidth") as? Int ?? 0) > 390, "wider than the phone it started as")
        #expect(try app.ctl("memory-pressure").status == 0)
        #expect(try app.ctl("tap", "media").status == 1, "a Studio command is refused, saying so")
        // The app's one page is counted, and a reload makes no more WebKit objects.
        _ = try app.state("objects.webViews=1", "objects.contentManagers=1", "webProcess.responsive=true", "webProcess.hungEnded=0")
        #expect(try app.ctl("eval", "window.__beforeReload = true; true").status == 0)
        #expect(try app.ctl("reload").status == 0)
        #expect(try app.evalWhen("window.__test && window.__test.platform && !window.__beforeReload") as? Bool == true)
        _ = try app.state("screen=page", "objects.webViews=1", "objects.contentManagers=1")

        _ = try CapacitorLiveTests.run(app, "window.__r = undefined; window.__test.App.getState().then((r) => { window.__r = r; })", until: "window.__r")
        var records: [[String: Any]] = []
        #expect(waitUntil(timeout: 10) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            records = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return records.contains { (($0["message"] as? [String: Any])?["methodName"] as? String) == "getState" }
        }, "the bridge log has the getState call")
        #expect(records.allSatisfy { $0["contract"] as? String == "capacitor" })
        let call = records.first { (($0["message"] as? [String: Any])?["methodName"] as? String) == "getState" }
        let result = (call?["results"] as? [[String: Any]])?.first
        // isActive follows the window's focus, which other apps on a shared display may hold.
        let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(result?["success"] as? Bool == true && (logged.contains(#""data":{"isActive":true}"#) || logged.contains(#""data":{"isActive":false}"#)),
                "\(String(describing: result))")
        #expect(records.contains { $0["dir"] as? String == "console" && ($0["message"] as? String)?.hasPrefix("test app booted on ios") == true })
    }

    @Test("--kiosk: unattended, no header bar, nothing handed out; an unreachable dev server is retried by itself")
    func kiosk() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--kiosk"], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page", "app.kiosk.chrome=false", "permissions.attended=false", timeout: 60)
        let refused = try HostShellBinary.run(["capacitor", CapacitorLiveTests.project, "--kiosk", "--check"])
        #expect(refused.status == 2 && refused.stderr.contains("--kiosk runs unattended"), "\(refused.stderr)")
        // A dev server nobody answers: the error screen, then loading again without a person.
        let port = try freePort()
        let other = TemporaryHome()
        defer { other.remove() }
        let down = try RunningApp(home: other, arguments: ["--url", "http://127.0.0.1:\(port)/", "--app-id", "dev.hostshell.down", "--kiosk"], command: "capacitor")
        defer { down.stop() }
        _ = try down.state("screen=error", "status.kind=loadFailed", timeout: 60)
        _ = try down.state("app.failuresInARow=2", timeout: 30)
    }

    @Test("--automation: WebDriver drives the app's own page, runtime included; deleting the session quits the app",
          .enabled(if: WebDriverTools.driver != nil, "WebKitWebDriver is not installed (Debian package webkit2gtk-driver)"))
    func webDriver() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let driver = try WebDriverService(environment: home.environment)
        defer { driver.stop() }
        let socket = home.root.appendingPathComponent("app.sock").path
        let session = try driver.newSession(arguments: ["capacitor", CapacitorLiveTests.project, "--automation", "--control", socket])
        let ready = try HostShellBinary.run(["ctl", socket, "wait", "screen=page", "--timeout", "60"])
        #expect(ready.status == 0, "\(ready.stderr)")
        #expect(try driver.value("GET", "/session/\(session)/url") as? String == "capacitor://localhost/")
        let page = try driver.value("POST", "/session/\(session)/execute/async", [
            "script": "const done = arguments[0]; Capacitor.nativePromise('App', 'getState', {}).then((s) => done([window.__test.platform, typeof s.isActive]));",
            "args": [Any]()])
        #expect((page as? [Any])?.first as? String == "ios" && (page as? [Any])?.last as? String == "boolean", "\(String(describing: page))")
        _ = try driver.value("DELETE", "/session/\(session)")
        #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: socket) }, "the app quit with its page")
    }
}
