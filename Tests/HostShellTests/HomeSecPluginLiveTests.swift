import Foundation
import Testing

/// Issue 13 item 3 in the real app: HomeSecAuth, HomeSecDevice and PushNotifications called
/// from a page through the shell's `window.Capacitor`, with their glue — both secret stores, the
/// permission question answered through `ctl permission`, tokens, rotation, the push record and a
/// delivered push reaching a listener. The page is `fixtures/capacitor/plugin-test`; each test
/// uses an app id of its own (the test session's keyring is shared by every suite).
@Suite("HomeSec plugins in a live Capacitor page (real WebKit, real secret stores)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)  // one window at a time: fewer windows taking the shared display's focus from other suites
struct HomeSecPluginLiveTests {
    static let project = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/plugin-test").path

    static var stores: [String] {
        ProcessInfo.processInfo.environment["GNOME_KEYRING_CONTROL"] != nil ? ["file", "secret-service"] : ["file"]
    }

    static func appId() -> String { "dev.hostshell.plugins\(UInt32.random(in: .min ... .max))" }

    /// Starts the test page as app `appId` and waits until its runtime has booted.
    static func start(_ home: TemporaryHome, appId: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> RunningApp {
        let app = try RunningApp(home: home, arguments: [project, "--app-id", appId, "--allow-eval"] + extra, command: "capacitor",
                                 environment: environment)
        _ = try app.state("screen=page", timeout: 60)
        #expect(try app.evalWhen("window.__t && window.__t.booted") as? Bool == true, "the page's runtime booted")
        return app
    }

    /// `plugin.method(options)` from the page: `{ok, data}` or `{ok: false, code, message}`.
    static func call(_ app: RunningApp, _ plugin: String, _ method: String, _ options: String = "{}") throws -> [String: Any] {
        let key = "k\(UInt32.random(in: .min ... .max))"
        let ran = try app.ctl("eval", "window.__t.call('\(key)', '\(plugin)', '\(method)', \(options))")
        #expect(ran.status == 0, "\(plugin).\(method): \(ran.error)")
        let text = try #require(try app.evalWhen("window.__t.result('\(key)')") as? String, "\(plugin).\(method) was not answered")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func value(_ answer: [String: Any]) -> Any? { (answer["data"] as? [String: Any])?["value"] }

    static func dataDirectory(_ home: TemporaryHome, _ appId: String) -> URL {
        home.root.appendingPathComponent("data/hostshell/apps/\(appId)")
    }

    @Test("HomeSecAuth: set, get and clear per server URL in the chosen store, kept across a restart; exact rejections; names only in ctl state",
          arguments: Self.stores)
    func auth(_ store: String) throws {
        let home = TemporaryHome()
        let appId = Self.appId()
        defer {
            home.remove()
            _ = try? Shell.run("/usr/bin/secret-tool", ["clear", "service", "homesec", "app", appId])
        }
        var app = try Self.start(home, appId: appId, ["--credential-store", store])
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getServerBaseUrl")) is NSNull)
        let early = try Self.call(app, "HomeSecAuth", "setApiToken", #"{"value": "tok-0"}"#)
        #expect(early["ok"] as? Bool == false && early["code"] as? String == "HOMESEC_AUTH_STORAGE_ERROR")
        #expect(early["message"] as? String == "Set the HomeSec server URL before storing an API token.")
        #expect(try Self.call(app, "HomeSecAuth", "setServerBaseUrl", #"{"value": " HTTP://127.0.0.10:8000/ "}"#)["ok"] as? Bool == true)
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getServerBaseUrl")) as? String == "http://127.0.0.10:8000")
        #expect(try Self.call(app, "HomeSecAuth", "setApiToken", #"{"value": "tok-1"}"#)["ok"] as? Bool == true)
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getApiToken")) as? String == "tok-1")
        let missing = try Self.call(app, "HomeSecAuth", "setApiToken", #"{"value": "  "}"#)
        #expect(missing["message"] as? String == "value is required." && missing["code"] as? String == "HOMESEC_AUTH_STORAGE_ERROR")
        let invalid = try Self.call(app, "HomeSecAuth", "setServerBaseUrl", #"{"value": "ftp://nas"}"#)
        #expect(invalid["message"] as? String == "Invalid HomeSec server URL: ftp://nas")

        // ctl state: the store and the entries' names, never a value.
        let state = try app.state("capacitor.plugins.HomeSecAuth.store=\"\(store)\"")
        let stateText = String(decoding: try JSONSerialization.data(withJSONObject: state, options: .withoutEscapingSlashes), as: UTF8.self)
        #expect(stateText.contains("api-token:http://127.0.0.10:8000") && !stateText.contains("tok-1"), "names only")

        let dataDirectory = Self.dataDirectory(home, appId)
        let file = dataDirectory.appendingPathComponent("homesec-secrets.json")
        if store == "file" {
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        } else {
            #expect(!FileManager.default.fileExists(atPath: file.path), "the Secret Service holds them, not a file")
            let lookup = try Shell.run("/usr/bin/secret-tool", ["lookup", "service", "homesec", "app", appId, "account", "api-token:http://127.0.0.10:8000"])
            #expect(lookup.trimmingCharacters(in: .newlines) == "tok-1")
        }

        // Kept across a restart; a new URL drops the old URL's token.
        app.stop()
        app = try Self.start(home, appId: appId, ["--credential-store", store])
        defer { app.stop() }
        let restarted = try app.state("capacitor.plugins.HomeSecAuth.store=\"\(store)\"")
        let names = ((restarted["capacitor"] as? [String: Any]).flatMap { $0["plugins"] as? [String: Any] }
            .flatMap { $0["HomeSecAuth"] as? [String: Any] })?["entries"] as? [String]
        #expect(names?.sorted() == ["api-token:http://127.0.0.10:8000", "server-base-url"], "the stored names, before any call")
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getApiToken")) as? String == "tok-1")
        #expect(try Self.call(app, "HomeSecAuth", "setAuthDisabledReady", #"{"value": true}"#)["ok"] as? Bool == true)
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getAuthDisabledReady")) as? Bool == true)
        #expect(try Self.call(app, "HomeSecAuth", "setServerBaseUrl", #"{"value": "https://home.example/hs/"}"#)["ok"] as? Bool == true)
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getApiToken")) is NSNull)
        #expect(Self.value(try Self.call(app, "HomeSecAuth", "getAuthDisabledReady")) as? Bool == false)
        #expect(try Self.call(app, "HomeSecAuth", "clearServerBaseUrl")["ok"] as? Bool == true)
        _ = try app.state("capacitor.plugins.HomeSecAuth.entries=[]")
    }

    @Test("HomeSecAuth while the keyring's prompt is up (a write it never answers): the app keeps answering ctl and other plugins' calls, and the held call's answer waits for the keyring")
    func keyringWriteDoesNotFreeze() throws {
        let keyring = try SecretServiceStandIn(holding: "", holdingWrites: true)
        defer { keyring.stop() }
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try Self.start(home, appId: Self.appId(), ["--credential-store", "secret-service"],
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": keyring.address])
        defer { app.stop() }
        let key = "held"
        #expect(try app.ctl("eval", "window.__t.call('\(key)', 'HomeSecAuth', 'setServerBaseUrl', {value: 'http://127.0.0.10:8000'})").status == 0)
        #expect(waitUntil(timeout: 30) { keyring.heldWrites > 0 }, "the call wrote to the keyring")
        // A write made on the main thread would hold it until D-Bus gives up on the call (25 s
        // after it began): the app answers before that, while the write still waits.
        let device = try Self.call(app, "HomeSecDevice", "getRegistrationInfo")
        #expect(device["ok"] as? Bool == true, "another plugin answers while the keyring write waits: \(device)")
        #expect(try app.ctl("eval", "window.__t.result('\(key)')").result is NSNull, "the held call is not answered yet")
        #expect(keyring.heldWrites == 1)
    }

    @Test("HomeSecAuth on a damaged store file: every call rejected with the store's words, the file left as it was")
    func damagedStore() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let appId = Self.appId()
        let file = Self.dataDirectory(home, appId).appendingPathComponent("homesec-secrets.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"entries\": [".utf8).write(to: file)
        let app = try Self.start(home, appId: appId, ["--credential-store", "file"])
        defer { app.stop() }
        let answer = try Self.call(app, "HomeSecAuth", "setServerBaseUrl", #"{"value": "http://127.0.0.2"}"#)
        #expect(answer["code"] as? String == "HOMESEC_AUTH_STORAGE_ERROR")
        #expect((answer["message"] as? String)?.contains("is damaged") == true, "\(answer)")
        #expect(try Data(contentsOf: file) == Data("{\"entries\": [".utf8), "nothing lost")
    }

    @Test("HomeSecDevice: bundle id from the app id, --apns-environment, the machine's name; bad words refused")
    func device() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let appId = Self.appId()
        let app = try Self.start(home, appId: appId, ["--apns-environment", "production"])
        defer { app.stop() }
        let answer = try Self.call(app, "HomeSecDevice", "getRegistrationInfo")
        let data = try #require(answer["data"] as? [String: Any], "\(answer)")
        #expect(data["bundleId"] as? String == appId)
        #expect(data["apnsEnvironment"] as? String == "production")
        #expect(((data["deviceName"] as? String) ?? "").isEmpty == false)
        #expect(data.keys.contains("appVersion"))
        let bad = try HostShellBinary.run(["capacitor", Self.project, "--apns-environment", "staging"])
        #expect(bad.status == 2 && bad.stderr.contains("--apns-environment takes sandbox or production"), "\(bad.stderr)")
        let store = try HostShellBinary.run(["capacitor", Self.project, "--credential-store", "keychain"])
        #expect(store.status == 2 && store.stderr.contains("--credential-store takes auto, secret-service or file"), "\(store.stderr)")
    }

    @Test("PushNotifications: the question waits for ctl permission, register → a 64-hex token kept in push.json, rotate, a push to a listener, a tap retained; token and answer kept across a restart")
    func push() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let appId = Self.appId()
        var app = try Self.start(home, appId: appId)
        #expect(try app.ctl("eval", "window.__t.listen('PushNotifications', 'registration') && window.__t.listen('PushNotifications', 'pushNotificationReceived')").status == 0)
        #expect((try Self.call(app, "PushNotifications", "checkPermissions")["data"] as? [String: Any])?["receive"] as? String == "prompt")

        // requestPermissions waits for an answer (a dialog on the app's window, or ctl).
        let key = "perm"
        #expect(try app.ctl("eval", "window.__t.call('\(key)', 'PushNotifications', 'requestPermissions', {})").status == 0)
        _ = try app.state("capacitor.plugins.PushNotifications.waitingForPermission=1")
        #expect(try app.ctl("eval", "window.__t.result('\(key)')").result is NSNull, "not answered before the person (or ctl) does")
        #expect(try app.ctl("permission", "grant").status == 0)
        let granted = try #require(try app.evalWhen("window.__t.result('\(key)')") as? String)
        #expect(granted.contains(#""receive":"granted""#), "\(granted)")
        #expect((try Self.call(app, "PushNotifications", "checkPermissions")["data"] as? [String: Any])?["receive"] as? String == "granted")

        // register → resolves, then registration with the token; push.json records it.
        #expect(try Self.call(app, "PushNotifications", "register")["ok"] as? Bool == true)
        let first = try #require(try app.evalWhen("window.__t.named('registration').length >= 1 && window.__t.named('registration')[0].value") as? String)
        #expect(first.count == 64 && first.allSatisfy { "0123456789ABCDEF".contains($0) }, "\(first)")
        let record = Self.dataDirectory(home, appId).appendingPathComponent("push.json")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        #expect(saved["token"] as? String == first && saved["bundleId"] as? String == appId && saved["environment"] as? String == "sandbox")
        #expect(try FileManager.default.attributesOfItem(atPath: record.path)[.posixPermissions] as? Int == 0o600)

        // ctl push-token rotate → a new token, reported to the registered app, recorded.
        #expect(try app.ctl("push-token", "rotate").status == 0)
        let second = try #require(try app.evalWhen("window.__t.named('registration').length >= 2 && window.__t.named('registration')[1].value") as? String)
        #expect(second != first && second.count == 64)
        _ = try app.state("capacitor.plugins.PushNotifications.token=\"\(second)\"")
        let rotated = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        #expect(rotated["token"] as? String == second)

        // A push in the foreground reaches the listener with the whole payload as data (the
        // control interface, not the shared display's focus, says where the window is).
        #expect(try app.ctl("lifecycle", "show").status == 0)
        let payload = #"{"aps":{"alert":{"title":"Motion","body":"Front door"}},"route":"/events/7?from=notification"}"#
        #expect(try app.ctl("push", "deliver", payload).status == 0)
        let received = try #require(try app.evalWhen("window.__t.named('pushNotificationReceived').length >= 1 && JSON.stringify(window.__t.named('pushNotificationReceived')[0])") as? String)
        #expect(received.contains(#""title":"Motion""#) && received.contains(#""route":"/events/7?from=notification""#) && received.contains(#""aps""#), "\(received)")

        // A tap before anyone listens is kept, and handed to the first listener.
        #expect(try app.ctl("push", "tap", payload).status == 0)
        _ = try app.state("capacitor.retained.0.event=pushNotificationActionPerformed")
        #expect(try app.ctl("eval", "window.__t.listen('PushNotifications', 'pushNotificationActionPerformed')").status == 0)
        let tapped = try #require(try app.evalWhen("window.__t.named('pushNotificationActionPerformed').length >= 1 && JSON.stringify(window.__t.named('pushNotificationActionPerformed')[0])") as? String)
        #expect(tapped.contains(#""actionId":"tap""#) && tapped.contains(#""route":"/events/7?from=notification""#), "\(tapped)")
        #expect(try app.ctl("push", "deliver", "not json").status != 0, "a payload that is no JSON object is refused")

        // In the background a push goes to the desktop's notifications, not to the page.
        #expect(try app.ctl("lifecycle", "hide").status == 0)
        #expect(try app.ctl("push", "deliver", #"{"aps":{"alert":{"title":"Background","body":"Gate"}}}"#).status == 0)
        _ = try app.state("capacitor.plugins.PushNotifications.delivered.0.title=\"Background\"")
        #expect(try app.ctl("eval", "window.__t.named('pushNotificationReceived').length").result as? Int == 1)

        // The profile keeps the token and the answer.
        app.stop()
        app = try Self.start(home, appId: appId)
        defer { app.stop() }
        #expect((try Self.call(app, "PushNotifications", "checkPermissions")["data"] as? [String: Any])?["receive"] as? String == "granted")
        #expect(try app.ctl("eval", "window.__t.listen('PushNotifications', 'registration')").status == 0)
        #expect(try Self.call(app, "PushNotifications", "register")["ok"] as? Bool == true)
        #expect(try app.evalWhen("window.__t.named('registration').length >= 1 && window.__t.named('registration')[0].value") as? String == second,
                "stable per app profile")
    }
}
