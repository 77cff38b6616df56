import Foundation
import Glibc
import Testing

/// Issue 31 item 2: a fleet's pool of prewarmed throw-away slots (`hostshell fleet --pool K`).
@Suite("A fleet's pool: prewarmed throw-away apps (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct FleetPoolLiveTests {
    static func list(_ fleet: RunningApp) throws -> [String: Any] {
        let run = try FleetLiveTests.fleetCtl(fleet, "list")
        try #require(run.status == 0, "list: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    static func pool(_ fleet: RunningApp) throws -> [String: Any] {
        try #require(try list(fleet)["pool"] as? [String: Any])
    }

    /// Whether app `id` runs on a slot of the pool, as list says.
    static func pooled(_ fleet: RunningApp, _ id: String) throws -> Bool? {
        let apps = try list(fleet)["apps"] as? [[String: Any]] ?? []
        return apps.first { $0["id"] as? String == id }?["pooled"] as? Bool
    }

    /// Waits until the pool holds `ready` ready slots; the pool then.
    @discardableResult
    static func whenReady(_ fleet: RunningApp, _ ready: Int) throws -> [String: Any] {
        var pool: [String: Any] = [:]
        let full = waitUntil(timeout: 60) {
            pool = (try? Self.pool(fleet)) ?? [:]
            return pool["ready"] as? Int == ready && pool["warming"] as? Int == 0
        }
        #expect(full, "the pool did not reach \(ready) ready slots: \(pool)\(fleet.diagnosis())")
        return pool
    }

    static func slotIds(_ pool: [String: Any]) -> [String] {
        (pool["slots"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("a pooled open shows its page on a slot whose web process ran before; two pooled apps and a later one on a fresh slot see nothing of each other; the pool refills with new slots")
    func pooledAppsAreIsolated() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        let fleet = try RunningApp(home: home, arguments: ["--pool", "2"], command: "fleet")
        defer { fleet.stop() }
        let full = try Self.whenReady(fleet, 2)
        #expect(full["size"] as? Int == 2 && full["taken"] as? Int == 0)
        let warmSlots = Self.slotIds(full)
        #expect(warmSlots == ["p1", "p2"])
        // Each ready slot's web process runs already, before any app is open.
        #expect(waitUntil(timeout: 30) { LiveFailureTests.webProcesses(of: fleet.process.processIdentifier).count == 2 },
                "two slots, two web processes: \(LiveFailureTests.webProcesses(of: fleet.process.processIdentifier))")

        let arguments = ["--url", server.url + "/", "--app-id", "dev.hostshell.fleetpool", "--allow-eval"]
        let first = try FleetApp(fleet, "capacitor", arguments)
        let second = try FleetApp(fleet, "capacitor", arguments)
        for app in [first, second] {
            #expect(try Self.pooled(fleet, app.id) == true, "app \(app.id) took a slot")
            try app.state("screen=page", timeout: 60)
            #expect(try app.evalWhen("location.origin") as? String == server.url, "app \(app.id) shows its own page")
            // The slot's start left nothing behind: its history begins at the app's page, as alone.
            #expect(try app.ctl("eval", "history.length").result as? Int == 1, "app \(app.id): history")
        }
        #expect(first.profile != second.profile && first.socket != second.socket)

        // Isolation, both ways, in every kind of storage.
        try first.write("first")
        try FleetPoolLiveTests.expect(second, holds: nil, "after the first app's write")
        try second.write("second")
        try FleetPoolLiveTests.expect(first, holds: "first", "after the second app's write")
        try FleetPoolLiveTests.expect(second, holds: "second", "after its own write")

        // The pool refilled behind the takes, with slots that never served an app.
        let refilled = try Self.whenReady(fleet, 2)
        #expect(refilled["taken"] as? Int == 2)
        #expect(Set(Self.slotIds(refilled)).isDisjoint(with: warmSlots), "new slots, not the taken ones: \(refilled)")

        // A closed pooled app's slot is gone with it: the next app, same id and origin, starts empty.
        #expect(try FleetLiveTests.fleetCtl(fleet, "close", first.id).status == 0)
        #expect(!FileManager.default.fileExists(atPath: first.profile), "its throw-away profile went with it")
        let third = try FleetApp(fleet, "capacitor", arguments)
        #expect(try Self.pooled(fleet, third.id) == true)
        try third.state("screen=page", timeout: 60)
        try FleetPoolLiveTests.expect(third, holds: nil, "on a fresh slot after the first closed")
        try FleetPoolLiveTests.expect(second, holds: "second", "after the third app opened")

        // An app on its own profile never takes a slot: its data lives in its profile.
        let own = try FleetApp(fleet, throwAway: false, "capacitor", arguments)
        #expect(try Self.pooled(fleet, own.id) == false)
        try own.state("screen=page", timeout: 60)
        try FleetPoolLiveTests.expect(own, holds: nil, "on its own profile")
        #expect(try Self.pool(fleet)["taken"] as? Int == 3)
        for app in [second, third] { try app.state("screen=page") }
    }

    /// What every kind of storage of `app` holds (nil: nothing).
    static func expect(_ app: FleetApp, holds tag: String?, _ what: String) throws {
        try FleetLiveTests.expectHolds(app, tag, what)
    }

    @Test("a ready slot whose web process dies leaves the pool and is replaced by a new one; a throw-away open still gets a working slot")
    func lostSlotIsReplaced() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let fleet = try RunningApp(home: home, arguments: ["--pool", "2"], command: "fleet")
        defer { fleet.stop() }
        try Self.whenReady(fleet, 2)
        let victims = LiveFailureTests.webProcesses(of: fleet.process.processIdentifier)
        try #require(victims.count == 2, "the two slots' web processes: \(victims)")
        for victim in victims { kill(victim, SIGKILL) }
        var pool: [String: Any] = [:]
        #expect(waitUntil(timeout: 60) {
            pool = (try? Self.pool(fleet)) ?? [:]
            return pool["lost"] as? Int == 2 && pool["ready"] as? Int == 2
        }, "both slots lost and replaced: \(pool)\(fleet.diagnosis())")
        #expect(Set(Self.slotIds(pool)).isDisjoint(with: ["p1", "p2"]), "\(pool)")
        let app = try FleetApp(fleet, "capacitor", [FleetLiveTests.pluginTest, "--app-id", "dev.hostshell.fleetlost", "--allow-eval"])
        #expect(try Self.pooled(fleet, app.id) == true)
        try app.state("screen=page", "url=\"capacitor://localhost/\"", timeout: 60)
        #expect(try app.evalWhen("window.__t && window.__t.booted") as? Bool == true, "the runtime booted on the new slot")
        #expect(fleet.process.isRunning)
    }

    @Test("a saved Studio server on throw-away profiles: two at once, each showing its page, seeing nothing of each other nor of the server's own profile, and gone at close")
    func studioThrowAway() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let fleet = try RunningApp(home: home, arguments: ["--pool", "0"], command: "fleet")
        defer { fleet.stop() }
        let keyring = try FleetLiveTests.fleetCtl(fleet, "open", "--throw-away", "--", "open", "--credential-store", "secret-service")
        #expect(keyring.status == 1 && keyring.stderr.contains("the Secret Service's entries are the server's"), "\(keyring.stderr)")
        let own = try FleetApp(fleet, throwAway: false, "open", ["--allow-eval"])
        let first = try FleetApp(fleet, "open", ["--allow-eval"])
        let second = try FleetApp(fleet, "open", ["--allow-eval"])
        #expect(Set([own.profile, first.profile, second.profile]).count == 3, "three profiles: \([own.profile, first.profile, second.profile])")
        #expect(!first.profile.hasPrefix(home.root.path) && own.profile.hasPrefix(home.root.path), "the throw-away ones are the fleet's")
        for app in [own, first, second] { try app.state("screen=page", timeout: 60) }
        try first.write("first")
        try FleetLiveTests.expectHolds(second, nil, "after the first throw-away app's write")
        try FleetLiveTests.expectHolds(own, nil, "after the first throw-away app's write")
        try own.write("own")
        try FleetLiveTests.expectHolds(first, "first", "after the own profile's write")
        try FleetLiveTests.expectHolds(second, nil, "after the own profile's write")
        #expect(FileManager.default.fileExists(atPath: first.profile))
        #expect(try FleetLiveTests.fleetCtl(fleet, "close", first.id).status == 0)
        #expect(!FileManager.default.fileExists(atPath: first.profile), "its throw-away profile went with it")
        try FleetLiveTests.expectHolds(own, "own", "after the throw-away app closed")
        try second.state("screen=page")
    }

    @Test("--pool 0: no slots, a throw-away app starts as before and shows its page; bad --pool values are refused with what it takes")
    func noPoolAndBadValues() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let socket = home.root.appendingPathComponent("bad.sock").path
        let refusals: [([String], String)] = [
            (["--pool"], "--pool takes how many prewarmed throw-away slots to keep"),
            (["--pool", "9"], "--pool 9 is more than 8"),
            (["--pool", "-1"], "--pool takes a whole number from 0 (none) to 8, not -1"),
            (["--pool", "two"], "not two"),
            (["--pool", "--headless"], "not --headless"),
        ]
        for (words, message) in refusals {
            let run = try HostShellBinary.run(["fleet", "--control", socket] + words, environment: home.environment)
            #expect(run.status == 2 && run.stderr.contains(message), "\(words): \(run.status) \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: socket), "\(words): no fleet started")
        }

        let fleet = try RunningApp(home: home, arguments: ["--pool", "0"], command: "fleet")
        defer { fleet.stop() }
        let pool = try Self.pool(fleet)
        #expect(pool["size"] as? Int == 0 && Self.slotIds(pool).isEmpty, "\(pool)")
        let app = try FleetApp(fleet, "capacitor", [FleetLiveTests.pluginTest, "--app-id", "dev.hostshell.fleetnopool", "--allow-eval"])
        #expect(try Self.pooled(fleet, app.id) == false)
        try app.state("screen=page", "url=\"capacitor://localhost/\"", timeout: 60)
        #expect(try app.evalWhen("window.__t && window.__t.booted") as? Bool == true)
        #expect(try Self.pool(fleet)["taken"] as? Int == 0)
    }
}
