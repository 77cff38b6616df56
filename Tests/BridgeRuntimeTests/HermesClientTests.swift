import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("HermesClient: readiness, permission, registration, badge, snooze and foreground rules")
struct HermesClientTests {
    static let server = "http://127.0.0.1:9"
    static let tokenA = String(repeating: "AB", count: 32)
    static let tokenB = String(repeating: "cd", count: 32)
    static let ready: JSONValue = ["plugins": [["name": "hermes-push", "runtime_status": "enabled"]]]
    static let disabled: JSONValue = ["plugins": [["name": "hermes-push", "runtime_status": "disabled"]]]
    static func push(_ session: String, _ type: String = "complete") -> JSONObject {
        ["aps": ["alert": ["title": "Turn complete", "body": "Hermes finished the turn"], "thread-id": .string(session)],
         "session_id": .string(session), "type": .string(type)]
    }
    static func registered(_ client: HermesClient) -> String? {
        if case .registered(let token) = client.registration { return token }
        return nil
    }

    @Test("ready → ask permission; a grant asks for a token, which registers in lower-case hex; rotation registers again")
    func registration() {
        var client = HermesClient(server: Self.server)
        #expect(client.launch() == [.probeReadiness] && client.readiness == .probing)
        #expect(client.readinessProbed(status: 200, body: Self.ready, now: 0) == [.askPermission])
        #expect(client.prompt == .permission && client.permission == .prompting)
        #expect(client.permissionAnswered(grant: true) == [.requestToken] && client.prompt == .none)
        let lower = Self.tokenA.lowercased()
        #expect(client.tokenReceived(Self.tokenA) == [.register(token: lower, environment: .sandbox, appVersion: HermesClient.appVersion)])
        #expect(client.tokenReceived(Self.tokenA).isEmpty, "the same token while registering: nothing")
        client.registerAnswered(token: lower, status: 200, body: ["ok": true])
        #expect(Self.registered(client) == lower)
        #expect(client.tokenReceived(Self.tokenB) == [.register(token: Self.tokenB, environment: .sandbox, appVersion: HermesClient.appVersion)])
        client.registerAnswered(token: lower, status: 200, body: ["ok": true])
        #expect(Self.registered(client) == nil, "a stale answer for the old token changes nothing")
        client.registerAnswered(token: Self.tokenB, status: 404, body: nil)
        #expect(client.registration == .failed(token: Self.tokenB, error: "HTTP 404: the hermes-push plugin is not installed"))
    }

    @Test("a denial registers nothing; a later grant does; sign-out unregisters and forgets the token")
    func denialAndSignOut() {
        var client = HermesClient(server: Self.server)
        _ = client.launch()
        _ = client.readinessProbed(status: 200, body: Self.ready, now: 0)
        #expect(client.permissionAnswered(grant: false).isEmpty && client.permission == .denied)
        #expect(client.tokenReceived(Self.tokenB).isEmpty, "no registration without permission")
        #expect(client.readinessProbed(status: 200, body: Self.ready, now: 0).isEmpty, "a denial is not asked again")
        #expect(client.permissionAnswered(grant: true) == [.register(token: Self.tokenB, environment: .sandbox, appVersion: HermesClient.appVersion)])
        client.registerAnswered(token: Self.tokenB, status: 200, body: ["ok": true])
        #expect(client.signOut() == [.unregister(token: Self.tokenB)])
        #expect(client.token == nil && client.registration == .none && !client.signedIn)
        #expect(client.launch().isEmpty, "signed out: no probe")
        #expect(client.signOut().isEmpty)
    }

    @Test("not ready offers setup; Later snoozes 1, 2, 3, 5, 8, 13, 21, 34, 55 days then 60; unknown never prompts")
    func snooze() throws {
        #expect((1...12).map(HermesSnooze.days(afterLater:)) == [1, 2, 3, 5, 8, 13, 21, 34, 55, 60, 60, 60])
        var client = HermesClient(server: Self.server)
        var now = 1000.0
        _ = client.launch()
        #expect(client.readinessProbed(status: 200, body: Self.disabled, now: now).isEmpty && client.prompt == .setup)
        var expected: [Double] = []
        for count in 1...11 {
            try client.later(now: now)
            #expect(client.prompt == .none && client.laterCount == count)
            expected.append(Double(HermesSnooze.days(afterLater: count)) * 86_400)
            #expect(client.snoozedUntil == now + expected.last!)
            _ = client.readinessProbed(status: 200, body: Self.disabled, now: now + expected.last! - 1)
            #expect(client.prompt == .none, "still snoozed a second before the end")
            now += expected.last!
            _ = client.readinessProbed(status: 200, body: ["plugins": []], now: now)
            #expect(client.prompt == .setup, "absent is not ready too: offered again once the snooze is over")
        }
        var fresh = HermesClient(server: Self.server)
        #expect(throws: ControlError.self) { try fresh.later(now: 0) }
        var unknown = HermesClient(server: Self.server)
        for status in [404, 500, 503] as [Int?] + [nil] {
            #expect(unknown.readinessProbed(status: status, body: Self.ready, now: 0).isEmpty && unknown.prompt == .none && unknown.readiness == .unknown)
        }
        // Becoming ready takes the setup offer away and asks for permission.
        #expect(client.readinessProbed(status: 200, body: Self.ready, now: now) == [.askPermission] && client.prompt == .permission)
    }

    @Test("a push is hidden only when its session is on screen with the app in front")
    func foreground() {
        var client = HermesClient(server: Self.server)
        _ = client.becameReady()
        #expect(client.open("s-1") == [.openSession("s-1")])
        guard case .suppressed = client.receive(Self.push("s-1")) else { Issue.record("on screen: suppressed"); return }
        guard case .shown = client.receive(Self.push("s-2")) else { Issue.record("another session: shown"); return }
        client.foreground = false
        guard case .shown = client.receive(Self.push("s-1")) else { Issue.record("in the background: shown"); return }
        client.foreground = true
        client.closeSession()
        guard case .shown = client.receive(Self.push("s-1")) else { Issue.record("the list on screen: shown"); return }
        #expect(client.receive(["aps": ["alert": "x"]]) == .ignored("no session_id"))
        #expect(client.receive(["session_id": "s"]) == .ignored("no aps.alert"))
        #expect(client.notifications.count == 3 && client.suppressed.count == 1)
    }

    @Test("badge: sessions with a tapped approval push not yet opened; a cold-start tap waits for ready, dropped for another server")
    func badge() throws {
        var client = HermesClient(server: Self.server)
        guard case .shown(let first) = client.receive(Self.push("s-1", "approval")),
              case .shown(let second) = client.receive(Self.push("s-2", "approval")),
              case .shown(let third) = client.receive(Self.push("s-3", "complete")) else { Issue.record("shown"); return }
        // Cold start: not ready, so the tap is buffered and the approval counts.
        #expect(try client.tap(id: first.id).isEmpty && client.badge == 1 && client.bufferedTap?.sessionID == "s-1")
        #expect(client.becameReady() == [.openSession("s-1")] && client.badge == 0 && client.sessionOnScreen == "s-1")
        #expect(try client.tap(id: third.id) == [.openSession("s-3")] && client.badge == 0, "not an approval: no badge")
        #expect(throws: ControlError.self) { try client.tap(id: third.id) }

        var cold = HermesClient(server: Self.server)
        guard case .shown(let approval) = cold.receive(Self.push("s-9", "approval")) else { Issue.record("shown"); return }
        _ = try cold.tap(id: approval.id)
        _ = cold.signOut()
        _ = cold.signIn(server: "http://127.0.0.1:10")
        #expect(cold.becameReady().isEmpty && cold.sessionOnScreen == nil && cold.bufferedTap == nil, "another server: dropped")
        _ = second
    }

    @Test("Send test notification: idle → sending → sent on any 2xx, as the phone shows it, with HostShell's warning when the server's own result is a failure; failed otherwise; the state survives a restart")
    func testAndSaved() throws {
        var client = HermesClient(server: Self.server)
        #expect(client.test == .idle)
        #expect(try client.sendTest() == [.sendTest] && client.test == .sending)
        #expect(throws: ControlError.self) { try client.sendTest() }
        client.testAnswered(status: 200, body: ["ok": true, "devices": 0, "results": []])
        #expect(client.test == .sent && client.testWarning == nil)
        // The server's own result a failure: the phone still shows "sent" (any 2xx), and
        // HostShell says what the server said beside it.
        _ = try client.sendTest()
        client.testAnswered(status: 200, body: ["ok": true, "devices": 1, "results": [["delivered": false, "status": 502, "error": "gave up after 3 attempts: HTTP 502", "pruned": false]]])
        #expect(client.test == .sent)
        #expect(client.testWarning == "the phone shows \"sent\" for any 2xx, but the server reached none of its 1 device(s): gave up after 3 attempts: HTTP 502")
        _ = try client.sendTest()
        client.testAnswered(status: 200, body: ["ok": false, "error": "push pipeline not initialized"])
        #expect(client.test == .sent)
        #expect(client.testWarning == "the phone shows \"sent\" for any 2xx, but the server answered HTTP 200 saying the send failed: push pipeline not initialized")
        _ = try client.sendTest()
        client.testAnswered(status: 200, body: ["ok": true, "devices": 2, "results": [["delivered": false, "pruned": true], ["delivered": true]]])
        #expect(client.test == .sent && client.testWarning == nil, "one device reached: sent")
        _ = try client.sendTest()
        client.testAnswered(status: 200, body: ["ok": true, "devices": 1])
        #expect(client.test == .sent, "the plugin's older /test answers without results")
        _ = try client.sendTest()
        client.testAnswered(status: 404, body: ["detail": "Not Found"])
        #expect(client.test == .failed("HTTP 404: Not Found"))
        _ = try client.sendTest()
        client.testAnswered(status: nil, body: nil)
        #expect(client.test == .failed("no answer from the server"))

        _ = client.launch()
        _ = client.readinessProbed(status: 200, body: Self.ready, now: 0)
        _ = client.permissionAnswered(grant: true)
        _ = client.tokenReceived(Self.tokenB)
        client.registerAnswered(token: Self.tokenB, status: 200, body: ["ok": true])
        var restored = try #require(HermesClient(saved: client.saved))
        restored.coldStart()
        #expect(restored.token == Self.tokenB && Self.registered(restored) == Self.tokenB && restored.permission == .granted)
        _ = restored.launch()
        #expect(restored.readinessProbed(status: 200, body: Self.ready, now: 0).isEmpty, "registered already: nothing to do")
        #expect(HermesClient(saved: ["nope": true]).map { _ in true } == nil)
        var signedOut = client
        _ = signedOut.signOut()
        #expect(throws: ControlError.self) { try signedOut.sendTest() }
    }

    @Test("ctl hermes STEP [ARG] as a request line, decoded; a missing step or too many words refused")
    func controlWords() throws {
        let line = try ctlLine(["hermes", "clock", "86400"])
        #expect(try appCommand(line, HermesControl.self) == .hermes(action: "clock", value: "86400"))
        #expect(try appCommand(ctlLine(["hermes", "test"]), HermesControl.self) == .hermes(action: "test", value: nil))
        #expect(throws: ControlError.self) { try ctlLine(["hermes"]) }
        #expect(throws: ControlError.self) { try ctlLine(["hermes", "open", "a", "b"]) }
        #expect(throws: ControlError.self) { try appCommand(#"{"command":"hermes"}"#, HermesControl.self) }
        #expect(HermesControl.names.contains("hermes") && !ControlCommand.names.contains("hermes"))
    }
}
