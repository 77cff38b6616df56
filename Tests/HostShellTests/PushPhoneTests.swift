import Foundation
import Testing

/// Issue 14 items 2 and 3 in the real app: the reference HomeSec-like app in `hostshell capacitor`
/// registers for push, `hostshell apns serve` (its own process) takes a provider's request for its
/// token and the push reaches the page — `pushNotificationReceived` in the foreground, a
/// notification in the background (recorded in state: no notification server under the tests'
/// private bus), opened with `ctl notification activate` → `pushNotificationActionPerformed` with
/// the whole payload; kept while the app does not run and shown at its next start; and
/// `hostshell push FILE.apns` without any server.
@Suite("Push to a Capacitor app: the APNs stand-in → the page, foreground, background, not running; hostshell push (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct PushPhoneTests {
    static let team = "TEAM123456"

    /// Grants the permission and registers; the token the app now listens for (lower-case hex).
    static func register(_ reference: ReferenceCapacitorApp) throws -> String {
        let app = reference.app
        #expect(try app.ctl("eval", "window.__p = undefined; Capacitor.nativePromise('PushNotifications', 'requestPermissions', {}).then((r) => { window.__p = r.receive; }); true").status == 0)
        _ = try app.state("capacitor.plugins.PushNotifications.waitingForPermission=1")
        #expect(try app.ctl("permission", "grant").status == 0)
        #expect(try reference.page("window.__p") as? String == "granted")
        #expect(try app.ctl("eval", "Capacitor.nativePromise('PushNotifications', 'register', {}); true").status == 0)
        let state = try app.stateWhen("capacitor.phone.token")
        let phone = try #require((state["capacitor"] as? [String: Any])?["phone"] as? [String: Any])
        return try #require(phone["token"] as? String)
    }

    static func records(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("foreground → pushNotificationReceived; background → a notification in state → activate → pushNotificationActionPerformed with the whole payload; the other environment is BadDeviceToken")
    func foregroundAndBackground() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("KEY1")
        let record = keys.path("record.jsonl")
        let reference = try ReferenceCapacitorApp()
        defer { reference.finish() }
        let server = try APNsProcess(["--team", Self.team, "--key", "KEY1=" + publicKey, "--record", record], environment: reference.home.environment)
        defer { server.stop() }
        let sandbox = try #require(server.ports["sandbox"]), production = try #require(server.ports["production"])
        let token = try Self.register(reference)
        let app = reference.app
        #expect(try app.ctl("lifecycle", "focus").status == 0)
        let auth = try keys.token(kid: "KEY1", team: Self.team, iat: Int(Date().timeIntervalSince1970) - 30, signer: "KEY1")
        func push(_ body: String, port: Int? = nil, topic: String? = nil) throws -> CurlAnswer {
            try Curl.send("http://127.0.0.1:\(port ?? sandbox)/3/device/\(token.uppercased())", mode: ["--http1.1"],
                          headers: [("authorization", auth), ("apns-topic", topic ?? reference.appId), ("apns-push-type", "alert"), ("apns-priority", "10")],
                          body: body)
        }

        let first = try push(#"{"aps":{"alert":{"title":"Front door","body":"Person detected"}},"route":"/events/7?from=notification"}"#)
        #expect(first.status == 200, "\(first)")
        let received = try reference.page("referenceApp.state.pushes.length === 1 && referenceApp.state.pushes[0]") as? [String: Any]
        #expect(received?["title"] as? String == "Front door" && received?["route"] as? String == "/events/7?from=notification")
        #expect(received?["id"] as? String == first.headers["apns-id"], "the notification's id is the push's apns-id")
        _ = try waitUntil(timeout: 10) { Self.records(record).count == 1 }
        #expect(Self.records(record).first?["delivered"] as? Bool == true)
        let noBanner = try app.ctl("state").result as? [String: Any]
        let shelf = ((noBanner?["capacitor"] as? [String: Any])?["notifications"] as? [String: Any])
        #expect((shelf?["shown"] as? [Any])?.isEmpty == true, "no banner in the foreground: presentationOptions asks for none")
        #expect(shelf?["desktop"] as? Bool == false && shelf?["unavailable"] is String, "no notification server here: said so in state")

        // The token is the sandbox's and the app's: Apple's answers for anything else.
        #expect(try push(#"{"aps":{"alert":"x"}}"#, port: production).reason == "BadDeviceToken")
        #expect(try push(#"{"aps":{"alert":"x"}}"#, topic: "com.example.other").reason == "DeviceTokenNotForTopic")

        // In the background: a notification (here only in state), no pushNotificationReceived.
        #expect(try app.ctl("lifecycle", "hide").status == 0)
        let second = try push(#"{"aps":{"alert":{"title":"Garage","body":"Car detected"}},"route":"/events/9?from=notification","event_id":"e9"}"#)
        #expect(second.status == 200)
        let state = try app.stateWhen("capacitor.notifications.shown.0.id")
        let shown = try #require((((state["capacitor"] as? [String: Any])?["notifications"] as? [String: Any])?["shown"] as? [[String: Any]])?.first)
        #expect(shown["title"] as? String == "Garage" && shown["onDesktop"] as? Bool == false)
        let id = try #require(shown["id"] as? String)
        #expect(try reference.page("referenceApp.state.pushes.length") as? Int == 1, "nothing reached the page in the background")
        #expect(try app.ctl("notification", "activate", "no-such-id").status != 0, "an unknown notification is refused")

        // A person opens it: the page gets the whole payload and routes it.
        #expect(try app.ctl("lifecycle", "show").status == 0)
        #expect(try app.ctl("notification", "activate", id).status == 0)
        let opened = try reference.page("referenceApp.state.notifications.length === 1 && referenceApp.state.notifications[0]") as? [String: Any]
        #expect(opened?["actionId"] as? String == "tap" && opened?["route"] as? String == "/events/9?from=notification")
        _ = try waitUntil(timeout: 10) { Self.records(record).filter { $0["delivered"] as? Bool == true }.count == 2 }
        #expect(Self.records(record).filter { $0["delivered"] as? Bool == true }.count == 2)
    }

    @Test("not running: the push is kept (record says so) and shown at the next start; opening it reaches the page; hostshell push delivers a simctl file")
    func keptAndSimctlFile() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("KEY1")
        let record = keys.path("record.jsonl")
        let home = TemporaryHome()
        defer { home.remove() }
        let appId = "com.example.homesec.p" + UUID().uuidString.prefix(8).lowercased()
        var reference = try ReferenceCapacitorApp(home: home, appId: appId)
        let token = try Self.register(reference)
        reference.stop()

        let server = try APNsProcess(["--team", Self.team, "--key", "KEY1=" + publicKey, "--record", record], environment: home.environment)
        defer { server.stop() }
        let auth = try keys.token(kid: "KEY1", team: Self.team, iat: Int(Date().timeIntervalSince1970) - 30, signer: "KEY1")
        let answer = try Curl.send("http://127.0.0.1:\(try #require(server.ports["sandbox"]))/3/device/\(token)", mode: ["--http2-prior-knowledge"],
                                   headers: [("authorization", auth), ("apns-topic", appId)],
                                   body: #"{"aps":{"alert":{"title":"While away","body":"Motion"}},"route":"/events/3?from=notification"}"#)
        #expect(answer.status == 200, "\(answer)")
        _ = try waitUntil(timeout: 10) { !Self.records(record).isEmpty }
        #expect(Self.records(record).first?["delivered"] as? String == "kept")

        // The next start shows it as the system would; opening it reaches the page's listener.
        reference = try ReferenceCapacitorApp(home: home, appId: appId)
        defer { reference.stop() }
        let app = reference.app
        let state = try app.stateWhen("capacitor.notifications.shown.0.id")
        let shown = try #require((((state["capacitor"] as? [String: Any])?["notifications"] as? [String: Any])?["shown"] as? [[String: Any]])?.first)
        #expect(shown["title"] as? String == "While away")
        #expect(try app.ctl("notification", "activate", try #require(shown["id"] as? String)).status == 0)
        let opened = try reference.page("referenceApp.state.notifications.length === 1 && referenceApp.state.notifications[0]") as? [String: Any]
        #expect(opened?["route"] as? String == "/events/3?from=notification")

        // hostshell push: a simctl payload file naming the app, no server, into the foreground.
        _ = try app.stateWhen("capacitor.phone.token")
        #expect(try app.ctl("lifecycle", "focus").status == 0)
        let file = home.root.appendingPathComponent("motion.apns")
        try Data(#"{"Simulator Target Bundle":"\#(appId)","aps":{"alert":{"title":"From a file","body":"simctl"}},"route":"/events/4"}"#.utf8).write(to: file)
        let pushed = try HostShellBinary.run(["push", file.path], environment: home.environment)
        #expect(pushed.status == 0 && pushed.stdout.contains("in the foreground"), "\(pushed.stderr)")
        let got = try reference.page("referenceApp.state.pushes.length === 1 && referenceApp.state.pushes[0]") as? [String: Any]
        #expect(got?["title"] as? String == "From a file" && got?["route"] as? String == "/events/4")
        let byToken = try HostShellBinary.run(["push", token.uppercased(), file.path], environment: home.environment)
        #expect(byToken.status == 0, "\(byToken.stderr)")
        let unknown = try HostShellBinary.run(["push", "com.example.nobody", file.path], environment: home.environment)
        #expect(unknown.status != 0 && unknown.stderr.contains("no app com.example.nobody"), "\(unknown.stderr)")
        try Data(#"{"alert":"no aps"}"#.utf8).write(to: file)
        let bad = try HostShellBinary.run(["push", appId, file.path], environment: home.environment)
        #expect(bad.status != 0 && bad.stderr.contains("no \"aps\""), "\(bad.stderr)")
    }
}
