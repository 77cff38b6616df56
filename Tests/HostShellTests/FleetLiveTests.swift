import Foundation
import Glibc
import Testing

/// An app of a fleet, reached on the control socket the fleet gave it, as `hostshell ctl` does.
struct FleetApp {
    let id: String
    let socket: String
    let profile: String

    /// Opens an app in `fleet` with `fleet-ctl SOCKET open [--throw-away] -- KIND ARGS…`.
    init(_ fleet: RunningApp, throwAway: Bool = true, _ kind: String, _ arguments: [String]) throws {
        let run = try HostShellBinary.run(["fleet-ctl", fleet.socket, "open"] + (throwAway ? ["--throw-away"] : []) + ["--", kind] + arguments,
                                          environment: fleet.home.environment)
        try #require(run.status == 0, "fleet-ctl open \(kind) \(arguments): \(run.stderr)\(fleet.diagnosis())")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        id = try #require(answer["id"] as? String)
        socket = try #require(answer["control"] as? String)
        profile = try #require(answer["profile"] as? String)
    }

    @discardableResult
    func ctl(_ arguments: String...) throws -> (status: Int32, result: Any?, error: String) {
        let run = try HostShellBinary.run(["ctl", socket] + arguments)
        let result = run.status == 0 ? try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8), options: .fragmentsAllowed) : nil
        return (run.status, result, run.stderr)
    }

    /// The state once every condition holds (`ctl wait`).
    @discardableResult
    func state(_ conditions: String..., timeout: Int = 30) throws -> [String: Any] {
        let answer = try HostShellBinary.run(["ctl", socket, "wait"] + conditions + ["--timeout", String(timeout), "--state"])
        try #require(answer.status == 0, "app \(id): wait \(conditions.joined(separator: " ")): \(answer.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any])
    }

    /// Evaluates `script` until its result is neither null nor false; that result.
    func evalWhen(_ script: String, timeout: Double = 30) throws -> Any? {
        var result: Any?
        let held = try waitUntil(timeout: timeout) {
            result = try ctl("eval", script).result
            return !(result == nil || result is NSNull || (result as? Bool) == false)
        }
        if !held { Issue.record("app \(id): \(script) was still \(String(describing: result)) after \(timeout) s") }
        return held ? result : nil
    }

    /// Starts `script` (async, setting `window[key]` when done) and waits for what it set.
    func run(_ script: String, key: String) throws -> String? {
        let started = try ctl("eval", "window.\(key) = null; (async () => { \(script) })().then((v) => { window.\(key) = v; }, (e) => { window.\(key) = 'error: ' + e; }); true")
        #expect(started.status == 0, "app \(id): \(started.error)")
        return try evalWhen("window.\(key)") as? String
    }

    /// Writes `tag` to every kind of website storage the page has: a cookie, localStorage,
    /// sessionStorage, IndexedDB and the Cache API.
    func write(_ tag: String) throws {
        let written = try run(StorageProbe.write(tag), key: "__fleetWrite")
        #expect(written == "written", "app \(id) wrote \(tag): \(String(describing: written))")
    }

    /// What every kind of storage holds under the probe's name ("-" for nothing).
    func read() throws -> [String: String] {
        let text = try run(StorageProbe.read, key: "__fleetRead")
        let object = try #require(try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: String], "app \(id) read: \(String(describing: text))")
        return object
    }
}

/// Issue 31 item 1: `hostshell fleet` — one process hosting many isolated apps, opened and
/// closed over its socket, each with its own control socket where `ctl` works unchanged.
@Suite("A fleet: many isolated apps in one process (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct FleetLiveTests {
    static let pluginTest = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/plugin-test").path
    static let kinds = ["cookie", "local", "session", "indexedDB", "cache"]

    /// A fleet without a pool (these tests count each app's own web processes; the pool's are
    /// `FleetPoolLiveTests`').
    static func fleet(_ home: TemporaryHome) throws -> RunningApp {
        try RunningApp(home: home, arguments: ["--pool", "0"], command: "fleet")
    }

    static func fleetCtl(_ fleet: RunningApp, _ arguments: String...) throws -> HostShellBinary.Run {
        try HostShellBinary.run(["fleet-ctl", fleet.socket] + arguments, environment: fleet.home.environment)
    }

    static func expectHolds(_ app: FleetApp, _ tag: String?, _ what: String) throws {
        let found = try app.read()
        for kind in kinds {
            // sessionStorage is the page's (its tab's) own, the rest the profile's.
            #expect(found[kind] == (tag ?? "-"), "app \(app.id), \(kind), \(what): \(found)")
        }
    }

    @Test("every kind of website storage stays in its app, both ways: two throw-away profiles of one app on one origin, and a Studio server on that origin too")
    func storageIsolation() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let fleet = try Self.fleet(home)
        defer { fleet.stop() }
        // Two runs of one Capacitor app (same id, same dev-server origin), each on a throw-away profile.
        let first = try FleetApp(fleet, "capacitor", ["--url", server.url + "/", "--app-id", "dev.hostshell.fleet", "--allow-eval"])
        let second = try FleetApp(fleet, "capacitor", ["--url", server.url + "/", "--app-id", "dev.hostshell.fleet", "--allow-eval"])
        // The saved server's Studio on its own profile, same origin again.
        let studio = try FleetApp(fleet, throwAway: false, "open", ["--allow-eval"])
        for app in [first, second] {
            try app.state("screen=page", timeout: 60)
            #expect(try app.evalWhen("location.origin") as? String == server.url, "app \(app.id) runs on the server's origin")
        }
        try studio.state("screen=page", timeout: 60)
        #expect(first.profile != second.profile && first.socket != second.socket)

        try first.write("first")
        try Self.expectHolds(first, "first", "after its own write")
        try Self.expectHolds(second, nil, "after the first app's write")
        try Self.expectHolds(studio, nil, "after the first app's write")
        try second.write("second")
        try Self.expectHolds(second, "second", "after its own write")
        try Self.expectHolds(first, "first", "after the second app's write")
        try studio.write("studio")
        try Self.expectHolds(studio, "studio", "after its own write")
        try Self.expectHolds(first, "first", "after Studio's write")
        try Self.expectHolds(second, "second", "after Studio's write")
        // Studio's own Quit (Ctrl+Q) ends that app, not the fleet nor the others.
        #expect(try studio.ctl("action", "quit").status == 0)
        #expect(waitUntil(timeout: 30) { !((try? Self.fleetCtl(fleet, "list").stdout) ?? "").contains("\"id\":\"\(studio.id)\"") },
                "the quit app left the fleet")
        #expect(!FileManager.default.fileExists(atPath: studio.socket))
        #expect(fleet.process.isRunning)
        for app in [first, second] { try app.state("screen=page") }
    }

    @Test("erase and reuse: ctl erase on one fleet app empties every kind of its storage and starts it again, for the next test; the app beside it keeps its own")
    func eraseAndReuse() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        let fleet = try Self.fleet(home)
        defer { fleet.stop() }
        let reused = try FleetApp(fleet, "capacitor", ["--url", server.url + "/", "--app-id", "dev.hostshell.fleet", "--allow-eval"])
        let beside = try FleetApp(fleet, "capacitor", ["--url", server.url + "/", "--app-id", "dev.hostshell.fleet", "--allow-eval"])
        for app in [reused, beside] { try app.state("screen=page", timeout: 60) }
        try reused.write("first-test")
        try beside.write("beside")
        let erased = try reused.ctl("erase")
        #expect(erased.status == 0, "ctl erase in a fleet: \(erased.error)")
        try reused.state("screen=page", timeout: 60)
        try Self.expectHolds(reused, nil, "after ctl erase")
        try Self.expectHolds(beside, "beside", "after the other app's erase")
        // The same app, used again by the next test.
        try reused.write("second-test")
        try Self.expectHolds(reused, "second-test", "reused after erase")
        #expect(fleet.process.isRunning)
        let listed = try Self.fleetCtl(fleet, "list")
        #expect(listed.stdout.contains("\"id\":\"\(reused.id)\"") && listed.stdout.contains("\"id\":\"\(beside.id)\""), "both apps are still the fleet's: \(listed.stdout)")
    }

    @Test("secrets and permissions stay in their app, both ways, and two apps share capacitor://localhost each with its own files")
    func secretsAndPermissions() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let fleet = try Self.fleet(home)
        defer { fleet.stop() }
        let arguments = [Self.pluginTest, "--app-id", "dev.hostshell.fleetplugins", "--allow-eval"]
        let first = try FleetApp(fleet, "capacitor", arguments + ["--grant", "camera"])
        let second = try FleetApp(fleet, "capacitor", arguments)
        for app in [first, second] {
            try app.state("screen=page", "url=\"capacitor://localhost/\"", timeout: 60)
            #expect(try app.evalWhen("window.__t && window.__t.booted") as? Bool == true, "app \(app.id): the page's runtime booted")
        }
        func call(_ app: FleetApp, _ method: String, _ options: String = "{}") throws -> Any? {
            let key = "k\(UInt32.random(in: .min ... .max))"
            let answer = try app.run("return JSON.stringify(await new Promise((ok) => { window.__t.call('\(key)', 'HomeSecAuth', '\(method)', \(options)); const poll = () => { const r = window.__t.result('\(key)'); r ? ok(JSON.parse(r)) : setTimeout(poll, 20); }; poll(); }))", key: "__secret")
            let object = try JSONSerialization.jsonObject(with: Data((answer ?? "{}").utf8)) as? [String: Any]
            #expect(object?["ok"] as? Bool == true, "app \(app.id) \(method): \(String(describing: answer))")
            return (object?["data"] as? [String: Any])?["value"]
        }
        // Secrets: each app's own store (a throw-away profile's owner-only file).
        _ = try call(first, "setServerBaseUrl", #"{"value": "http://127.0.0.10:8000"}"#)
        #expect(try call(second, "getServerBaseUrl") is NSNull, "the second app does not see the first's server")
        _ = try call(first, "setApiToken", #"{"value": "token-of-first"}"#)
        #expect(try call(first, "getApiToken") as? String == "token-of-first")
        #expect(try call(second, "getApiToken") is NSNull, "the second app does not see the first's secret")
        _ = try call(second, "setServerBaseUrl", #"{"value": "http://127.0.0.11:8000"}"#)
        _ = try call(second, "setApiToken", #"{"value": "token-of-second"}"#)
        #expect(try call(first, "getServerBaseUrl") as? String == "http://127.0.0.10:8000")
        #expect(try call(first, "getApiToken") as? String == "token-of-first", "nor the first the second's")
        #expect(try call(second, "getApiToken") as? String == "token-of-second")
        // Permissions: granted at the start in one, by ctl privacy in the other.
        try first.state("privacy.camera=\"granted\"")
        try second.state("privacy.camera=\"ask\"")
        #expect(try second.ctl("privacy", "grant", "location").status == 0)
        try second.state("privacy.location=\"granted\"", "privacy.camera=\"ask\"")
        try first.state("privacy.location=\"ask\"", "privacy.camera=\"granted\"")
        // What is the whole process's in a fleet is refused, with why; the app's own goes on.
        let zone = try second.ctl("timezone", "Europe/Paris")
        #expect(zone.status == 1 && zone.error.contains("in a fleet the time zone"), "\(zone.error)")
        let size = try first.ctl("text-size", "extra-large")
        #expect(size.status == 1 && size.error.contains("the text size"), "\(size.error)")
        #expect(try first.ctl("appearance", "dark").status == 0)
        try first.state("appearance.scheme=\"dark\"")
        try second.state("appearance.scheme=\"auto\"")
        // The same origin, served from each app's own scheme handler: storage apart too.
        #expect(try first.ctl("eval", "localStorage.setItem('who', 'first'); location.origin").result as? String == "capacitor://localhost")
        #expect(try second.ctl("eval", "String(localStorage.getItem('who'))").result as? String == "null")
        let firstFiles = (try first.ctl("state").result as? [String: Any])?["app"] as? [String: Any]
        let secondFiles = (try second.ctl("state").result as? [String: Any])?["app"] as? [String: Any]
        #expect((firstFiles?["dataDirectory"] as? String) != (secondFiles?["dataDirectory"] as? String))
    }

    @Test("a crashed web process and a hung page in one app leave the others answering and showing their page")
    func crashAndHang() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let fleet = try Self.fleet(home)
        defer { fleet.stop() }
        let arguments = [Self.pluginTest, "--app-id", "dev.hostshell.fleetcrash", "--allow-eval"]
        let steady = try FleetApp(fleet, "capacitor", arguments)
        try steady.state("screen=page", timeout: 60)
        let before = Set(LiveFailureTests.webProcesses(of: fleet.process.processIdentifier))
        let crashing = try FleetApp(fleet, "capacitor", arguments)
        try crashing.state("screen=page", timeout: 60)
        #expect(try steady.ctl("eval", "window.__mark = 'steady'; true").status == 0)
        #expect(try crashing.ctl("eval", "window.__mark = 'crashing'; true").status == 0)
        // The web processes that came with the second app are its own: kill them.
        let victims = Set(LiveFailureTests.webProcesses(of: fleet.process.processIdentifier)).subtracting(before)
        try #require(!victims.isEmpty, "the second app has no web process of its own")
        for victim in victims { kill(victim, SIGKILL) }
        // It reloads (a new document: the mark is gone); the other never noticed.
        #expect(try crashing.evalWhen("document.readyState === 'complete' && window.__mark === undefined", timeout: 60) as? Bool == true)
        try crashing.state("screen=page", timeout: 60)
        #expect(try steady.ctl("eval", "window.__mark").result as? String == "steady", "the other app's page was not reloaded")
        try steady.state("screen=page", "webProcess.responsive=true")

        // A page script that never returns, in the second app: its eval waits; the first answers.
        let hanging = Process()
        hanging.executableURL = HostShellBinary.url
        hanging.arguments = ["ctl", crashing.socket, "eval", "while (true) {}"]
        hanging.environment = HostShellBinary.environment()
        hanging.standardOutput = FileHandle.nullDevice
        hanging.standardError = FileHandle.nullDevice
        try hanging.run()
        defer { if hanging.isRunning { kill(hanging.processIdentifier, SIGKILL) }; hanging.waitUntilExit() }
        // Seen as hung (its state answers: it is the UI process's).
        try crashing.state("webProcess.responsive=false", timeout: 30)
        for _ in 0..<5 {
            #expect(try steady.ctl("eval", "1 + 1").result as? Int == 2)
            try steady.state("screen=page", "webProcess.responsive=true")
        }
        let listed = try Self.fleetCtl(fleet, "list")
        #expect(listed.status == 0 && listed.stdout.contains("\"id\":\"\(crashing.id)\""), "the fleet answers: \(listed.stderr)")
        #expect(hanging.isRunning, "the hung page's eval has not returned meanwhile")
        // A hung app closes like any other, and the other is still there.
        let closed = try Self.fleetCtl(fleet, "close", crashing.id)
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: crashing.socket))
        #expect(try steady.ctl("eval", "window.__mark").result as? String == "steady")
        try steady.state("screen=page")
    }

    @Test("open and close over the socket: ids, sockets and throw-away profiles come and go; bad requests get clear errors; the fleet outlives its apps")
    func openAndClose() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let fleet = try Self.fleet(home)
        defer { fleet.stop() }
        // The fleet's own arguments: a socket, and nothing of an app's.
        let noSocket = try HostShellBinary.run(["fleet"], environment: home.environment)
        #expect(noSocket.status == 2 && noSocket.stderr.contains("fleet needs --control SOCKET"), "\(noSocket.stderr)")
        let appOption = try HostShellBinary.run(["fleet", "--control", fleet.socket + "-other", "--web-dir", "www"], environment: home.environment)
        #expect(appOption.status == 2 && appOption.stderr.contains("--web-dir"), "\(appOption.stderr)")
        let taken = try HostShellBinary.run(["fleet", "--control", fleet.socket], environment: home.environment)
        #expect(taken.status != 0 && taken.stderr.contains("already listening on"), "a second fleet on the socket is refused: \(taken.stderr)")
        let empty = try Self.fleetCtl(fleet, "list")
        #expect(empty.status == 0 && empty.stdout.contains("\"apps\":[]"), "\(empty.stdout) \(empty.stderr)")

        // Bad requests: each refused with what was wrong, and the fleet goes on.
        let refusals: [([String], Int32, String)] = [
            (["open", "--", "kiosk"], 1, "a fleet runs capacitor or open apps, not kiosk"),
            (["open", "--", "capacitor", Self.pluginTest, "--check"], 1, "--check is not for an app in a fleet"),
            (["open", "--", "capacitor", Self.pluginTest, "--control", "x.sock"], 1, "the fleet gives each app its control socket"),
            (["open", "--", "capacitor", Self.pluginTest, "--locale", "fr-FR"], 1, "--locale is not for an app in a fleet"),
            (["open", "--", "capacitor", "--web-dir", home.root.appendingPathComponent("nowhere").path], 1, "cannot be used"),
            (["open", "--", "capacitor", Self.pluginTest, "--frobnicate"], 1, "unknown option --frobnicate"),
            (["open", "--throw-away", "--", "open"], 1, "no servers saved yet"),
            (["open", "--throw-away", "--", "open", "--credential-store", "secret-service"], 1, "no servers saved yet"),
            (["close", "9"], 1, "no app 9 in this fleet; none is open"),
            (["{\"command\":\"state\"}"], 1, "a fleet's socket takes open, close, list"),
            (["{\"command\":\"open\",\"app\":\"capacitor\",\"arguments\":\"--web-dir x\"}"], 1, "a list of strings"),
            (["launch"], 2, "unknown fleet command \"launch\""),
            (["open"], 2, "open needs the app's command"),
        ]
        for (words, status, message) in refusals {
            let run = try HostShellBinary.run(["fleet-ctl", fleet.socket] + words, environment: home.environment)
            #expect(run.status == status && run.stderr.contains(message), "\(words): \(run.status) \(run.stderr)")
        }

        let app = try FleetApp(fleet, "capacitor", [Self.pluginTest, "--app-id", "dev.hostshell.fleetopen", "--allow-eval"])
        // Its socket beside the fleet's, named by its id (a failed open above used an id too).
        #expect(app.socket == fleet.socket + "." + app.id)
        try app.state("screen=page", timeout: 60)
        #expect(FileManager.default.fileExists(atPath: app.profile), "the throw-away profile is there while the app runs")
        // The app's own profile can be opened beside it, but not twice.
        let own = try FleetApp(fleet, throwAway: false, "capacitor", [Self.pluginTest, "--app-id", "dev.hostshell.fleetopen", "--allow-eval"])
        #expect(Int(own.id)! > Int(app.id)! && own.profile.hasPrefix(home.root.path))
        let twice = try Self.fleetCtl(fleet, "open", "--", "capacitor", Self.pluginTest, "--app-id", "dev.hostshell.fleetopen")
        #expect(twice.status == 1 && twice.stderr.contains("app \(own.id) (Plugin Test) already runs on that profile"), "\(twice.stderr)")
        try own.state("screen=page", timeout: 60)

        let webProcesses = LiveFailureTests.webProcesses(of: fleet.process.processIdentifier).count
        #expect(webProcesses >= 2, "each app has a web process of its own")
        let closed = try Self.fleetCtl(fleet, "close", app.id)
        #expect(closed.status == 0 && closed.stdout.contains("\"closed\":\"\(app.id)\""), "\(closed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app.socket), "a closed app's socket is gone")
        #expect(!FileManager.default.fileExists(atPath: app.profile), "and its throw-away profile")
        #expect(waitUntil(timeout: 30) { LiveFailureTests.webProcesses(of: fleet.process.processIdentifier).count == webProcesses - 1 },
                "and its web process")
        let gone = try app.ctl("state")
        #expect(gone.status == 2, "ctl on a closed app's socket finds no app: \(gone.error)")
        let listed = try Self.fleetCtl(fleet, "list")
        #expect(listed.stdout.contains("\"id\":\"\(own.id)\"") && !listed.stdout.contains("\"id\":\"\(app.id)\""), "\(listed.stdout)")
        try own.state("screen=page")
        #expect(try Self.fleetCtl(fleet, "close", own.id).status == 0)
        #expect(try Self.fleetCtl(fleet, "list").stdout.contains("\"apps\":[]"))
        #expect(fleet.process.isRunning, "the fleet outlives its apps")
        let next = try FleetApp(fleet, "capacitor", [Self.pluginTest, "--app-id", "dev.hostshell.fleetopen", "--allow-eval"])
        #expect(Int(next.id)! == Int(own.id)! + 1, "ids are never given twice")
        try next.state("screen=page", timeout: 60)
        // SIGTERM ends the fleet and every app; their sockets go with them.
        kill(fleet.process.processIdentifier, SIGTERM)
        fleet.process.waitUntilExit()
        #expect(fleet.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: next.socket) && !FileManager.default.fileExists(atPath: fleet.socket))
        #expect(!FileManager.default.fileExists(atPath: next.profile))
    }
}

/// The scripts that write a tag to every kind of website storage a page has (a cookie,
/// localStorage, sessionStorage, IndexedDB, the Cache API) and read it back, as one JSON object
/// ("-" for nothing): the bodies of async functions, for `ctl eval` and WebDriver alike.
enum StorageProbe {
    static func write(_ tag: String) -> String {
        """
        document.cookie = 'fleet=\(tag); path=/; max-age=3600';
        localStorage.setItem('fleet', '\(tag)');
        sessionStorage.setItem('fleet', '\(tag)');
        await new Promise((ok, no) => { const r = indexedDB.open('fleet', 1);
          r.onupgradeneeded = () => r.result.createObjectStore('s');
          r.onerror = () => no(r.error);
          r.onsuccess = () => { const t = r.result.transaction('s', 'readwrite'); t.objectStore('s').put('\(tag)', 'k');
            t.oncomplete = () => { r.result.close(); ok(); }; t.onerror = () => no(t.error); }; });
        await (await caches.open('fleet')).put('/fleet-probe', new Response('\(tag)'));
        return 'written';
        """
    }

    static let read = """
        const cookie = (document.cookie.match(/(?:^|; )fleet=([^;]*)/) || [])[1] || '-';
        const idb = await new Promise((ok) => { const r = indexedDB.open('fleet', 1);
          r.onupgradeneeded = () => r.result.createObjectStore('s');
          r.onerror = () => ok('error ' + r.error);
          r.onsuccess = () => { const g = r.result.transaction('s', 'readonly').objectStore('s').get('k');
            g.onsuccess = () => { r.result.close(); ok(g.result || '-'); }; g.onerror = () => ok('error'); }; });
        const hit = await (await caches.open('fleet')).match('/fleet-probe');
        return JSON.stringify({ cookie, local: localStorage.getItem('fleet') || '-', session: sessionStorage.getItem('fleet') || '-',
                                indexedDB: idb, cache: hit ? await hit.text() : '-' });
        """
}
