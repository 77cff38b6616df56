import Foundation
import Glibc
import Testing

/// Issue 31 item 3: WebDriver sessions as a fleet's apps (`hostshell fleet --webdriver ADDRESS
/// -- KIND ARGS…`), a real WebKitWebDriver `--target`ing a real fleet.
@Suite("A fleet's WebDriver sessions: each a new throw-away app (real WebKit, WebKitWebDriver --target)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .enabled(if: WebDriverTools.driver != nil, "WebKitWebDriver is not installed (Debian package webkit2gtk-driver; scripts/install-deps installs it)"),
       .serialized)
struct FleetWebDriverLiveTests {
    static var capabilities: [String: Any] { ["capabilities": ["alwaysMatch": ["browserName": "hostshell"]]] }

    /// A fleet whose sessions open the Capacitor app on `server` (its dev-server origin, where
    /// every kind of storage works), and the inspector address it listens on.
    static func fleet(_ home: TemporaryHome, _ server: ReferenceServer, pool: Int = 1) throws -> (RunningApp, String) {
        let address = "127.0.0.1:\(try freePort())"
        let fleet = try RunningApp(home: home, arguments: ["--pool", String(pool), "--webdriver", address, "--", "capacitor", "--url", server.url + "/",
                                                           "--app-id", "dev.hostshell.fleetwd", "--allow-eval"], command: "fleet")
        return (fleet, address)
    }

    static func list(_ fleet: RunningApp) throws -> [String: Any] {
        let run = try FleetLiveTests.fleetCtl(fleet, "list")
        try #require(run.status == 0, "list: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    static func webDriver(_ fleet: RunningApp) throws -> [String: Any] {
        try #require(try list(fleet)["webdriver"] as? [String: Any])
    }

    static func appIds(_ fleet: RunningApp) throws -> [String] {
        (try list(fleet)["apps"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func newSession(_ driver: WebDriverService) throws -> String {
        let value = try #require(try driver.value("POST", "/session", capabilities) as? [String: Any])
        return try #require(value["sessionId"] as? String)
    }

    /// Runs `body` (an async function's body) in the session's page; what it resolved to.
    static func run(_ driver: WebDriverService, _ session: String, _ body: String) throws -> String? {
        try driver.value("POST", "/session/\(session)/execute/async", [
            "script": "const done = arguments[arguments.length - 1]; (async () => { \(body) })().then(done, (e) => done('error: ' + e));",
            "args": [Any]()]) as? String
    }

    /// Writes `tag` to a cookie, localStorage, sessionStorage, IndexedDB and the Cache API.
    static func write(_ driver: WebDriverService, _ session: String, _ tag: String) throws {
        let written = try run(driver, session, StorageProbe.write(tag))
        #expect(written == "written", "session \(session) wrote \(tag): \(String(describing: written))")
    }

    /// What every kind of storage holds ("-" for nothing).
    static func read(_ driver: WebDriverService, _ session: String) throws -> [String: String] {
        let text = try run(driver, session, StorageProbe.read)
        return try #require(try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: String], "read: \(String(describing: text))")
    }

    static func expect(_ found: [String: String], _ tag: String?, _ what: String) {
        for kind in FleetLiveTests.kinds { #expect(found[kind] == (tag ?? "-"), "\(kind), \(what): \(found)") }
    }

    @Test("new session → its own app's page (bridge in it), navigate, find, execute; delete closes that app only; the next session sees none of the first's storage; a second driver meanwhile is refused; the fleet and its other app live on")
    func sessionsAreApps() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        let (fleet, address) = try Self.fleet(home, server)
        defer { fleet.stop() }
        // An app of the fleet's own, opened over its socket: it must outlive every session.
        let other = try FleetApp(fleet, "capacitor", ["--url", server.url + "/", "--app-id", "dev.hostshell.fleetother", "--allow-eval"])
        try other.state("screen=page", timeout: 60)
        try other.write("other")
        #expect(waitUntil(timeout: 60) { (try? FleetPoolLiveTests.pool(fleet))?["ready"] as? Int == 1 }, "the WebDriver pool's slot is ready\(fleet.diagnosis())")
        #expect(try FleetPoolLiveTests.pool(fleet)["serves"] as? String == "webdriver")

        let driver = try WebDriverService(environment: home.environment, arguments: ["--target=\(address)"])
        defer { driver.stop() }
        let first = try Self.newSession(driver)
        var state = try Self.webDriver(fleet)
        #expect(state["state"] as? String == "driving", "\(state)")
        let firstApp = try #require(state["app"] as? String)
        #expect(firstApp != other.id)
        let apps = try #require(try Self.list(fleet)["apps"] as? [[String: Any]])
        let entry = try #require(apps.first { $0["id"] as? String == firstApp })
        #expect(entry["throwAway"] as? Bool == true && entry["pooled"] as? Bool == true, "the session's app is a throw-away one, on the pool's slot: \(entry)")
        let socket = try #require(entry["control"] as? String)

        // The session drives the app's own page: the same document its control socket reports, the bridge in it.
        #expect(try driver.value("GET", "/session/\(first)/url") as? String == server.url + "/")
        let ready = try HostShellBinary.run(["ctl", socket, "wait", "screen=page", "--timeout", "60", "--state"])
        #expect(ready.status == 0, "\(ready.stderr)")
        #expect(try driver.value("POST", "/session/\(first)/execute/sync", ["script": "return typeof window.Capacitor", "args": [Any]()]) as? String == "object",
                "Capacitor's runtime is in the driven page")
        _ = try driver.value("POST", "/session/\(first)/url", ["url": server.url + "/screens"])
        #expect(try driver.value("GET", "/session/\(first)/url") as? String == server.url + "/screens")
        let found = try driver.value("POST", "/session/\(first)/element", ["using": "css selector", "value": "h1"]) as? [String: Any]
        #expect(found?.keys.contains { $0.hasPrefix("element-") } == true, "find element: \(String(describing: found))")
        let marked = try HostShellBinary.run(["ctl", socket, "eval", "document.title = 'driven'; location.pathname"])
        #expect(marked.stdout.contains("/screens"), "ctl and the session see one page: \(marked.stdout) \(marked.stderr)")
        #expect(try driver.value("GET", "/session/\(first)/title") as? String == "driven")
        try Self.write(driver, first, "first")
        Self.expect(try Self.read(driver, first), "first", "the first session after its write")

        // A second driver while the session runs: WebKit has one automation session per process
        // (a second would replace this one), so its connection is closed and the fleet says why.
        // WebKitWebDriver 2.50 then never answers its client, so the test ends that driver.
        let intruder = try WebDriverService(environment: home.environment, arguments: ["--target=\(address)"])
        let intruding = DispatchQueue.global()
        nonisolated(unsafe) var intruderAnswer: Int?
        let answered = DispatchSemaphore(value: 0)
        let intruderURL = "http://127.0.0.1:\(intruder.port)/session"
        intruding.async {
            intruderAnswer = (try? HTTP.request("POST", intruderURL, json: Self.capabilities))?.status ?? -1
            answered.signal()
        }
        #expect(waitUntil(timeout: 30) { ((try? String(contentsOf: fleet.logFile, encoding: .utf8)) ?? "").contains("a WebDriver session is under way on this fleet") },
                "the fleet refused the second driver and said why\(fleet.diagnosis())")
        #expect(try driver.value("GET", "/session/\(first)/url") as? String == server.url + "/screens", "the first session still drives its app")
        #expect(try Self.webDriver(fleet)["served"] as? Int == 1, "no second session started")
        intruder.stop()
        answered.wait()
        #expect(intruderAnswer != 200, "the second driver got no session")

        // Deleting the session closes its app, and only it.
        _ = try driver.value("DELETE", "/session/\(first)")
        #expect(waitUntil(timeout: 30) { (try? Self.appIds(fleet))?.contains(firstApp) == false }, "the session's app closed\(fleet.diagnosis())")
        #expect(!FileManager.default.fileExists(atPath: socket), "its control socket went with it")
        try other.state("screen=page")

        // The next session: a new app, and none of the first's storage, in any kind.
        let second = try Self.newSession(driver)
        state = try Self.webDriver(fleet)
        let secondApp = try #require(state["app"] as? String)
        #expect(secondApp != firstApp && state["served"] as? Int == 2, "\(state)")
        #expect(try driver.value("GET", "/session/\(second)/url") as? String == server.url + "/")
        Self.expect(try Self.read(driver, second), nil, "the second session, after the first wrote")
        try Self.write(driver, second, "second")
        _ = try driver.value("DELETE", "/session/\(second)")
        #expect(waitUntil(timeout: 30) { (try? Self.appIds(fleet)) == [other.id] }, "only the fleet's own app is left\(fleet.diagnosis())")

        // The fleet's own app never saw a session's data, nor lost its own; the fleet lives on.
        try FleetLiveTests.expectHolds(other, "other", "after two sessions")
        #expect(fleet.process.isRunning)
        #expect(waitUntil(timeout: 30) { (try? Self.webDriver(fleet))?["clearing"] as? Bool == false })
    }

    @Test("a driver that ends without deleting its session: WebKit ends the session, its app closes, and the next driver's session starts clean")
    func driverKilled() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        let (fleet, address) = try Self.fleet(home, server, pool: 0)
        defer { fleet.stop() }
        let driver = try WebDriverService(environment: home.environment, arguments: ["--target=\(address)"])
        let session = try Self.newSession(driver)
        let app = try #require(try Self.webDriver(fleet)["app"] as? String)
        #expect(try driver.value("GET", "/session/\(session)/url") as? String == server.url + "/")
        try Self.write(driver, session, "lost")
        kill(driver.process.processIdentifier, SIGKILL)
        driver.stop()
        #expect(waitUntil(timeout: 30) { (try? Self.appIds(fleet))?.contains(app) == false }, "the session's app closed\(fleet.diagnosis())")

        let next = try WebDriverService(environment: home.environment, arguments: ["--target=\(address)"])
        defer { next.stop() }
        let fresh = try Self.newSession(next)
        #expect(try next.value("GET", "/session/\(fresh)/url") as? String == server.url + "/")
        Self.expect(try Self.read(next, fresh), nil, "a session after a killed driver's")
        _ = try next.value("DELETE", "/session/\(fresh)")
    }

    @Test("a driver with --replace-on-new-session: each new session replaces the last, closing its app, and starts with none of its storage")
    func replaceOnNewSession() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        let (fleet, address) = try Self.fleet(home, server)
        defer { fleet.stop() }
        let driver = try WebDriverService(environment: home.environment, arguments: ["--target=\(address)", "--replace-on-new-session"])
        defer { driver.stop() }
        var apps: [String] = []
        for round in 1...3 {
            let session = try Self.newSession(driver)
            let app = try #require(try Self.webDriver(fleet)["app"] as? String)
            #expect(!apps.contains(app), "round \(round): a new app")
            #expect(try driver.value("GET", "/session/\(session)/url") as? String == server.url + "/")
            Self.expect(try Self.read(driver, session), nil, "round \(round), before its write")
            try Self.write(driver, session, "round\(round)")
            #expect(try Self.appIds(fleet) == [app], "round \(round): the replaced session's app is closed")
            apps.append(app)
        }
        #expect(try Self.webDriver(fleet)["served"] as? Int == 3)
    }

    @Test("the fleet's inspector keeps InspectorGuard's protections: another user's connection is closed before a byte is read, this user's is served; without --webdriver the driver's variable opens no listener",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func onlyThisUser() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        let (fleet, address) = try Self.fleet(home, server, pool: 0)
        defer { fleet.stop() }
        let port = try #require(Int(address.split(separator: ":").last ?? ""))
        var seen = ""
        #expect(waitUntil(timeout: 20) { seen = (try? InspectorExposureTests.probe(port, seconds: 0.5)) ?? ""; return seen != "refused" }, "nothing listens")
        #expect(try InspectorExposureTests.probe(port, as: "65534") == "closed", "another user reached the fleet's inspector")
        #expect(try InspectorExposureTests.probe(port) == "open", "this user is refused")

        let plainPort = try freePort()
        let plain = try RunningApp(home: home, arguments: ["--pool", "0"], command: "fleet",
                                   environment: ["WEBKIT_INSPECTOR_SERVER": "127.0.0.1:\(plainPort)"])
        defer { plain.stop() }
        let app = try FleetApp(plain, "capacitor", ["--url", server.url + "/", "--app-id", "dev.hostshell.fleetplain"])
        try app.state("screen=page", timeout: 60)
        #expect(try InspectorExposureTests.probe(plainPort) == "refused", "a fleet without --webdriver opened the inspector")
    }

    @Test("a saved Studio server's sessions (-- open): each on a slot of the WebDriver pool, driving the app's Studio page with its bridge, its native side on the app's socket")
    func studioSessions() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let address = "127.0.0.1:\(try freePort())"
        let fleet = try RunningApp(home: home, arguments: ["--pool", "1", "--webdriver", address, "--", "open", "--credential-store", "file"], command: "fleet")
        defer { fleet.stop() }
        let driver = try WebDriverService(environment: home.environment, arguments: ["--target=\(address)"])
        defer { driver.stop() }
        for round in 1...2 {
            #expect(waitUntil(timeout: 60) { (try? FleetPoolLiveTests.pool(fleet))?["ready"] as? Int == 1 }, "round \(round): a ready slot\(fleet.diagnosis())")
            let session = try Self.newSession(driver)
            let id = try #require(try Self.webDriver(fleet)["app"] as? String)
            let entry = try #require((try Self.list(fleet)["apps"] as? [[String: Any]])?.first { $0["id"] as? String == id })
            #expect(entry["app"] as? String == "open" && entry["pooled"] as? Bool == true, "round \(round): \(entry)")
            let socket = try #require(entry["control"] as? String)
            let ready = try HostShellBinary.run(["ctl", socket, "wait", "screen=page", "negotiated=true", "--timeout", "60", "--state"])
            #expect(ready.status == 0, "\(ready.stderr)")
            #expect(try driver.value("GET", "/session/\(session)/url") as? String == server.url + "/")
            #expect(try driver.value("POST", "/session/\(session)/execute/sync", [
                "script": "return typeof window.webkit.messageHandlers.tilecastNative.postMessage", "args": [Any]()]) as? String == "function")
            // The DOM drives the native chrome: Studio's navigation reaches the app's sidebar.
            _ = try driver.value("POST", "/session/\(session)/url", ["url": server.url + "/screens"])
            #expect(try HostShellBinary.run(["ctl", socket, "wait", "navigation.selected=screens", "--timeout", "30"]).status == 0)
            _ = try driver.value("DELETE", "/session/\(session)")
            #expect(waitUntil(timeout: 30) { (try? Self.appIds(fleet))?.isEmpty == true }, "round \(round): the app closed\(fleet.diagnosis())")
        }
    }

    @Test("--webdriver's address and app are checked before anything starts")
    func arguments() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let socket = home.root.appendingPathComponent("f.sock").path
        for (arguments, words) in [(["--webdriver", "0.0.0.0:9222", "--", "capacitor"], "not a loopback address"),
                                   (["--webdriver", "127.0.0.1:9222"], "needs the app each session opens"),
                                   (["--webdriver", "127.0.0.1:9222", "--", "capacitor", "--automation"], "leave --automation out"),
                                   (["--", "capacitor"], "give --webdriver ADDRESS")] {
            let run = try HostShellBinary.run(["fleet", "--control", socket] + arguments, environment: home.environment)
            #expect(run.status == 2 && run.stderr.contains(words), "\(arguments): \(run.stderr)")
        }
        let help = try HostShellBinary.run(["fleet", "--help"])
        #expect(help.stdout.contains("--webdriver"), "\(help.stdout)")
    }
}
