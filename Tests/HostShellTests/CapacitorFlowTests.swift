import Foundation
import Testing

/// The reference Capacitor app (`fixtures/capacitor/homesec-reference`) in `hostshell capacitor`,
/// on its own throw-away home and its own app id (the session's keyring is shared by every test),
/// with a control socket; booted (its runtime answered and its state is readable) before use.
final class ReferenceCapacitorApp {
    static let project = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/homesec-reference").path

    let home: TemporaryHome
    let appId: String
    let store: String
    let app: RunningApp

    init(store: String = "file", home: TemporaryHome = TemporaryHome(), appId: String? = nil, extra: [String] = []) throws {
        self.home = home
        self.store = store
        self.appId = appId ?? "com.example.homesec.t" + UUID().uuidString.prefix(8).lowercased()
        app = try RunningApp(home: home, arguments: [Self.project, "--allow-eval", "--credential-store", store, "--app-id", self.appId,
                                                       "--link-scheme", "homesec"] + extra,
                             command: "capacitor")
        _ = try page("window.referenceApp && referenceApp.state.booted")
    }

    /// A page expression, polled until it is neither null nor false (see `RunningApp.evalWhen`).
    @discardableResult
    func page(_ expression: String, timeout: Double = 30) throws -> Any? { try app.evalWhen(expression, timeout: timeout) }

    /// The page's state as JSON.
    func state() throws -> [String: Any] {
        try #require(try app.ctl("eval", "JSON.parse(JSON.stringify(referenceApp.state))").result as? [String: Any])
    }

    /// Types the URL and token into native setup and presses Connect.
    func submitSetup(url: String, token: String = "") throws {
        try page("!!document.getElementById('setup-form') && referenceApp.state.setup.status !== 'probing'")
        let script = """
            (() => { const form = document.getElementById('setup-form');
                     form.url.value = \(Self.literal(url)); form.token.value = \(Self.literal(token));
                     form.requestSubmit(); return true; })()
            """
        #expect(try app.ctl("eval", script).status == 0)
    }

    /// Runs an expression whose value is a promise (`referenceApp.run`), and returns its outcome:
    /// {ok: true, value} or {ok: false, message, code}.
    func run(_ expression: String) throws -> [String: Any] {
        let name = "r" + UUID().uuidString.prefix(8)
        #expect(try app.ctl("eval", "referenceApp.run('\(name)', () => \(expression))").status == 0)
        _ = try page("referenceApp.state.results['\(name)'] && !referenceApp.state.results['\(name)'].pending")
        return try #require(try app.ctl("eval", "referenceApp.state.results['\(name)']").result as? [String: Any])
    }

    static func literal(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }

    func stop() { app.stop() }

    func finish() {
        app.stop()
        home.remove()
    }
}

@Suite("Capacitor flows: the reference app in hostshell capacitor against serve --homesec (real WebKit, real stores)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct CapacitorFlowTests {
    static let key = "flow-test-key"
    static let plainHTTPRefused = "Plain HTTP is only supported for local network HomeSec servers. Use HTTPS for public hosts."
    static let tokenRejected = "API token was rejected. Paste the HomeSec API token and try again."

    /// The file store always; the Secret Service where scripts/with-keyring started one.
    static var stores: [String] {
        ProcessInfo.processInfo.environment["GNOME_KEYRING_CONTROL"] != nil ? ["file", "secret-service"] : ["file"]
    }

    @Test("auth on: native setup refuses plain http to a public host and a wrong token, keeps the right one per URL, registers the device in the server's registry, and boots set up next time",
          arguments: Self.stores)
    func setupAuthOn(store: String) throws {
        let server = try HomeSecProcess(["--auth", "on", "--token", Self.key])
        defer { server.stop() }
        let reference = try ReferenceCapacitorApp(store: store)
        defer { reference.finish() }
        try reference.page("location.pathname === '/native-setup'")
        var state = try reference.state()
        #expect(state["platform"] as? String == "ios", "the shell's bridge handler makes the page's core report ios")
        let calls = try #require(state["calls"] as? [String])
        #expect(Set(calls.prefix(3)) == ["HomeSecAuth.getServerBaseUrl", "HomeSecAuth.getApiToken", "HomeSecAuth.getAuthDisabledReady"],
                "the three getters come first: \(calls)")

        try reference.submitSetup(url: "http://homesec.example.com:8081")
        try reference.page("referenceApp.state.setup.error === \(ReferenceCapacitorApp.literal(Self.plainHTTPRefused))")

        try reference.submitSetup(url: " \(server.url)/ ", token: "wrong")
        try reference.page("referenceApp.state.setup.error === \(ReferenceCapacitorApp.literal(Self.tokenRejected))")
        state = try reference.state()
        let setup = try #require(state["setup"] as? [String: Any])
        #expect(setup["authRequired"] as? Bool == true)
        #expect((setup["probes"] as? [String: Any])?["health"] as? String == "done")

        try reference.submitSetup(url: " \(server.url)/ ", token: Self.key)
        try reference.page("location.pathname === '/live' && referenceApp.state.live.running && referenceApp.state.live.cameras.length === 3")
        let session = try #require(try reference.state()["session"] as? [String: Any])
        #expect(session["serverBaseUrl"] as? String == server.url, "stored normalised (trimmed, no trailing slash)")
        #expect(session["hasToken"] as? Bool == true && session["authDisabledReady"] as? Bool == false)

        // Push registration: the permission question, answered headless; listeners, register(), the token, the registry.
        try reference.page("referenceApp.state.registration.status === 'asking'")
        _ = try reference.app.state("capacitor.plugins.PushNotifications.waitingForPermission=1")  // the question is open natively
        #expect(try reference.app.ctl("permission", "grant").status == 0)
        try reference.page("referenceApp.state.registration.status === 'registered'")
        let registration = try #require(try reference.state()["registration"] as? [String: Any])
        let token = try #require(registration["token"] as? String)
        #expect(token.count == 64 && token.allSatisfy { "0123456789ABCDEF".contains($0) }, "32 bytes, upper-case hex: \(token)")
        let log = try server.log()
        let body = try #require((log["registrations"] as? [[String: Any]])?.last)
        #expect(body["platform"] as? String == "ios" && body["apns_token"] as? String == token)
        #expect(body["environment"] as? String == "sandbox" && body["bundle_id"] as? String == reference.appId)
        #expect(body["capabilities"] as? [String: Bool] == ["deep_links": true, "rich_notifications": false])
        let devices = try #require(log["devices"] as? [[String: Any]])
        let device = try #require(devices.first { $0["id"] as? String == (registration["device"] as? [String: Any])?["id"] as? String },
                                  "the page's device is in the server's registry: \(devices)")
        #expect(device["enabled"] as? Bool == true && device["bundle_id"] as? String == reference.appId)
        let requests = try #require(log["requests"] as? [[String: Any]])
        let posted = try #require(requests.last { $0["method"] as? String == "POST" })
        #expect(posted["authorization"] as? String == "Bearer \(Self.key)" && posted["origin"] as? String == "capacitor://localhost")
        #expect(requests.first { $0["path"] as? String == "/api/v1/health" }?["authorization"] is NSNull, "health is probed without auth")

        // The native side: entry names in ctl state (never values), the value in the chosen store only.
        let native = try #require(try reference.app.ctl("state").result as? [String: Any])
        let auth = try #require(((native["capacitor"] as? [String: Any])?["plugins"] as? [String: Any])?["HomeSecAuth"] as? [String: Any])
        #expect(auth["store"] as? String == store)
        let entries = String(describing: auth["entries"] ?? "")
        #expect(entries.contains("api-token:\(server.url)") && !entries.contains(Self.key), "names, never values: \(entries)")
        let file = reference.home.root.appendingPathComponent("data/hostshell/apps/\(reference.appId)/homesec-secrets.json")
        let inKeyring = store == "secret-service"
            ? try Shell.run("/usr/bin/secret-tool", ["lookup", "service", "homesec", "app", reference.appId, "account", "api-token:\(server.url)"]) : ""
        if store == "secret-service" {
            #expect(inKeyring == Self.key, "the token is in the Secret Service (service homesec, the app, the account)")
            #expect(!FileManager.default.fileExists(atPath: file.path), "and not in a file")
        } else {
            let stored = try String(contentsOf: file, encoding: .utf8)
            #expect(stored.contains("api-token:\(server.url)") && stored.contains(Self.key))
            #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600, "owner-only")
        }

        // The next start finds the session in the store and opens the app, not setup.
        reference.stop()
        let again = try ReferenceCapacitorApp(store: store, home: reference.home, appId: reference.appId)
        defer { again.stop() }
        try again.page("location.pathname === '/live' && referenceApp.state.session.ready && referenceApp.state.live.running")
        #expect((try again.state()["session"] as? [String: Any])?["serverBaseUrl"] as? String == server.url)
        if store == "secret-service" { _ = try? Shell.run("/usr/bin/secret-tool", ["clear", "service", "homesec", "app", reference.appId]) }
    }

    @Test("auth off (and a stopped pipeline, which is still reachable): setup clears the token and marks the URL ready; a server that is not HomeSec is refused; then the storage rules and their exact rejections")
    func setupAuthOffAndStorage() throws {
        let server = try HomeSecProcess(["--unhealthy"])
        let other = try HomeSecProcess(["--auth", "on", "--token", Self.key, "--fail", "/api/v1/health=502"])
        defer { server.stop(); other.stop() }
        let reference = try ReferenceCapacitorApp()
        defer { reference.finish() }
        try reference.submitSetup(url: other.url)
        try reference.page("referenceApp.state.setup.error === \(ReferenceCapacitorApp.literal("\(other.url) did not answer like a HomeSec server (HTTP 502)."))")
        try reference.submitSetup(url: server.url, token: "ignored")
        try reference.page("location.pathname === '/live' && referenceApp.state.session.ready")
        let state = try reference.state()
        #expect((state["setup"] as? [String: Any])?["authRequired"] as? Bool == false)
        #expect((state["setup"] as? [String: Any])?["health"] as? String == "unhealthy", "503 with HomeSec's body is reachable")
        let session = try #require(state["session"] as? [String: Any])
        #expect(session["serverBaseUrl"] as? String == server.url && session["hasToken"] as? Bool == false)
        #expect(session["authDisabledReady"] as? Bool == true && session["ready"] as? Bool == true)
        let calls = try #require(state["calls"] as? [String])
        #expect(calls.contains("HomeSecAuth.clearApiToken") && calls.contains("HomeSecAuth.setAuthDisabledReady"))

        // The storage rules, called in order in the page as HomeSec's UI calls them (one round of
        // control requests for all of them): each call's outcome, {ok, value} or {ok: false, message, code}.
        let steps = [
            "A.setApiToken({})",
            "A.setServerBaseUrl({value: 'ftp://nas'})",
            "A.setServerBaseUrl({value: ' HTTP://127.0.0.1:9/base/?q=1#f '})",
            "A.getServerBaseUrl()",
            "A.setApiToken({value: 'abc'})",
            "A.setServerBaseUrl({value: \(ReferenceCapacitorApp.literal(other.url))})",
            "A.getApiToken()",
            "A.getAuthDisabledReady()",
            "A.clearServerBaseUrl()",
            "A.setApiToken({value: 'abc'})",
            "A.setAuthDisabledReady({value: true})",
            "A.getApiToken()",
            "CapacitorCore.registerPlugin('NoSuchPlugin').go({})",
            "referenceApp.plugins.App.noSuchMethod({})",
        ]
        let script = "(async () => { const A = referenceApp.plugins.HomeSecAuth; const out = [];\n"
            + steps.map { "try { out.push({ok: true, value: await \($0)}); } catch (e) { out.push({ok: false, message: e.message, code: e.code}); }\n" }.joined()
            + "return out; })()"
        let outcome = try reference.run(script)
        let results = try #require(outcome["value"] as? [[String: Any]], "\(outcome)")
        try #require(results.count == steps.count)
        let code = "HOMESEC_AUTH_STORAGE_ERROR"
        func rejected(_ index: Int, _ message: String, code: String = code) {
            let result = results[index]
            #expect(result["ok"] as? Bool == false && result["message"] as? String == message && result["code"] as? String == code,
                    "\(steps[index]): \(result)")
        }
        func value(_ index: Int) -> Any? { (results[index]["value"] as? [String: Any])?["value"] }
        rejected(0, "value is required.")
        rejected(1, "Invalid HomeSec server URL: ftp://nas")
        // Normalised on the way in: scheme lower-cased, query and fragment dropped, trailing slash stripped.
        #expect(results[2]["ok"] as? Bool == true && value(3) as? String == "http://127.0.0.1:9/base", "\(results[3])")
        // A token and readiness belong to their URL: a different URL drops them.
        #expect(results[4]["ok"] as? Bool == true && results[5]["ok"] as? Bool == true)
        #expect(value(6) is NSNull, "the old URL's token is gone: \(results[6])")
        #expect(value(7) as? Bool == false)
        // No URL: nothing can be stored for one.
        #expect(results[8]["ok"] as? Bool == true)
        rejected(9, "Set the HomeSec server URL before storing an API token.")
        rejected(10, "Set the HomeSec server URL before storing an API token.")
        #expect(value(11) is NSNull)
        // A plugin the shell does not have, and a method a plugin does not have.
        rejected(12, "\"NoSuchPlugin\" plugin is not implemented on ios", code: "UNIMPLEMENTED")
        #expect(results[13]["code"] as? String == "UNIMPLEMENTED", "\(results[13])")
    }

    @Test("lifecycle in iOS's order (focus only toggles polling; background pauses the live view; resume restarts it) and homesec:// links, warm and cold")
    func lifecycleAndLinks() throws {
        let server = try HomeSecProcess()
        defer { server.stop() }
        let reference = try ReferenceCapacitorApp(extra: ["--open-url", "homesec://events//7?from=cold"])
        defer { reference.finish() }
        // Cold start: the launch URL is kept while setup runs, then opened.
        try reference.page("location.pathname === '/native-setup'")
        #expect((try reference.state()["links"] as? [[String: Any]])?.first?["via"] as? String == "launch")
        try reference.submitSetup(url: server.url)
        try reference.page("location.pathname === '/events/7' && location.search === '?from=cold'")
        // Set up, the app asks for notifications: the dialog is a system surface, the app is
        // inactive until it is answered (issue 28 item 1).
        try reference.page("referenceApp.state.registration.status === 'asking'")
        _ = try reference.app.state("permissions.pending.asker=app", "capacitor.plugins.App.lifecycle=inactive")
        #expect(try reference.app.ctl("permission", "deny").status == 0)
        try reference.page("referenceApp.state.registration.status === 'denied'")

        #expect(try reference.app.ctl("open-url", "homesec://live").status == 0)
        try reference.page("location.pathname === '/live' && referenceApp.state.live.running")
        let app = reference.app
        // From a known start (the suites share one display, so focus may be anywhere): active.
        #expect(try app.ctl("lifecycle", "focus").status == 0)
        try reference.page("referenceApp.state.active === true")
        let start = try #require((try reference.state()["lifecycle"] as? [String])?.count)
        func since(_ offset: Int) -> String { "referenceApp.state.lifecycle.slice(\(start + offset)).join()" }
        #expect(try app.ctl("lifecycle", "blur").status == 0)
        try reference.page("\(since(0)) === 'appStateChange:false' && !referenceApp.state.polling")
        #expect((try reference.state()["live"] as? [String: Any])?["running"] as? Bool == true, "losing focus does not stop the live view")
        #expect(try app.ctl("lifecycle", "focus").status == 0)
        try reference.page("\(since(0)) === 'appStateChange:false,appStateChange:true' && referenceApp.state.polling")
        #expect(try app.ctl("lifecycle", "background").status == 0)
        try reference.page("\(since(2)) === 'appStateChange:false,pause'")
        var live = try #require(try reference.state()["live"] as? [String: Any])
        #expect(live["running"] as? Bool == false && live["stoppedBy"] as? String == "pause")
        let fetches = try #require(live["fetches"] as? Int)
        #expect(try app.ctl("lifecycle", "foreground").status == 0)
        try reference.page("\(since(4)) === 'resume,appStateChange:true' && referenceApp.state.live.running")
        live = try #require(try reference.state()["live"] as? [String: Any])
        #expect(live["fetches"] as? Int == fetches + 1, "resume fetched the cameras again")

        // Warm links: routed (slashes collapsed, query kept), or /live for a route the app does not open.
        #expect(try app.ctl("open-url", "homesec://events//42?from=link").status == 0)
        try reference.page("location.pathname + location.search === '/events/42?from=link'")
        #expect(try app.ctl("open-url", "homesec://admin/users").status == 0)
        try reference.page("location.pathname === '/live' && referenceApp.state.links.length === 4")
        let links = try #require(try reference.state()["links"] as? [[String: Any]])
        #expect(links.map { $0["route"] as? String } == ["/events/7?from=cold", "/live", "/events/42?from=link", "/live"])
        #expect(links.dropFirst().allSatisfy { $0["via"] as? String == "appUrlOpen" })
        // A person opens a notification: pushNotificationActionPerformed with the whole payload; data.route is followed.
        #expect(try app.ctl("push", "tap", #"{"aps": {"alert": {"title": "Front door", "body": "Person detected"}}, "route": "/events/9?from=notification"}"#).status == 0)
        try reference.page("location.pathname + location.search === '/events/9?from=notification'")
        let opened = try #require((try reference.state()["notifications"] as? [[String: Any]])?.last)
        #expect(opened["actionId"] as? String == "tap" && opened["route"] as? String == "/events/9?from=notification")
        // The page's rule for a notification's data.route (the route pushNotificationActionPerformed opens).
        let routes = try app.ctl("eval", """
            [{route: '/events/9?from=notification'}, {route: '/admin'}, {route: '//evil.example/x'}, {route: 'https://x.example/'}, {}]
              .map(d => referenceApp.rules.routeForNotification(d))
            """).result as? [Any]
        #expect(routes?.map { $0 as? String } == ["/events/9?from=notification", "/live", nil, nil, nil])
    }
}
