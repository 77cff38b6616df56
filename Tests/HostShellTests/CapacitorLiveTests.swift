import Foundation
import Testing

/// Issue 13 items 1–3 in the real app: `hostshell capacitor` serves a Capacitor app's bundle
/// from `capacitor://localhost`, the runtime makes the page's own `@capacitor/core`-style code
/// report `ios` and talk to the plugins, and the App plugin follows the lifecycle and links.
/// The app is `fixtures/capacitor/test-app`, written for these tests.
@Suite("Capacitor apps: served, the runtime pinned to the main frame, the App plugin (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct CapacitorLiveTests {
    static let project = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/test-app").path

    /// Runs `script` (a statement) and then waits until `value` (an expression) is neither null nor false.
    static func run(_ app: RunningApp, _ script: String, until value: String) throws -> Any? {
        let ran = try app.ctl("eval", script + "; true")
        #expect(ran.status == 0, "\(script): \(ran.error)")
        return try app.evalWhen(value)
    }

    @Test("boots as ios before any app script; calls round trip; unknown plugins and methods are UNIMPLEMENTED; listeners follow ctl lifecycle; links arrive as appUrlOpen")
    func runtimeAndAppPlugin() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval", "--link-scheme", "hstest"], command: "capacitor")
        defer { app.stop() }
        let state = try app.state("screen=page", "capacitor.listeners.3.event=appUrlOpen", timeout: 60)
        let appState = try #require(state["app"] as? [String: Any])
        #expect(appState["id"] as? String == "dev.hostshell.testapp")
        #expect((appState["dataDirectory"] as? String)?.hasSuffix("data/hostshell/apps/dev.hostshell.testapp") == true, "its own profile, apart from servers/")
        #expect(state["url"] as? String == "capacitor://localhost/")
        #expect(try app.evalWhen("window.__platformAtLoad") as? String == "ios", "the bridge handler is there before the first app script")
        #expect(try app.evalWhen("window.__test.platform") as? String == "ios")
        #expect(try app.evalWhen("location.origin === 'capacitor://localhost' && window.WEBVIEW_SERVER_URL") as? String == "capacitor://localhost")
        let headers = try #require(try app.evalWhen("JSON.stringify(Capacitor.PluginHeaders.find((h) => h.name === 'App'))") as? String)
        #expect(headers.contains(#"{"name":"addListener"}"#) && headers.contains(#"{"name":"getState","rtype":"promise"}"#), "\(headers)")

        // Other apps' windows on a shared display take the focus: from here on ctl drives the
        // lifecycle (the window's own facts are no longer followed), starting active.
        #expect(try app.ctl("lifecycle", "focus").status == 0)
        _ = try app.state("capacitor.lifecycleSource=control", "capacitor.plugins.App.lifecycle=active")
        #expect(try app.ctl("eval", "window.__test.events.length = 0; true").status == 0)

        // A promise call's round trip, and string callback ids.
        let answer = try Self.run(app, "window.__r = undefined; window.__test.App.getState().then((r) => { window.__r = r; })", until: "window.__r")
        #expect((answer as? [String: Any])?["isActive"] as? Bool == true)
        let id = try app.ctl("eval", "Capacitor.nativeCallback('App', 'getState', {}, () => {})").result
        #expect(id is String && Int(id as! String) != nil, "a callback id is a string of digits: \(String(describing: id))")

        // Unknown plugin, unknown method: UNIMPLEMENTED, worded as registerPlugin words it.
        let unknown = try Self.run(app, "window.__e = undefined; Capacitor.nativePromise('Nope', 'go', {}).catch((e) => { window.__e = e.code + '|' + e.message + '|' + (e instanceof Error); })", until: "window.__e")
        #expect(unknown as? String == #"UNIMPLEMENTED|"Nope" plugin is not implemented on ios|true"#)
        let method = try Self.run(app, "window.__m = undefined; Capacitor.nativePromise('App', 'fly', {}).catch((e) => { window.__m = e.code; })", until: "window.__m")
        #expect(method as? String == "UNIMPLEMENTED")

        // Lifecycle in iOS's order: blur → inactive only; hide → pause; show → resume, then active.
        #expect(try app.ctl("lifecycle", "blur").status == 0)
        #expect(try app.evalWhen("window.__test.events.length >= 1 && window.__test.events.join()") as? String == "appStateChange:false")
        #expect(try app.ctl("lifecycle", "hide").status == 0)
        #expect(try app.evalWhen("window.__test.events.length >= 2 && window.__test.events.join()") as? String == "appStateChange:false,pause")
        let hidden = try Self.run(app, "window.__s = undefined; window.__test.App.getState().then((r) => { window.__s = JSON.stringify(r); })", until: "window.__s")
        #expect(hidden as? String == #"{"isActive":false}"#)
        #expect(try app.ctl("lifecycle", "show").status == 0)
        #expect(try app.evalWhen("window.__test.events.length >= 4 && window.__test.events.join()") as? String
                == "appStateChange:false,pause,resume,appStateChange:true")
        _ = try app.state("capacitor.plugins.App.lifecycle=active", "capacitor.lifecycleSource=control")
        #expect(try app.ctl("lifecycle", "sideways").status != 0, "an unknown change is refused")

        // A link from the desktop reaches the running app; so does ctl open-url.
        let desktop = try HostShellBinary.run(["open-url", "hstest://live/front-door?x=1"], environment: home.environment)
        #expect(desktop.status == 0, "\(desktop.stderr)")
        #expect(try app.evalWhen("window.__test.events.find((e) => e.startsWith('appUrlOpen:'))") as? String == "appUrlOpen:hstest://live/front-door?x=1")
        #expect(try app.ctl("open-url", "hstest://events/7").status == 0)
        #expect(try app.evalWhen("window.__test.events.filter((e) => e.startsWith('appUrlOpen:')).length === 2") as? Bool == true)
        let launch = try Self.run(app, "window.__l = undefined; window.__test.App.getLaunchUrl().then((r) => { window.__l = r.url; })", until: "window.__l")
        #expect(launch as? String == "hstest://events/7", "getLaunchUrl answers the last link")
        let other = try HostShellBinary.run(["open-url", "nobody-runs-this://x"], environment: home.environment)
        #expect(other.status == 1 && other.stderr.contains("no Capacitor app"), "\(other.stderr)")

        // A removed listener gets nothing more.
        _ = try Self.run(app, "window.__n = 0; window.__test.App.addListener('resume', () => { window.__n++; }).then((h) => { window.__h = h; })", until: "!!window.__h")
        _ = try Self.run(app, "window.__h.remove()", until: "true")
        _ = try app.state("capacitor.listeners.4.event=pushNotificationActionPerformed", "capacitor.listeners.5=null")
        #expect(try app.ctl("lifecycle", "hide").status == 0)
        #expect(try app.ctl("lifecycle", "show").status == 0)
        #expect(try app.evalWhen("window.__test.events.length >= 10 && 'removed listener called ' + window.__n") as? String == "removed listener called 0")
    }

    @Test("a link that starts the app is its launch URL; appUrlOpen waits for the first listener")
    func launchURL() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval", "--open-url", "hstest://cold/start"], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page", "capacitor.listeners.3.event=appUrlOpen", timeout: 60)
        #expect(try app.evalWhen("window.__test.launchUrl") as? String == "hstest://cold/start")
        #expect(try app.evalWhen("!window.__test.events.some((e) => e.startsWith('appUrlOpen:'))") as? Bool == true, "a cold start's link is not also an event")
        // Retained: a link with no listener yet is kept for the first one.
        _ = try Self.run(app, "Capacitor.nativePromise('App', 'removeAllListeners', {}).then(() => { window.__cleared = true; })", until: "window.__cleared")
        #expect(try app.ctl("open-url", "hstest://warm/one").status == 0)
        _ = try app.state("capacitor.retained.0.event=appUrlOpen")
        _ = try Self.run(app, "window.__late = []; window.__test.App.addListener('appUrlOpen', (e) => window.__late.push(e.url))", until: "true")
        #expect(try app.evalWhen("window.__late.length === 1 && window.__late[0]") as? String == "hstest://warm/one")
        _ = try app.state("capacitor.retained=[]")
    }

    @Test("client routing falls back to index.html; files keep their types; nothing outside webDir is served")
    func serving() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval"], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page", timeout: 60)
        // A route with no file extension is the app itself, and the runtime is there again.
        #expect(try app.ctl("eval", "location.href = 'capacitor://localhost/live/front-door'; true").status == 0)
        #expect(try app.evalWhen("location.pathname === '/live/front-door' && window.__test && window.__test.route") as? String == "/live/front-door")
        #expect(try app.evalWhen("window.__test.platform") as? String == "ios")
        _ = try app.state("app.scheme.fallbacks=2", "capacitor.document=2")
        let types = try Self.run(app, """
            window.__t = undefined; Promise.all(['/assets/app.js', '/assets/app.css', '/index.html', '/assets/missing.js', '/../capacitor.config.json', '/assets%2F..%2F..%2Fcapacitor.config.json'].map((p) => fetch(p).then((r) => r.status + ' ' + (r.headers.get('content-type') || '')))).then((a) => { window.__t = a.join('|'); })
            """, until: "window.__t")
        let parts = (types as? String ?? "").split(separator: "|").map(String.init)
        #expect(parts.count == 6, "\(String(describing: types))")
        if parts.count == 6 {
            #expect(parts[0] == "200 text/javascript; charset=utf-8")
            #expect(parts[1] == "200 text/css; charset=utf-8")
            #expect(parts[2] == "200 text/html; charset=utf-8")
            #expect(parts[3].hasPrefix("404"))
            // `/../x` is resolved by the URL parser to `/x` (not there); `..` behind encoded slashes is refused.
            #expect(parts[4].hasPrefix("404") || parts[4].hasPrefix("403"), "\(parts[4])")
            #expect(parts[5].hasPrefix("403"), "\(parts[5])")
        }
    }

    @Test("convertFileSrc URLs: the app's own files are served, whole or a range; its profile, the user's files and links out of them are refused")
    func localFiles() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval"], command: "capacitor")
        defer { app.stop() }
        let state = try app.state("screen=page", timeout: 60)
        let data = try #require((state["app"] as? [String: Any])?["dataDirectory"] as? String)
        let files = URL(fileURLWithPath: data).appendingPathComponent("files")
        #expect(FileManager.default.fileExists(atPath: files.path), "the app's files directory is made at start")
        let note = files.appendingPathComponent("note.txt").path
        try "hello, local file".write(toFile: note, atomically: true, encoding: .utf8)
        let record = URL(fileURLWithPath: data).appendingPathComponent("private.txt").path
        try "a record of the host".write(toFile: record, atomically: true, encoding: .utf8)
        let users = home.root.appendingPathComponent("user-file.txt").path
        try "the user's own".write(toFile: users, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: files.appendingPathComponent("link.txt").path, withDestinationPath: users)
        let asks: [(String, String?)] = [(note, nil), (note, "bytes=7-10"), ("file://" + note, nil), (note, "bytes=100-"),
                                         (files.appendingPathComponent("missing.txt").path, nil), (record, nil), (users, nil),
                                         (files.appendingPathComponent("link.txt").path, nil)]
        let list = "[" + asks.map { "[\(Self.literal($0.0)), \($0.1.map(Self.literal) ?? "null")]" }.joined(separator: ",") + "]"
        let answers = try Self.run(app, """
            window.__lf = undefined; window.__get = (path, range) => fetch(Capacitor.convertFileSrc(path), range ? { headers: { Range: range } } : {}).then(async (r) => [r.status, r.headers.get('content-type'), r.headers.get('content-range'), await r.text()].join(' | ')); Promise.all(\(list).map(([p, r]) => window.__get(p, r))).then((a) => { window.__lf = JSON.stringify(a); }, (e) => { window.__lf = 'failed ' + e; })
            """, until: "window.__lf")
        let got = try #require(try JSONSerialization.jsonObject(with: Data((answers as? String ?? "").utf8)) as? [String], "\(String(describing: answers))")
        try #require(got.count == asks.count, "\(got)")
        #expect(got[0] == "200 | text/plain; charset=utf-8 |  | hello, local file")
        #expect(got[1] == "206 | text/plain; charset=utf-8 | bytes 7-10/17 | loca")
        #expect(got[2] == got[0], "a file:// URL is converted too")
        #expect(got[3].hasPrefix("416 ") && got[3].contains("bytes */17"), "\(got[3])")
        #expect(got[4].hasPrefix("404 ") && got[4].contains("No file at"), "\(got[4])")
        for refused in got[5...] {
            #expect(refused.hasPrefix("403 ") && refused.contains("outside the files this app may read"), "\(refused)")
            #expect(!refused.contains("a record of the host") && !refused.contains("the user's own"))
        }
        let after = try app.state("app.scheme.localFiles=8")
        let refusals = (((after["app"] as? [String: Any])?["scheme"] as? [String: Any])?["refused"] as? [String]) ?? []
        #expect(refusals.filter { $0.contains("/_capacitor_file_/") }.count == 3, "\(refusals)")
    }

    @Test("frames get no runtime, whatever their origin; cross-origin fetch to a loopback server works; console output is in the events and state")
    func framesFetchAndConsole() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let web = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/test-app/www").path
        let server = try HomeSecProcess(["--web-dir", web])
        defer { server.stop() }
        let app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval"], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page", timeout: 60)
        for src in ["capacitor://localhost/frame.html", server.url + "/frame.html"] {
            #expect(try app.ctl("eval", "window.__test.frames = []; document.getElementById('frame').src = \(Self.literal(src)); true").status == 0)
            let report = try app.evalWhen("window.__test.frames.length > 0 && JSON.stringify(window.__test.frames[0])") as? String ?? ""
            #expect(report.contains(#""capacitor":"undefined""#) && report.contains(#""bridge":false"#), "\(src): \(report)")
        }
        let health = try Self.run(app, "window.__f = undefined; fetch(\(Self.literal(server.url + "/api/v1/health"))).then((r) => r.json()).then((j) => { window.__f = 'ok ' + JSON.stringify(j); }, (e) => { window.__f = 'failed ' + e; })", until: "window.__f")
        #expect((health as? String)?.hasPrefix("ok ") == true, "\(String(describing: health))")

        // Other bridge traffic (the app's own plugin calls) may come first: read until the console line.
        let reader = try ObservabilityTests.EventReader(app, ["--kind", "bridge", "--timeout", "30"])
        #expect(try app.ctl("eval", "console.warn('hello from', {page: 1}); true").status == 0)
        let event = reader.events { $0["dir"] as? String == "console" }.last
        #expect(event?["contract"] as? String == "capacitor" && event?["dir"] as? String == "console", "\(String(describing: event))")
        #expect(event?["level"] as? String == "warn" && event?["message"] as? String == #"hello from {"page":1}"#)
        _ = try app.state(#"capacitor.console.1.message=hello from {"page":1}"#)
    }

    @Test("bad projects and flags are refused with what to do; --help lists every flag; --check reports the page")
    func commandLine() throws {
        let help = try HostShellBinary.run(["capacitor", "--help"])
        #expect(help.status == 0)
        for flag in ["--web-dir", "--url", "--app-id", "--app-name", "--link-scheme", "--open-url", "--apns-environment", "--device",
                     "--inspector", "--control", "--allow-eval", "--bridge-log", "--automation", "--check", "--timeout",
                     "--kiosk", "--chrome", "--cursor-timeout"] {
            #expect(help.stdout.contains(flag), "--help lists \(flag)")
        }
        #expect(try HostShellBinary.run(["help"]).stdout.contains("capacitor [PROJECT-DIR]"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try HostShellBinary.run(["capacitor", empty.path])
        #expect(none.status == 2 && none.stderr.contains("no Capacitor configuration") && none.stderr.contains("--web-dir"), "\(none.stderr)")
        try #"{"appId": 7}"#.write(to: empty.appendingPathComponent("capacitor.config.json"), atomically: true, encoding: .utf8)
        let bad = try HostShellBinary.run(["capacitor", empty.path])
        #expect(bad.status == 2 && bad.stderr.contains(#""appId" must be a string"#), "\(bad.stderr)")
        try #"{"appId": "a.b", "webDir": "dist"}"#.write(to: empty.appendingPathComponent("capacitor.config.json"), atomically: true, encoding: .utf8)
        let noDir = try HostShellBinary.run(["capacitor", empty.path, "--check"])
        #expect(noDir.status == 2 && noDir.stderr.contains("cannot be used"), "\(noDir.stderr)")
        for (arguments, message) in [(["--url", "ftp://x"], "--url takes"), (["--apns-environment", "moon"], "--apns-environment takes"),
                                     (["--app-id", "../x"], "not a bundle id"), (["--frobnicate"], "\"--frobnicate\"")] {
            let run = try HostShellBinary.run(["capacitor", Self.project] + arguments)
            #expect(run.status == 2 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let home = TemporaryHome()
        defer { home.remove() }
        // A project with only capacitor.config.ts (plain data) is read without running it.
        try FileManager.default.removeItem(at: empty.appendingPathComponent("capacitor.config.json"))
        let web = Self.project + "/www"
        try "import type { CapacitorConfig } from '@capacitor/cli';\nconst config: CapacitorConfig = {\n  appId: 'dev.hostshell.tsapp', // ts\n  appName: 'TS App',\n  webDir: \(Self.literal(web)),\n};\nexport default config;\n"
            .write(to: empty.appendingPathComponent("capacitor.config.ts"), atomically: true, encoding: .utf8)
        let fromTS = try HostShellBinary.run(["capacitor", empty.path, "--check"], environment: home.environment)
        #expect(fromTS.status == 0 && fromTS.stderr.contains("capacitor.config.ts"), "\(fromTS.stderr)")
        #expect(fromTS.lastLine.contains(#""id":"dev.hostshell.tsapp""#))
        let check = try HostShellBinary.run(["capacitor", Self.project, "--check"], environment: home.environment)
        #expect(check.status == 0, "\(check.stderr)")
        let state = try #require(try JSONSerialization.jsonObject(with: Data(check.lastLine.utf8)) as? [String: Any])
        #expect(state["screen"] as? String == "page")
        #expect(((state["capacitor"] as? [String: Any])?["plugins"] as? [String: Any])?["App"] != nil)
    }

    static func literal(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }
}
