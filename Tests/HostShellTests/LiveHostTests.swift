import Foundation
import Testing

/// Real WebKit under the test's X server: the built binary opens the reference Studio.
@Suite("Live host: negotiation and native chrome (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct LiveHostTests {
    static func probe(_ device: String) throws -> [String: Any] {
        let run = try HostShellBinary.run(["probe", "--reference", "--device", device, "--timeout", "60"])
        #expect(run.status == 0, "probe failed: \(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").last, "no state printed: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func ids(_ list: Any?) -> [String] { (list as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }

    @Test("phone: the handshake completes and the catalog becomes four tabs and More")
    func phone() throws {
        let state = try Self.probe("phone")
        #expect(state["negotiated"] as? Bool == true)
        #expect(state["frontendReady"] as? Bool == true)
        #expect(state["context"] as? String == "main")
        #expect(state["studioCapabilities"] as? [String] == ["authLifecycle", "nativePresentations", "nativeAlerts", "nativeMediaIntake", "deepLinks", "nativeActionMenus", "systemMap"])
        let navigation = try #require(state["navigation"] as? [String: Any])
        #expect(navigation["kind"] as? String == "tabs")
        #expect(Self.ids(navigation["tabs"]) == ["overview", "screens", "media", "playlists"])
        #expect(Self.ids(navigation["more"]) == ["groups", "schedules", "activity", "plugin:forms:approvals", "settings"])
        #expect(navigation["selected"] as? String == "overview", "Studio's navigation/state selected the landing page")
        #expect(state["backBar"] is NSNull, "a top-level page has no back bar")
    }

    @Test("tablet and desktop: a sidebar grouped like the catalog, with group titles", arguments: ["tablet", "desktop"])
    func sidebar(_ device: String) throws {
        let state = try Self.probe(device)
        let navigation = try #require(state["navigation"] as? [String: Any])
        #expect(navigation["kind"] as? String == "sidebar")
        let groups = try #require(navigation["groups"] as? [[String: Any]])
        #expect(groups.map { $0["title"] as? String } == [nil, "Fleet", "Content", "Administration"])
        #expect(groups.map { Self.ids($0["items"]).count } == [1, 2, 3, 3])
    }

    @Test("the app's page is the first entry of its history: the web process started while the confinement compiled left no document behind")
    func firstDocument() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval"])
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true")
        #expect(try app.ctl("eval", "history.length").result as? Int == 1)
        #expect(try app.ctl("eval", "performance.getEntriesByType('navigation').map(e => e.type + ' ' + e.name).join()").result as? String
                    == "navigate \(server.url)/")
    }

    static func probeTitle(_ arguments: [String]) throws -> [String: Any] {
        let run = try HostShellBinary.run(["probe", "--reference", "--until-title", "done:", "--timeout", "60"] + arguments)
        #expect(run.status == 0, "probe failed: \(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").last, "no state printed: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("a cross-origin iframe gets no handler, cannot reach the top frame's, and nothing reaches the host")
    func crossOriginFrame() throws {
        let state = try Self.probeTitle(["--path", "/__test/cross-frame.html"])
        #expect(state["title"] as? String == "done:frame-handler=false;frame-reply=none+top-blocked")
        #expect(state["messagesReceived"] as? Int == 0)
    }

    @Test("a top page that is not on the server's origin is refused by the relay with forbidden, before the host")
    func offOriginPage() throws {
        let state = try Self.probeTitle(["--path", "/__test/off-origin.html", "--host", "localhost"])
        #expect((state["url"] as? String)?.hasPrefix("http://localhost:") == true)
        #expect(state["title"] as? String == "done:reply=forbidden")
        #expect(state["messagesReceived"] as? Int == 0)
    }

    @Test("probe without a display says what to do and exits 2")
    func noDisplay() throws {
        let process = Process()
        process.executableURL = HostShellBinary.url
        process.arguments = ["probe", "--reference"]
        var environment = HostShellBinary.environment()
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("xvfb-run"), "\(message)")
    }
}

@Suite("Demo tour (real WebKit)", .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"))
struct DemoTourTests {
    @Test("the headless demo tours the reference Studio in the real app (sheet, map, alert, deep link), writes state.json and a PNG per step, and exits 0")
    func tour() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        // A generous step limit: this machine is shared, and suites run side by side.
        // On an X server of its own: its menus grab the pointer, which another suite's menus on the
        // shared display would take down ("GTK took it down at once").
        let run = try HostShellBinary.run(["demo", "--headless", "--device", "phone", "--device", "desktop", "--out", out.path, "--step-timeout", "60"], environment: HostShellBinary.ownDisplay)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("Demo tour passed on phone, desktop."))
        let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("state.json"))) as? [String: Any])
        #expect(state["tour"] as? Bool == true)
        let devices = try #require(state["devices"] as? [String: Any])
        let phone = try #require(devices["phone"] as? [String: Any])
        #expect((phone["navigation"] as? [String: Any])?["kind"] as? String == "tabs")
        #expect(((devices["desktop"] as? [String: Any])?["navigation"] as? [String: Any])?["kind"] as? String == "sidebar")
        let steps = try #require(phone["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["negotiate", "tap-destination", "open-detail", "native-back", "row-menu",
                                                       "open-sheet", "second-sheet", "close-sheet", "fleet-map", "deep-link", "native-alert", "roll-back"])
        // The tour ran in the real app: the sheet and the alert were its own, on a throw-away profile.
        #expect((phone["presentation"] as? [String: Any])?["lastOpen"] as? [String: Any] != nil)
        #expect((phone["auth"] as? [String: Any])?["store"] as? String == "file", "the demo never touches the keyring")
        for step in steps {
            #expect(step["ok"] as? Bool == true, "\(step)")
            let file = try #require(step["screenshot"] as? String)
            let png = try Data(contentsOf: out.appendingPathComponent(file))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file) is a PNG")
        }
        // Each step's picture shows what that step did: no two are the same, on either device.
        for device in ["phone", "desktop"] {
            let files = try #require((devices[device] as? [String: Any])?["steps"] as? [[String: Any]]).compactMap { $0["screenshot"] as? String }
            let pictures = try files.map { try Data(contentsOf: out.appendingPathComponent($0)) }
            for i in pictures.indices { for j in pictures.indices where j > i {
                #expect(pictures[i] != pictures[j], "\(files[i]) and \(files[j]) are the same picture")
            } }
        }
    }
}

@Suite("Profiles: isolated and persistent website data (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"))
struct ProfileTests {
    static func title(_ url: String, profile: URL) throws -> String? {
        let run = try HostShellBinary.run(["probe", url, "--profile", profile.path, "--until-title", "done:", "--timeout", "60"])
        #expect(run.status == 0, "\(run.stderr)")
        guard let line = run.stdout.split(separator: "\n").last,
              let state = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return state["title"] as? String
    }

    @Test("two profiles do not share cookies or localStorage, and a profile's data survives a restart")
    func isolationAndPersistence() throws {
        let server = try ReferenceServer()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-profiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b")
        let page = server.url + "/__test/storage.html"
        #expect(try Self.title(page + "?mode=write&tag=alpha", profile: a) == "done:wrote=alpha;cookie=alpha")
        #expect(try Self.title(page + "?mode=read", profile: b) == "done:cookie=none;local=none", "nothing leaks to another profile")
        // A new process on profile A: its cookie (SQLite) and localStorage are still there.
        #expect(try Self.title(page + "?mode=read", profile: a) == "done:cookie=alpha;local=alpha")
    }
}
