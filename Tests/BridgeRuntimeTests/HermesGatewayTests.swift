import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("HermesGateway: capabilities, the push it forwards, the plugin's answers")
struct HermesGatewayTests {
    static let token = String(repeating: "0f", count: 32)
    /// A stand-in for the HMAC (the live suite checks OpenSSL's against Python's).
    static func capability(_ token: String) -> String { "cap-" + HermesGateway.capabilityInput(token: token) }

    static func body(_ object: JSONObject) -> [UInt8] { JSONWriter.bytes(.object(object)) }
    static func push(_ change: (inout JSONObject) -> Void = { _ in }) -> HermesGateway.Outcome {
        var object: JSONObject = ["device_token": .string(token), "apns_env": "sandbox", "capability": .string(capability(token)),
                                  "type": "approval", "session_id": "s-1", "title": "Approval needed", "body": "Hermes needs your approval"]
        change(&object)
        return HermesGateway.push(body: body(object), capability: capability)
    }
    static func status(_ outcome: HermesGateway.Outcome) -> Int? {
        if case .answer(let status, _) = outcome { return status }
        return nil
    }

    @Test("register answers the capability of the token; a bad body or token is 400")
    func register() {
        #expect(HermesGateway.capabilityInput(token: "abc") == "hpc1:abc")
        #expect(HermesGateway.register(body: Self.body(["device_token": .string(Self.token)]), capability: Self.capability)
                == .answer(status: 200, body: ["capability": .string(Self.capability(Self.token))]))
        #expect(Self.status(HermesGateway.register(body: Array("nope".utf8), capability: Self.capability)) == 400)
        #expect(Self.status(HermesGateway.register(body: Self.body(["device_token": "xyz"]), capability: Self.capability)) == 400)
    }

    @Test("push: the gateway's headers and payload shape; approval is time-sensitive, the rest active")
    func forwarded() throws {
        guard case .forward(let outbound) = Self.push() else { Issue.record("not forwarded"); return }
        #expect(outbound.environment == .sandbox && outbound.token == Self.token)
        #expect(outbound.headers.map { "\($0.name)=\($0.value)" } == ["apns-push-type=alert", "apns-priority=10", "apns-collapse-id=s-1"])
        let aps = try #require(outbound.payload.objectValue?["aps"]?.objectValue)
        #expect(aps["alert"] == ["title": "Approval needed", "body": "Hermes needs your approval"])
        #expect(aps["sound"] == "default" && aps["thread-id"] == "s-1" && aps["interruption-level"] == "time-sensitive")
        #expect(outbound.payload.objectValue?["session_id"] == "s-1" && outbound.payload.objectValue?["type"] == "approval")
        for type in ["clarify", "complete", "error"] {
            guard case .forward(let other) = Self.push({ $0["type"] = .string(type); $0["apns_env"] = "production" }) else { Issue.record("\(type) not forwarded"); continue }
            #expect(other.payload.objectValue?["aps"]?.objectValue?["interruption-level"] == "active" && other.environment == .production)
        }
    }

    @Test("push refusals: a wrong or missing capability is 403; bad fields are 400")
    func refusals() {
        #expect(Self.status(Self.push { $0["capability"] = .string(Self.capability(String(repeating: "1f", count: 32))) }) == 403)
        #expect(Self.status(Self.push { $0["capability"] = nil }) == 403)
        #expect(Self.status(Self.push { $0["capability"] = .string(Self.capability(Self.token).uppercased()) }) == 403)
        #expect(Self.status(Self.push { $0["apns_env"] = "staging" }) == 400)
        #expect(Self.status(Self.push { $0["type"] = "hello" }) == 400)
        #expect(Self.status(Self.push { $0["session_id"] = "" }) == 400)
        #expect(Self.status(Self.push { $0["title"] = nil }) == 400)
        #expect(Self.status(Self.push { $0["device_token"] = "zz" }) == 400)
        #expect(Self.status(HermesGateway.push(body: [], capability: Self.capability)) == 400)
    }

    @Test("a session id that would add a header (a line break, a control character) is refused before anything is sent",
          arguments: ["s-1\r\nx-evil: 1", "s-1\nx", "s-1\rx", "s\u{0}1", "s\u{7F}", " s-1", "s-1\t"])
    func sessionIdHeaderInjection(_ session: String) throws {
        let outcome = Self.push { $0["session_id"] = .string(session) }
        #expect(Self.status(outcome) == 400)
        guard case .answer(_, let body) = outcome else { return }
        #expect(body.objectValue?["error"]?.stringValue?.contains("apns-collapse-id") == true, "\(body)")
    }

    @Test("header values: visible text, spaces and tabs inside are fine; line breaks, controls and edge white space are not")
    func headerValues() {
        #expect(HeaderValue.problem("bearer eyJhbGciOiJFUzI1NiJ9.e30.sig") == nil)
        #expect(HeaderValue.problem("a b\tc — é") == nil)
        #expect(HeaderValue.problem("") == nil)
        #expect(HeaderValue.problem("a\r\nb") == "contains a line break")
        #expect(HeaderValue.problem("a\u{1}b") == "contains a control character (U+0001)")
        #expect(HeaderValue.problem(in: [("apns-topic", "t"), ("apns-collapse-id", "x\ny")]) == "the apns-collapse-id header's value contains a line break")
    }

    @Test("APNs' answer → the plugin's: 200, 410 to prune, 400 to give up, 502 to retry, never 403")
    func answers() {
        let reason = JSONWriter.bytes(["reason": "Unregistered", "timestamp": 1])
        #expect(HermesGateway.answer(forAPNs: 200, body: [], apnsID: "id").status == 200)
        #expect(HermesGateway.answer(forAPNs: 410, body: reason, apnsID: nil).status == 410)
        #expect(HermesGateway.answer(forAPNs: 410, body: reason, apnsID: nil).body.objectValue?["reason"] == "Unregistered")
        #expect(HermesGateway.answer(forAPNs: 400, body: [], apnsID: nil).status == 400)
        #expect(HermesGateway.answer(forAPNs: 413, body: [], apnsID: nil).status == 400)
        for status in [403, 429, 500, 503] { #expect(HermesGateway.answer(forAPNs: status, body: [], apnsID: nil).status == 502) }
        #expect(HermesGateway.answer(forAPNs: nil, body: [], apnsID: nil).status == 502)
    }

    @Test("the provider token is kept about 50 minutes")
    func tokenAge() {
        #expect(HermesGateway.providerTokenIsStale(issuedAt: nil, now: 100))
        #expect(!HermesGateway.providerTokenIsStale(issuedAt: 100, now: 100 + 2999))
        #expect(HermesGateway.providerTokenIsStale(issuedAt: 100, now: 100 + 3000))
        #expect(HermesGateway.providerTokenIsStale(issuedAt: 100, now: 50))
    }
}
