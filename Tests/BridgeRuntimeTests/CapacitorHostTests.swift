import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// The pure rules behind `hostshell capacitor`: the configuration, the app scheme's answers,
/// the window's lifecycle facts, the loading screens, the app origin in the navigation policy.
@Suite("Capacitor host rules")
struct CapacitorHostTests {
    @Test("capacitor.config.json: the keys a shell reads, with defaults")
    func configDecodes() throws {
        let text = """
            {"appId": "com.levneiman.homesec", "appName": "HomeSec", "webDir": "dist", "bundledWebRuntime": false,
             "server": {"hostname": "App.Local", "iosScheme": "Homesec", "allowNavigation": ["*.example.org"], "cleartext": true},
             "plugins": {"PushNotifications": {"presentationOptions": ["badge"]}}, "experimental": {"x": 1}}
            """
        let config = try CapacitorConfig.decode(text).get()
        #expect(config.appId == "com.levneiman.homesec" && config.appName == "HomeSec" && config.webDir == "dist")
        #expect(config.server.hostname == "app.local" && config.server.iosScheme == "homesec" && config.server.cleartext)
        #expect(config.server.allowNavigation == ["*.example.org"] && config.server.url == nil)
        #expect(config.appOrigin == "homesec://app.local")
        #expect(config.plugins["PushNotifications"]?.objectValue?["presentationOptions"] == ["badge"])
        let plain = try CapacitorConfig.decode(#"{"appId": "a.b", "webDir": "www", "server": {"url": "http://192.168.1.5:5173"}}"#).get()
        #expect(plain.appOrigin == "capacitor://localhost" && plain.server.url == "http://192.168.1.5:5173")
    }

    @Test("bad configurations say which key is wrong", arguments: [
        ("[1]", "not a JSON object"), ("{", "not JSON"), (#"{"appId": 7}"#, #""appId" must be a string"#),
        (#"{"appId": "  "}"#, #""appId" is empty"#), (#"{"appId": "com/evil/../x"}"#, "not a bundle id"),
        (#"{"webDir": ["dist"]}"#, #""webDir" must be a string"#), (#"{"server": "x"}"#, #""server" must be an object"#),
        (#"{"server": {"url": "ftp://x"}}"#, #""server.url" must be an http"#), (#"{"server": {"url": "dist"}}"#, #""server.url" must be an http"#),
        (#"{"server": {"iosScheme": "https"}}"#, "iosScheme"), (#"{"server": {"iosScheme": "a b"}}"#, "iosScheme"),
        (#"{"server": {"hostname": "a/b"}}"#, "server.hostname"), (#"{"server": {"cleartext": "yes"}}"#, "server.cleartext"),
        (#"{"server": {"allowNavigation": [1]}}"#, "allowNavigation"), (#"{"plugins": []}"#, #""plugins" must be an object"#),
    ])
    func configRefused(_ input: (String, String)) {
        guard case .failure(let error) = CapacitorConfig.decode(input.0) else { Issue.record("\(input.0) was accepted"); return }
        #expect(error.message.contains(input.1), "\(input.0): \(error.message)")
    }

    @Test("app ids name the profile: checked, or derived from a name")
    func appIds() {
        for good in ["com.example.app", "dev.hostshell.testapp", "a_b-c.d1"] { #expect((try? CapacitorAppId.check(good)) != nil, "\(good)") }
        for bad in ["", ".x", "a..b", "a/b", "a b", "ä.b", String(repeating: "a", count: 300)] {
            #expect((try? CapacitorAppId.check(bad)) == nil, "\(bad)")
        }
        #expect(CapacitorAppId.derived(from: "My App!") == "local.my-app")
        #expect(CapacitorAppId.derived(from: "127.0.0.1") == "local.127-0-0-1")
        #expect(CapacitorAppId.derived(from: "///") == "local.app")
        #expect((try? CapacitorAppId.check(CapacitorAppId.derived(from: "Ünïcode ✓ name"))) != nil)
    }

    @Test("the app scheme serves files of webDir, index.html for client routes, and refuses a way out", arguments: [
        ("/", "index.html", "text/html", true), ("", "index.html", "text/html", true), ("/index.html", "index.html", "text/html", false),
        ("/live/front-door", "index.html", "text/html", true), ("/events/7?from=notification", "index.html", "text/html", true),
        ("/assets/index-4f2a.js", "assets/index-4f2a.js", "text/javascript", false), ("/assets/app.CSS", "assets/app.CSS", "text/css", false),
        ("/logo.svg", "logo.svg", "image/svg+xml", false), ("/a/b.wasm", "a/b.wasm", "application/wasm", false),
        ("/data.bin", "data.bin", "application/octet-stream", false), ("/fonts/x.woff2#f", "fonts/x.woff2", "font/woff2", false),
        ("/a%20b.png", "a b.png", "image/png", false),
    ])
    func assets(_ input: (String, String, String, Bool)) {
        #expect(CapacitorAssets.answer(forRequestPath: input.0) == .file(input.1, mimeType: input.2, fallback: input.3), "\(input.0)")
    }

    @Test("paths that leave webDir are refused", arguments: ["/../etc/passwd", "/a/../../x.js", "/%2e%2e/x.js", "/assets%2F..%2F..%2Fx.json", "/a\\..\\x.js", "/x%00.js", "/./x.js"])
    func escapes(_ path: String) {
        guard case .forbidden = CapacitorAssets.answer(forRequestPath: path) else { Issue.record("\(path) was served"); return }
    }

    @Test("text types say their charset")
    func textTypes() {
        #expect(CapacitorAssets.isText("text/javascript") && CapacitorAssets.isText("application/json") && !CapacitorAssets.isText("image/png"))
    }

    @Test("window facts in iOS's meaning: focus is active, shown is foreground")
    func windowLifecycle() {
        func facts(_ focused: Bool, _ shown: Bool) -> WindowPresence { WindowPresence(focused: focused, shown: shown) }
        #expect(WindowPresence.changes(from: facts(true, true), to: facts(false, true)) == [.blur])
        #expect(WindowPresence.changes(from: facts(false, true), to: facts(true, true)) == [.focus])
        #expect(WindowPresence.changes(from: facts(true, true), to: facts(true, false)) == [.background])
        #expect(WindowPresence.changes(from: facts(false, true), to: facts(false, false)) == [.background])
        #expect(WindowPresence.changes(from: facts(false, false), to: facts(true, true)) == [.foreground])
        #expect(WindowPresence.changes(from: facts(false, false), to: facts(false, true)) == [], "shown without the focus waits for it")
        #expect(WindowPresence.changes(from: facts(true, false), to: facts(false, false)) == [])
        #expect(WindowPresence.changes(from: facts(true, true), to: facts(true, true)) == [])
        // Through the App plugin: the events and their order.
        var plugin = AppPlugin(CapacitorAppInfo(appId: "a.b"))
        var now = facts(true, true)
        var events: [String] = []
        for next in [facts(false, true), facts(false, false), facts(true, true), facts(true, false), facts(false, false), facts(true, true)] {
            for change in WindowPresence.changes(from: now, to: next) {
                for effect in plugin.hostEvent(.lifecycle(change)) ?? [] {
                    if case .emit(let event, let data) = effect { events.append(event + (data["isActive"].map { ":\($0 == true)" } ?? "")) }
                }
            }
            now = next
        }
        #expect(events == ["appStateChange:false", "pause", "resume", "appStateChange:true", "appStateChange:false", "pause", "resume", "appStateChange:true"])
    }

    @Test("ctl lifecycle words: hide and show are background and foreground")
    func lifecycleWords() throws {
        #expect(ControlCommand.LifecycleChange(word: "hide") == .background && ControlCommand.LifecycleChange(word: "show") == .foreground)
        #expect(ControlCommand.LifecycleChange(word: "blur") == .blur && ControlCommand.LifecycleChange(word: "sideways") == nil)
        #expect(try ControlRequest.decode(#"{"command":"lifecycle","change":"hide"}"#).get().command == .lifecycle(.background))
        guard case .failure(let failure) = ControlRequest.decode(#"{"command":"lifecycle","change":"up"}"#) else { Issue.record("accepted"); return }
        #expect(failure.error.message.contains("hide and show"))
    }

    @Test("the loading screen: loading, then the page; an HTTP error or a failed load stays until Retry; crashes reload, then stop")
    func loading() {
        var machine = CapacitorLoading(appName: "HomeSec")
        #expect(machine.screen == .loading("Loading HomeSec…"))
        #expect(machine.reduce(.committed(status: 0, uri: "capacitor://localhost/")).isEmpty)
        _ = machine.reduce(.finished)
        #expect(machine.screen == .page)
        _ = machine.reduce(.committed(status: 502, uri: "http://127.0.0.1:5173/"))
        _ = machine.reduce(.finished)
        #expect(machine.screen.name == "error" && machine.screen.statusJSON.objectValue?["httpStatus"] == 502)
        #expect(machine.reduce(.retry) == [.reload] && machine.screen.name == "loading")
        _ = machine.reduce(.failed(reason: "Could not connect", uri: "http://127.0.0.1:9/"))
        _ = machine.reduce(.finished)
        #expect(machine.screen.statusJSON.objectValue?["kind"] == "loadFailed")
        _ = machine.reduce(.retry)
        _ = machine.reduce(.committed(status: 200, uri: "x"))
        _ = machine.reduce(.finished)
        #expect(machine.reduce(.processEnded(.crashed, at: 0)) == [.reload])
        #expect(machine.reduce(.processEnded(.crashed, at: 1)) == [.reload])
        #expect(machine.reduce(.processEnded(.crashed, at: 2)) == [])
        #expect(machine.screen.statusJSON.objectValue?["kind"] == "keepsCrashing")
        #expect(machine.reduce(.processEnded(.crashed, at: 100)) == [.reload], "a crash long after is reloaded again")
    }

    @Test("a hung web process is ended after the limit and the app loaded again; answering again cancels it")
    func hungProcess() {
        var machine = CapacitorLoading(appName: "HomeSec")
        _ = machine.reduce(.committed(status: 0, uri: "capacitor://localhost/"))
        _ = machine.reduce(.finished)
        #expect(machine.reduce(.processResponsive(false)) == [.timer(.start(.unresponsive, after: LoadingPolicy.unresponsiveLimit))])
        #expect(machine.reduce(.processResponsive(true)) == [.timer(.cancel(.unresponsive))])
        _ = machine.reduce(.processResponsive(false))
        #expect(machine.reduce(.timerFired(.unresponsive)) == [.endWebProcess])
        #expect(machine.reduce(.timerFired(.unresponsive)) == [], "fired once")
        #expect(machine.reduce(.processEnded(.terminatedByHost, at: 0)) == [.reload])
        #expect(machine.screen == .loading("HomeSec stopped responding; loading it again…"))
        _ = machine.reduce(.finished)
        #expect(machine.reduce(.processEnded(.crashed, at: 1)) == [.reload] && machine.screen == .loading("Loading HomeSec again…"), "a crash is a crash")
        _ = machine.reduce(.processResponsive(false))
        _ = machine.reduce(.timerFired(.unresponsive))
        #expect(machine.reduce(.processEnded(.terminatedByHost, at: 2)) == [])
        #expect(machine.screen.statusJSON.objectValue?["kind"] == "keepsCrashing")
        guard case .error(let error) = machine.screen else { Issue.record("no error screen"); return }
        #expect(error.detail.contains("stopped responding"))
    }

    @Test("a kiosk retries an error screen after the backoff's pause; the page resets it")
    func kioskRetry() {
        var machine = CapacitorLoading(appName: "HomeSec", kiosk: true)
        #expect(machine.reduce(.failed(reason: "refused", uri: "http://127.0.0.1:9/")) == [.timer(.start(.kioskRetry, after: 1))])
        #expect(machine.reduce(.timerFired(.kioskRetry)) == [.reload] && machine.screen.name == "loading")
        #expect(machine.reduce(.committed(status: 503, uri: "x")) == [.timer(.start(.kioskRetry, after: 2))])
        #expect(machine.reduce(.timerFired(.kioskRetry)) == [.reload])
        #expect(machine.reduce(.timerFired(.kioskRetry)) == [], "a stale timer does nothing")
        _ = machine.reduce(.committed(status: 200, uri: "x"))
        _ = machine.reduce(.finished)
        #expect(machine.screen == .page && machine.failuresInARow == 0)
        var attended = CapacitorLoading(appName: "HomeSec")
        #expect(attended.reduce(.failed(reason: "refused", uri: "x")) == [], "a person presses Retry")
    }

    @Test("a load that ends without a document reveals nothing; one cut off is made again once, then an error")
    func loadingCutOff() {
        var machine = CapacitorLoading(appName: "HomeSec")
        _ = machine.reduce(.finished)
        #expect(machine.screen.name == "loading", "WebKit ends a refused or replaced load without a document")
        #expect(machine.reduce(.interrupted(uri: "https://127.0.0.1:8443/")) == [.reload])
        _ = machine.reduce(.finished)
        #expect(machine.screen.name == "loading")
        #expect(machine.reduce(.interrupted(uri: "https://127.0.0.1:8443/")).isEmpty)
        #expect(machine.screen.name == "error" && machine.screen.statusJSON.objectValue?["kind"] == "loadFailed")
        #expect(machine.reduce(.interrupted(uri: "x")).isEmpty && machine.screen.name == "error", "an error screen stays")
        #expect(machine.reduce(.retry) == [.reload])
        #expect(machine.reduce(.interrupted(uri: "x")) == [.reload], "Retry gives one more")
        _ = machine.reduce(.committed(status: 200, uri: "x"))
        _ = machine.reduce(.finished)
        #expect(machine.screen == .page)
        #expect(machine.reduce(.interrupted(uri: "x")).isEmpty && machine.screen == .page, "a page shown stays")
        _ = machine.reduce(.start)
        #expect(machine.reduce(.interrupted(uri: "x")) == [.reload], "a new start gives one more")
        _ = machine.reduce(.committed(status: 200, uri: "x"))
        #expect(machine.reduce(.interrupted(uri: "x")) == [.reload], "a document since resets it")
    }

    @Test("an app scheme's origin: its own pages are the app's origin; another scheme or host is not")
    func appOrigin() throws {
        let origin = try #require(Origin(appScheme: "capacitor", host: "localhost"))
        #expect(origin.description == "capacitor://localhost")
        #expect(Origin(appScheme: "https", host: "x") == nil && Origin(appScheme: "1x", host: "x") == nil && Origin(appScheme: "cap", host: "") == nil)
        #expect(Origin(url: "capacitor://localhost/live", appScheme: "capacitor") == origin)
        #expect(Origin(url: "capacitor://LOCALHOST", appScheme: "capacitor") == origin)
        #expect(Origin(url: "capacitor://localhost/live") == nil, "an http(s) origin it is not")
        var guardian = NavigationGuard(NavigationPolicy.Context(serverOrigin: origin, handsOut: true))
        #expect(guardian.decide(.init(stage: .action, url: "capacitor://localhost/live/1")).action == .load)
        #expect(guardian.decide(.init(stage: .response(mainFrame: true), url: "capacitor://localhost/live/1")).action == .load)
        #expect(guardian.decide(.init(stage: .response(mainFrame: true), url: "capacitor://evil/x")).action == .refuse)
        #expect(guardian.decide(.init(stage: .action, url: "other://localhost/x")).action == .refuse)
        #expect(guardian.decide(.init(stage: .response(mainFrame: true), url: "http://localhost/x")).action == .refuse)
        #expect(guardian.decide(.init(stage: .response(mainFrame: false), url: "http://127.0.0.1:8000/frame.html")).action == .load)
        // A web origin's policy is unchanged: an app-scheme address is nothing it opens.
        let web = NavigationGuard(NavigationPolicy.Context(serverOrigin: Origin(url: "https://studio.example")!, handsOut: true))
        var copy = web
        #expect(copy.decide(.init(stage: .action, url: "capacitor://localhost/")).action == .refuse)
    }

    @Test("log records: redacted, marked as Capacitor's")
    func log() throws {
        let result = CapacitorResult(callbackId: "5", pluginId: "HomeSecAuth", methodName: "getApiToken", outcome: .success(["token": "s3cret"]))
        let line = CapacitorLog.inbound(at: 1, text: #"{"type":"message","options":{"password":"pw"}}"#, results: [result], latencyMicroseconds: 12.34)
        #expect(line.contains(#""contract":"capacitor""#) && line.contains(#""dir":"page-to-host""#) && line.contains(#""latencyUs":12.3"#))
        #expect(!line.contains("s3cret") && !line.contains(#""pw""#))
        let console = CapacitorLog.console(at: 1, level: "warn", message: "hi")
        #expect(try JSONParser.parse(console).objectValue?["level"] == "warn")
    }

    @Test("log records: HomeSecAuth's API token, sent and read back under `value`, is never written; its server address is")
    func logHidesAPIToken() throws {
        let set = #"{"type":"message","callbackId":"7","pluginId":"HomeSecAuth","methodName":"setApiToken","options":{"value":"hsk_live_Zq81"}}"#
        let got = CapacitorResult(callbackId: "8", pluginId: "HomeSecAuth", methodName: "getApiToken", outcome: .success(["value": "hsk_live_Zq81"]))
        let secrets = CapacitorSecrets(plugins: HomeSecPluginTypes.all)
        let lines = [CapacitorLog.inbound(at: 1, text: set, results: [got], latencyMicroseconds: 1, secrets: secrets),
                     CapacitorLog.outbound(at: 2, result: got, secrets: secrets)]
        for line in lines {
            #expect(!line.contains("hsk_live_Zq81"), "\(line)")
            #expect(line.contains(BridgeLog.redacted))
        }
        let none = CapacitorResult(callbackId: "9", pluginId: "HomeSecAuth", methodName: "getApiToken", outcome: .success(["value": .null]))
        #expect(CapacitorLog.outbound(at: 3, result: none, secrets: secrets).contains(#""value":null"#), "no token is said as no token")
        let url = CapacitorResult(callbackId: "10", pluginId: "HomeSecAuth", methodName: "getServerBaseUrl", outcome: .success(["value": "http://127.0.0.1:8000"]))
        #expect(CapacitorLog.outbound(at: 4, result: url).contains("127.0.0.1:8000"), "the address is no secret")
    }
}
