import Foundation
import Testing

/// Issue 14's whole HomeSec loop, every part real and in its own process on loopback: the
/// reference app in `hostshell capacitor` sets up against `serve --homesec` and registers for
/// push; the server stores the device; an event raised on the server goes through its notifier to
/// `hostshell apns serve`, which hands it to the app holding the token; a person opens the
/// notification and the page routes to the event — with the app in the foreground, in the
/// background, and not running.
@Suite("The HomeSec push loop: page registers → server → event → APNs stand-in → notification → the page routes (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct HomeSecLoopTests {
    static let key = "loop-test-key"

    @Test("foreground: pushNotificationReceived; background: a notification, opened → /events/<id>; not running: kept, shown at start, opened → /events/<id>")
    func wholeLoop() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let appId = "com.example.homesec.l" + UUID().uuidString.prefix(8).lowercased()
        let keys = try APNsKeys()
        let publicKey = try keys.make("LOOPKEY")
        let record = keys.path("record.jsonl")
        // The stand-in finds the app's phone in the same home's runtime directory.
        let standIn = try APNsProcess(["--team", "TEAMLOOP", "--key", "LOOPKEY=" + publicKey, "--record", record], environment: home.environment)
        defer { standIn.stop() }
        let sandbox = try #require(standIn.ports["sandbox"])
        let server = try HomeSecProcess(["--auth", "on", "--token", Self.key, "--apns-bundle-id", appId, "--apns-base-url", "http://127.0.0.1:\(sandbox)",
                                         "--apns-key-id", "LOOPKEY", "--apns-team-id", "TEAMLOOP", "--apns-key", keys.path("LOOPKEY.key")])
        defer { server.stop() }

        // The page sets up, is granted notifications and registers its token with the server.
        var reference = try ReferenceCapacitorApp(home: home, appId: appId)
        try reference.submitSetup(url: server.url, token: Self.key)
        try reference.page("referenceApp.state.registration.status === 'asking'")
        _ = try reference.app.state("capacitor.plugins.PushNotifications.waitingForPermission=1")
        #expect(try reference.app.ctl("permission", "grant").status == 0)
        try reference.page("referenceApp.state.registration.status === 'registered'")
        let token = try #require((try reference.state()["registration"] as? [String: Any])?["token"] as? String)
        let devices = try #require(try server.log()["devices"] as? [[String: Any]])
        #expect(token.count == 64)
        // The registry shows a token's fingerprint only, as HomeSec's does.
        #expect(devices.count == 1 && devices.allSatisfy { $0["bundle_id"] as? String == appId && $0["enabled"] as? Bool == true },
                "the server stores the device: \(devices)")

        /// Raises an event on the server; waits until its notification run delivered.
        func raise(_ clip: String) throws {
            let answer = try RawHTTP.send("POST", server.url + "/__test/event", headers: ["Content-Type": "application/json"],
                                          body: #"{"camera":"front_door","clip_id":"\#(clip)","activity_type":"person","risk_level":"high"}"#)
            #expect(answer.status == 202, "\(answer.status)")
            let run = try #require((answer.json as? [String: Any])?["run"] as? Int)
            var entry: [String: Any] = [:]
            let finished = try waitUntil(timeout: 30) {
                entry = (try server.log()["notifications"] as? [[String: Any]] ?? []).first { $0["run"] as? Int == run } ?? [:]
                return ["delivered", "failed"].contains(entry["state"] as? String ?? "")
            }
            #expect(finished && entry["state"] as? String == "delivered", "run \(run): \(entry)")
        }
        func delivered(_ clip: String) -> Any? {
            PushPhoneTests.records(record).last { (($0["payload"] as? [String: Any])?["event_id"] as? String) == clip }?["delivered"]
        }
        /// The one notification shown in the app's state now (opened ones leave the shelf).
        func shownNotification(_ app: RunningApp) throws -> [String: Any] {
            let state = try app.stateWhen("capacitor.notifications.shown.0.id")
            return try #require((((state["capacitor"] as? [String: Any])?["notifications"] as? [String: Any])?["shown"] as? [[String: Any]])?.first)
        }

        // In the foreground: the page's pushNotificationReceived, with the event's route.
        #expect(try reference.app.ctl("lifecycle", "focus").status == 0)
        try raise("clip-1")
        let received = try reference.page("referenceApp.state.pushes.find((p) => p.route === '/events/clip-1?from=notification') || null") as? [String: Any]
        #expect(received?["title"] as? String == "front_door: person detected", "\(String(describing: received))")
        _ = try waitUntil(timeout: 10) { delivered("clip-1") != nil }
        #expect(delivered("clip-1") as? Bool == true)

        // In the background: a notification; opening it routes the page to the event.
        #expect(try reference.app.ctl("lifecycle", "hide").status == 0)
        try raise("clip-2")
        let background = try shownNotification(reference.app)
        #expect(background["title"] as? String == "front_door: person detected")
        #expect(try reference.page("referenceApp.state.pushes.length") as? Int == 1, "nothing reached the page's listener in the background")
        #expect(try reference.app.ctl("lifecycle", "show").status == 0)
        #expect(try reference.app.ctl("notification", "activate", try #require(background["id"] as? String)).status == 0)
        try reference.page("location.pathname === '/events/clip-2' && referenceApp.state.routes.some((r) => r.via === 'notification' && r.route.startsWith('/events/clip-2'))")

        // Not running: the push is kept, shown at the next start, and opening it routes there.
        reference.stop()
        try raise("clip-3")
        _ = try waitUntil(timeout: 10) { delivered("clip-3") != nil }
        #expect(delivered("clip-3") as? String == "kept", "the stand-in's record says the push waits for the app")
        reference = try ReferenceCapacitorApp(home: home, appId: appId)
        defer { reference.stop() }
        let kept = try shownNotification(reference.app)
        #expect(kept["title"] as? String == "front_door: person detected")
        #expect(try reference.app.ctl("notification", "activate", try #require(kept["id"] as? String)).status == 0)
        try reference.page("location.pathname === '/events/clip-3' && referenceApp.state.notifications.some((n) => n.route === '/events/clip-3?from=notification')")
        #expect(try server.log()["devices"].map { ($0 as? [[String: Any]] ?? []).allSatisfy { $0["enabled"] as? Bool == true } } == true,
                "every push was delivered: no device disabled")
    }
}
