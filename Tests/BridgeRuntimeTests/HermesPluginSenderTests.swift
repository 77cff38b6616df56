import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("HermesPluginSender: the plugin's register, retry, re-register and prune rules")
struct HermesPluginSenderTests {
    static let device = HermesPushDevice(token: String(repeating: "ab", count: 32), environment: .sandbox, appVersion: "1.0")
    static func sender(capability: String? = "cap-1", thread: String = "") -> HermesPluginSender {
        HermesPluginSender(device: device, type: .approval, sessionID: "s-1", threadID: thread, capability: capability)
    }
    static func result(_ step: HermesPluginSender.Step) -> HermesPluginSender.Result? {
        if case .done(let result) = step { return result }
        return nil
    }
    static func pushBody(_ step: HermesPluginSender.Step) -> JSONObject? {
        if case .push(let body) = step { return body.objectValue }
        return nil
    }

    @Test("the /register URL is the /push URL's sibling; the push body has the contract's fields, thread_id only when non-empty")
    func shape() throws {
        #expect(HermesPluginSender.registerURL(pushURL: "http://127.0.0.1:9/push") == "http://127.0.0.1:9/register")
        #expect(HermesPluginSender.registerURL(pushURL: "http://gw/v1/push") == "http://gw/v1/register")
        var sender = Self.sender()
        let body = try #require(Self.pushBody(sender.start()))
        #expect(body.keys.sorted() == ["apns_env", "body", "capability", "device_token", "session_id", "title", "type"])
        #expect(body["title"] == "Approval needed" && body["body"] == "Hermes needs your approval" && body["capability"] == "cap-1")
        var threaded = Self.sender(thread: "t-9")
        #expect(Self.pushBody(threaded.start())?["thread_id"] == "t-9")
        var fresh = Self.sender(capability: nil)
        #expect(fresh.start() == .register(body: ["device_token": .string(Self.device.token)]))
        #expect(HermesPushType.allCases.map(\.title) == ["Approval needed", "Input needed", "Turn complete", "Hermes hit an error"])
        #expect(HermesPushType.error.body == "Hermes ran into a problem" && HermesPushType.clarify.body == "Hermes needs more information")
    }

    @Test("2xx delivers and keeps the capability")
    func delivered() throws {
        var sender = Self.sender()
        _ = sender.start()
        let result = try #require(Self.result(sender.pushed(status: 200, body: ["ok": true])))
        #expect(result.delivered && !result.pruned && result.capability == "cap-1" && result.pushes == 1 && result.registrations == 0)
    }

    @Test("a 403 forgets the capability, registers again and retries once; a second 403 gives up")
    func staleCapability() throws {
        var sender = Self.sender()
        _ = sender.start()
        #expect(sender.pushed(status: 403, body: nil) == .register(body: ["device_token": .string(Self.device.token)]))
        #expect(Self.pushBody(sender.registered(status: 200, body: ["capability": "cap-2"]))?["capability"] == "cap-2")
        let ok = try #require(Self.result(sender.pushed(status: 200, body: nil)))
        #expect(ok.delivered && ok.capability == "cap-2" && ok.registrations == 1 && ok.pushes == 2)

        var twice = Self.sender()
        _ = twice.start()
        _ = twice.pushed(status: 403, body: nil)
        _ = twice.registered(status: 200, body: ["capability": "cap-3"])
        let gaveUp = try #require(Self.result(twice.pushed(status: 403, body: ["error": "nope"])))
        #expect(!gaveUp.delivered && gaveUp.status == 403 && gaveUp.capability == nil && gaveUp.error?.contains("403") == true)
    }

    @Test("the re-register retry is not counted against the 3 attempts")
    func reregisterNotCounted() throws {
        var sender = Self.sender()
        _ = sender.start()
        #expect(sender.pushed(status: 502, body: nil) == .wait(seconds: 0.5))
        _ = sender.waited()
        #expect(sender.pushed(status: 403, body: nil).isRegister)
        _ = sender.registered(status: 200, body: ["capability": "cap-2"])
        #expect(sender.pushed(status: 503, body: nil) == .wait(seconds: 1.0))
        _ = sender.waited()
        let result = try #require(Self.result(sender.pushed(status: nil, body: nil)))
        #expect(!result.delivered && result.pushes == 4 && result.error?.contains("3 attempts") == true)
    }

    @Test("a failed register skips the device")
    func failedRegister() throws {
        for answer in [(Int?.none, JSONValue?.none), (500, nil), (200, ["nothing": true]), (400, ["error": "bad"])] as [(Int?, JSONValue?)] {
            var sender = Self.sender(capability: nil)
            _ = sender.start()
            let result = try #require(Self.result(sender.registered(status: answer.0, body: answer.1)))
            #expect(!result.delivered && result.pushes == 0 && result.error?.hasPrefix("register failed") == true)
        }
    }

    @Test("410 prunes; 5xx and no answer retry 0.5 s then 1.0 s, 3 attempts in all; other 4xx give up at once")
    func outcomes() throws {
        var gone = Self.sender()
        _ = gone.start()
        let pruned = try #require(Self.result(gone.pushed(status: 410, body: ["reason": "Unregistered"])))
        #expect(pruned.pruned && !pruned.delivered && pruned.capability == nil)

        var flaky = Self.sender()
        _ = flaky.start()
        #expect(flaky.pushed(status: nil, body: nil) == .wait(seconds: 0.5))
        #expect(Self.pushBody(flaky.waited()) != nil)
        #expect(flaky.pushed(status: 500, body: nil) == .wait(seconds: 1.0))
        _ = flaky.waited()
        let recovered = try #require(Self.result(flaky.pushed(status: 200, body: nil)))
        #expect(recovered.delivered && recovered.pushes == 3)

        for status in [400, 401, 404, 413, 429] {
            var refused = Self.sender()
            _ = refused.start()
            let result = try #require(Self.result(refused.pushed(status: status, body: ["error": "x"])))
            #expect(!result.delivered && !result.pruned && result.status == status && result.pushes == 1, "\(status)")
        }
    }
}

extension HermesPluginSender.Step {
    var isRegister: Bool { if case .register = self { return true } else { return false } }
}
