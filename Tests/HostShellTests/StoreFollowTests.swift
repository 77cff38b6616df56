import Foundation
import Testing

/// The running app and the saved-servers store: a server added while it runs can be switched
/// to; the server on screen, removed, is closed first and its website data is not written again;
/// and a deep link for an installation that is not saved loads nothing, whatever is saved.
@Suite("The running app follows the store; refused links load nothing (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct StoreFollowTests {
    @Test("a server added while the app runs can be switched to; removing the one on screen closes it before its data goes")
    func followsStore() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let north = try ReferenceServer(extra: ["--organization", "North Studio"])
        let south = try ReferenceServer(installation: "11111111-2222-4333-8444-555555555555", extra: ["--organization", "South Studio"])
        defer { north.stop(); south.stop() }
        #expect(try HostShellBinary.run(["server", "add", north.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval"])
        defer { app.stop() }
        _ = try app.state("screen=page", "server.id=\"north-studio\"", "negotiated=true")

        // Added while the app runs: offered in the switcher, and switched to.
        let added = try HostShellBinary.run(["server", "add", south.url, "--allow-http"], environment: home.environment)
        #expect(added.status == 0 && !added.stderr.contains("note:"), "\(added.stderr)")
        _ = try app.state(#"servers=["north-studio","south-studio"]"#)
        let switched = try app.ctl("switch-server", "south-studio")
        #expect(switched.status == 0, "\(switched.error)")
        _ = try app.state("screen=page", "server.id=\"south-studio\"", "negotiated=true")
        #expect(try app.ctl("eval", #"localStorage.setItem("who", "south"); document.cookie = "session=south; max-age=3600"; true"#).status == 0)

        // Removed while on screen: the app goes to north first, then the data is deleted.
        let southData = home.root.appendingPathComponent("data/hostshell/servers/south-studio")
        #expect(FileManager.default.fileExists(atPath: southData.path))
        let removed = try HostShellBinary.run(["server", "remove", "south-studio"], environment: home.environment)
        #expect(removed.status == 0 && !removed.stderr.contains("warning"), "\(removed.stderr)")
        _ = try app.state("server.id=\"north-studio\"", #"servers=["north-studio"]"#, "screen=page", "negotiated=true")
        #expect(!FileManager.default.fileExists(atPath: southData.path), "south's website data is gone")
        #expect(try app.ctl("switch-server", "south-studio").error.contains("no saved server"))
        // Deleted through its own session, which the app then let go of: its cookies and storage
        // are not written again while the app goes on (a reload of north's page and a sheet later).
        // WebKit's HTTP cache may land a write already under way; the app deletes it as it ends.
        let southCache = home.root.appendingPathComponent("cache/hostshell/servers/south-studio")
        #expect(try app.ctl("eval", "location.reload(); true").status == 0)
        _ = try app.state("server.id=\"north-studio\"", "screen=page", "negotiated=true", "presentation.ready=true")
        #expect(!FileManager.default.fileExists(atPath: southData.path), "south's website data was written again by the running app")
        app.stop()
        #expect(!FileManager.default.fileExists(atPath: southData.path), "south's website data was written again as the app ended")
        #expect(!FileManager.default.fileExists(atPath: southCache.path), "south's cache was written again as the app ended")
    }

    @Test("removing the only server on screen ends the app, and its data stays deleted")
    func lastServerRemoved() throws {
        let live = try LiveApp()
        defer { live.finish() }
        _ = try live.app.state("screen=page", "negotiated=true")
        let id = try #require((try live.app.state("screen=page")["server"] as? [String: Any])?["id"] as? String)
        let removed = try HostShellBinary.run(["server", "remove", id], environment: live.home.environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(waitUntil(timeout: 20) { !live.app.process.isRunning }, "the app ended with nothing left to show")
        for tree in ["data", "cache"] {
            let path = live.home.root.appendingPathComponent("\(tree)/hostshell/servers/\(id)").path
            #expect(!FileManager.default.fileExists(atPath: path), "\(tree) of \(id) is left")
        }
    }

    @Test("a server whose identity name carries escape sequences: ctl and the deep-link notices show them escaped")
    func hostileNameLive() throws {
        let evil = "Evil\u{1b}]0;pwned\u{07}\u{1b}[31mCorp\u{202e}gpj.exe"
        let live = try LiveApp([], serverOptions: ["--organization", evil])
        defer { live.finish() }
        func raw(_ text: String) -> Bool { text.unicodeScalars.contains { [0x1b, 0x07, 0x202e].contains($0.value) } }
        let state = try HostShellBinary.run(["ctl", live.app.socket, "wait", "screen=page", "negotiated=true", "--timeout", "30", "--state"])
        #expect(state.status == 0 && !raw(state.stdout), "\(state.stdout.debugDescription)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any])
        #expect((parsed["server"] as? [String: Any])?["name"] as? String == evil, "the JSON still holds the name exactly")
        let link = "tilecast-ios://open?installation=7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e&path=%2Fmedia%2F%E2%80%AEgpj.exe"
        let desktop = try HostShellBinary.run(["open-url", link], environment: live.home.environment)
        #expect(desktop.status == 0 && !raw(desktop.stdout) && !raw(desktop.stderr), "\(desktop.stdout.debugDescription) \(desktop.stderr)")
        #expect(desktop.stdout.contains(#"Opening /media/\u{202e}gpj.exe on Evil\u{1b}]0;pwned\u{7}"#), "\(desktop.stdout)")
        let events = try HostShellBinary.run(["ctl", live.app.socket, "events", "--kind", "state", "--count", "1", "--timeout", "5"])
        #expect(!raw(events.stdout), "\(events.stdout.debugDescription)")
    }

    static let unknown = "tilecast-ios://open?installation=99999999-9999-4999-8999-999999999999&path=%2Fmedia"

    @Test("a link for an installation that is not saved loads no server's page: one saved server, or several")
    func notSavedLoadsNothing() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let north = try ReferenceServer(extra: ["--organization", "North Studio"])
        defer { north.stop() }
        #expect(try HostShellBinary.run(["server", "add", north.url, "--allow-http"], environment: home.environment).status == 0)
        let before = try #require(try HTTP.json(north.url + "/__test/requests")["count"] as? Int)

        // No app runs: the desktop's handler, and `open --open-url`.
        let (desktop, finished) = try runBounded(["open-url", Self.unknown], environment: home.environment)
        #expect(finished, "open-url started an app for a link of an installation that is not saved")
        #expect(desktop.status == 1 && desktop.stderr.contains("not set up here") && desktop.stderr.contains("nothing was opened"), "\(desktop.stderr)")
        let (open, openFinished) = try runBounded(["open", "--open-url", Self.unknown], environment: home.environment)
        #expect(openFinished && open.status == 2 && open.stderr.contains("not set up here"), "\(open.stderr)")
        #expect(try HTTP.json(north.url + "/__test/requests")["count"] as? Int == before, "nothing went to the saved server")

        // Several saved: what is wrong with the link, not "name a server".
        let south = try ReferenceServer(installation: "11111111-2222-4333-8444-555555555555", extra: ["--organization", "South Studio"])
        defer { south.stop() }
        #expect(try HostShellBinary.run(["server", "add", south.url, "--allow-http"], environment: home.environment).status == 0)
        for (link, words) in [(Self.unknown, "not set up here"),
                              ("tilecast-ios://open?installation=nope&path=%2Fmedia", "installation is not a UUID"),
                              ("tilecast-ios://open?installation=11111111-2222-4333-8444-555555555555&path=%2Flogin", "must not be /login")] {
            let (run, done) = try runBounded(["open-url", link], environment: home.environment)
            #expect(done && run.status == 1 && run.stderr.contains(words) && !run.stderr.contains("name one"), "\(link): \(run.stderr)")
        }
        #expect(try HTTP.json(north.url + "/__test/requests")["count"] as? Int == before, "nothing went to north")
    }
}
