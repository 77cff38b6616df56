import Foundation
import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// Signatures in these pure tests: a token "signed" by key K carries 64 bytes of K's first
/// letter's code. The live suite (APNsServeTests) checks real ES256 signatures with OpenSSL.
struct LetterSignatures: SignatureCheck {
    func verify(keyID: String, input: [UInt8], signature: [UInt8]) -> Bool {
        signature == Array(repeating: keyID.utf8.first!, count: 64) && !input.isEmpty
    }
}

@Suite("APNsStandIn: every reason and status of Apple's provider API, decided without a network")
struct APNsStandInTests {
    static let now = 1_800_000_000.0
    static let token = String(repeating: "ab", count: 32)
    static let other = String(repeating: "cd", count: 32)
    static let bundle = "com.example.app"

    static func jwt(kid: String = "KEY1", iss: String = "TEAM1", iat: Double = now - 60, alg: String = "ES256", signedBy: String? = nil) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"\#(kid)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(iss)","iat":\#(Int(iat))}"#.utf8))
        let signature = Base64URL.encode(Array(repeating: (signedBy ?? kid).utf8.first!, count: 64))
        return "bearer \(header).\(claims).\(signature)"
    }

    static func request(method: String = "POST", path: String = "/3/device/" + token, auth: String? = jwt(),
                        topic: String? = bundle, extra: [(String, String)] = [], body: String = #"{"aps":{"alert":"hi"}}"#) -> APNsRequest {
        var headers: [(name: String, value: String)] = []
        if let auth { headers.append(("authorization", auth)) }
        if let topic { headers.append(("apns-topic", topic)) }
        headers += extra.map { ($0.0, $0.1) }
        return APNsRequest(method: method, path: path, headers: headers, body: Array(body.utf8))
    }

    @Test("the headers a front must keep: authorization and every apns- one; others may be left out")
    func headersRead() {
        func reads(_ name: String) -> Bool { Array(name.utf8).withUnsafeBufferPointer { APNsRequest.readsHeader(named: $0) } }
        for name in ["authorization", "apns-topic", "apns-push-type", "apns-priority", "apns-collapse-id", "apns-expiration", "apns-id", "apns-unknown"] {
            #expect(reads(name), "\(name)")
        }
        for name in ["", "a", "apns", "authorizatio", "authorizations", "user-agent", "accept", "content-length", "x-apns-topic"] {
            #expect(!reads(name), "\(name)")
        }
    }

    @Test("a path's device token: /3/device/{token} only, no further segment or query")
    func pathToken() {
        #expect(APNsStandIn.deviceToken(inPath: "/3/device/" + Self.token) == Self.token)
        #expect(APNsStandIn.deviceToken(inPath: "/3/device/") == "")
        #expect(APNsStandIn.deviceToken(inPath: "/3/device/ab/cd") == nil)
        #expect(APNsStandIn.deviceToken(inPath: "/3/device/ab?x=1") == nil)
        #expect(APNsStandIn.deviceToken(inPath: "/3/devices/ab") == nil)
        #expect(APNsDeviceToken.lowercased("ABcd12") == "abcd12" && APNsDeviceToken.lowercased(Self.token) == Self.token)
        let good = String(repeating: "0123456789abcdefABCDEF00", count: 3).prefix(64)
        #expect(APNsDeviceToken.isWellFormed(String(good)))
        for bad in [":", "g", "G", "@", "`", "/", " ", "é"] {
            #expect(!APNsDeviceToken.isWellFormed(String(good.dropLast(bad.utf8.count)) + bad), "\(bad)")
        }
        #expect(!APNsDeviceToken.isWellFormed(String(good.dropLast())), "an odd count")
    }

    static func standIn(_ change: (inout APNsStandIn.Options) -> Void = { _ in }) -> APNsStandIn {
        var options = APNsStandIn.Options(teamID: "TEAM1", keyIDs: ["KEY1", "KEY2"])
        change(&options)
        return APNsStandIn(options: options, now: now - 3000)
    }

    static func decide(_ request: APNsRequest, _ standIn: inout APNsStandIn, environment: APNsEnvironment = .sandbox, at: Double = now) -> APNsDecision {
        standIn.decide(request, environment: environment, now: at, signatures: LetterSignatures(), entropy: Array(0..<16))
    }

    static func reason(_ request: APNsRequest, _ change: (inout APNsStandIn.Options) -> Void = { _ in }) -> APNsReason? {
        var standIn = standIn(change)
        return decide(request, &standIn).reason
    }

    @Test("every reason has Apple's status, and the fault words name each one")
    func statuses() {
        #expect(APNsReason.allCases.count == 30)
        let byStatus = Dictionary(grouping: APNsReason.allCases, by: \.status).mapValues { $0.count }
        #expect(byStatus == [400: 14, 403: 6, 404: 1, 405: 1, 410: 2, 413: 1, 429: 2, 500: 1, 503: 2])
        for reason in APNsReason.allCases {
            #expect(APNsReason.named(reason.rawValue) == reason)
            #expect(APNsReason.named(reason.rawValue.lowercased()) == reason)
        }
        #expect(APNsReason.named("410") == .unregistered && APNsReason.named("503") == .serviceUnavailable)
        #expect(APNsReason.named("429") == .tooManyRequests && APNsReason.named("500") == .internalServerError)
        #expect(APNsReason.named("Nope") == nil && APNsReason.named("400") == nil)
    }

    @Test("a good push is taken: 200, an apns-id, handed on with its parts; the device is learned")
    func accepted() throws {
        var standIn = Self.standIn()
        let decision = Self.decide(Self.request(extra: [("apns-push-type", "alert"), ("apns-priority", "5"), ("apns-collapse-id", "c1"),
                                                        ("apns-expiration", "0")]), &standIn)
        #expect(decision.status == 200 && decision.reason == nil && decision.body.isEmpty)
        #expect(APNsStandIn.isCanonicalUUID(decision.apnsID) && decision.apnsID == "00010203-0405-4607-8809-0a0b0c0d0e0f")
        let push = try #require(decision.accepted)
        #expect(push.token == Self.token && push.bundleID == Self.bundle && push.priority == 5 && push.collapseID == "c1" && push.expiration == 0)
        #expect(standIn.devices[Self.token] == APNsDevice(bundleID: Self.bundle, environment: .sandbox))
        #expect(decision.headers.map(\.name) == ["apns-id"])
        let given = Self.decide(Self.request(extra: [("apns-id", "123E4567-E89B-12D3-A456-426614174000")]), &standIn)
        #expect(given.status == 200 && given.apnsID == "123e4567-e89b-12d3-a456-426614174000")
        let quiet = Self.decide(Self.request(extra: [("apns-push-type", "background")], body: #"{"aps":{"content-available":1}}"#), &standIn)
        #expect(quiet.accepted?.priority == 5)
    }

    @Test("405, 404 and the path's token")
    func methodAndPath() {
        #expect(Self.reason(Self.request(method: "GET")) == .methodNotAllowed)
        #expect(Self.reason(Self.request(path: "/3/devices/" + Self.token)) == .badPath)
        #expect(Self.reason(Self.request(path: "/3/device/" + Self.token + "/x")) == .badPath)
        #expect(Self.reason(Self.request(path: "/3/device/")) == .missingDeviceToken)
        #expect(Self.reason(Self.request(path: "/3/device/xyz")) == .badDeviceToken)
        #expect(Self.reason(Self.request(path: "/3/device/" + Self.token.dropLast())) == .badDeviceToken)
        #expect(Self.reason(Self.request(path: "/3/device/" + Self.token.uppercased())) == nil)
    }

    @Test("provider tokens: missing, malformed, wrong alg, unknown key, wrong team, bad signature, expired, from the future")
    func providerTokens() {
        #expect(Self.reason(Self.request(auth: nil)) == .missingProviderToken)
        #expect(Self.reason(Self.request(auth: "  ")) == .missingProviderToken)
        #expect(Self.reason(Self.request(auth: "bearer not.a.jwt")) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt().replacingFirst("bearer", "basic"))) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt(alg: "HS256"))) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt(kid: "KEY9"))) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt(iss: "TEAM2"))) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt(signedBy: "X"))) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt(iat: Self.now - 3601))) == .expiredProviderToken)
        #expect(Self.reason(Self.request(auth: Self.jwt(iat: Self.now - 3599))) == nil)
        #expect(Self.reason(Self.request(auth: Self.jwt(iat: Self.now + 600))) == .invalidProviderToken)
        #expect(Self.reason(Self.request(auth: "Bearer " + Self.jwt().dropFirst(7))) == nil)
    }

    @Test("a new provider token sooner than 20 minutes after the last new one is 429 TooManyProviderTokenUpdates")
    func tokenUpdates() {
        var standIn = Self.standIn()
        #expect(Self.decide(Self.request(auth: Self.jwt(iat: Self.now - 100)), &standIn).status == 200)
        #expect(Self.decide(Self.request(auth: Self.jwt(iat: Self.now - 100)), &standIn, at: Self.now + 5).status == 200)
        let soon = Self.decide(Self.request(auth: Self.jwt(iat: Self.now)), &standIn, at: Self.now + 10)
        #expect(soon.status == 429 && soon.reason == .tooManyProviderTokenUpdates)
        #expect(Self.decide(Self.request(auth: Self.jwt(kid: "KEY2")), &standIn).status == 200, "another key has its own tokens")
        #expect(Self.decide(Self.request(auth: Self.jwt(iat: Self.now + 1200)), &standIn, at: Self.now + 1201).status == 200)
        #expect(Self.decide(Self.request(auth: Self.jwt(iat: Self.now - 100)), &standIn, at: Self.now + 1202).status == 200, "a still valid older token is taken")
        var lenient = Self.standIn { $0.tokenUpdateInterval = 0 }
        #expect(Self.decide(Self.request(auth: Self.jwt(iat: Self.now - 1)), &lenient).status == 200)
        #expect(Self.decide(Self.request(auth: Self.jwt(iat: Self.now - 2)), &lenient).status == 200)
    }

    @Test("a provider token's signature is checked once: later requests with it skip ES256 but not its age")
    func verifiedOnce() {
        final class Counting: SignatureCheck {
            var calls = 0
            func verify(keyID: String, input: [UInt8], signature: [UInt8]) -> Bool {
                calls += 1
                return LetterSignatures().verify(keyID: keyID, input: input, signature: signature)
            }
        }
        let counting = Counting()
        var rules = ProviderTokenRules(teamID: "TEAM1", keyIDs: ["KEY1"])
        let token = Self.jwt(iat: Self.now - 100)
        for step in 0..<50 { #expect(rules.check(authorization: token, now: Self.now + Double(step), signatures: counting).0 == nil) }
        #expect(counting.calls == 1 && rules.verifiedCount == 1)
        let forged = Self.jwt(iat: Self.now - 100, signedBy: "X")
        for _ in 0..<3 { #expect(rules.check(authorization: forged, now: Self.now, signatures: counting).0 == .invalidProviderToken) }
        #expect(counting.calls == 4 && rules.verifiedCount == 1, "a token that failed is checked again every time, never kept")
        #expect(rules.check(authorization: token, now: Self.now + 3501, signatures: counting).0 == .expiredProviderToken)
        #expect(rules.verifiedCount == 0, "an expired token is forgotten")
        #expect(rules.check(authorization: token, now: Self.now + 3502, signatures: counting).0 == .expiredProviderToken)
        #expect(counting.calls == 5)
        for index in 0..<(ProviderTokenRules.verifiedCap + 10) {
            _ = rules.check(authorization: Self.jwt(iat: Self.now - Double(index)), now: Self.now, signatures: counting)
        }
        #expect(rules.verifiedCount <= ProviderTokenRules.verifiedCap, "the verified tokens are bounded")
    }

    @Test("headers: seen twice, topic, push type and its topic suffix, priority, ids, dates, collapse ids")
    func headers() {
        #expect(Self.reason(Self.request(extra: [("apns-topic", Self.bundle)])) == .duplicateHeaders)
        #expect(Self.reason(Self.request(extra: [("apns-priority", "10"), ("APNS-PRIORITY", "10")])) == .duplicateHeaders)
        #expect(Self.reason(Self.request(topic: nil)) == .missingTopic)
        #expect(Self.reason(Self.request(topic: "")) == .missingTopic)
        #expect(Self.reason(Self.request(topic: "no dots here")) == .badTopic)
        #expect(Self.reason(Self.request(topic: "com..example")) == .badTopic)
        #expect(Self.reason(Self.request()) { $0.topics = ["com.example.other"] } == .topicDisallowed)
        #expect(Self.reason(Self.request()) { $0.topics = [Self.bundle] } == nil)
        #expect(Self.reason(Self.request(extra: [("apns-push-type", "banner")])) == .invalidPushType)
        #expect(Self.reason(Self.request(extra: [("apns-push-type", "voip")])) == .badTopic)
        #expect(Self.reason(Self.request(topic: Self.bundle + ".voip", extra: [("apns-push-type", "voip")])) == nil)
        for type in APNsPushType.allCases {
            let topic = Self.bundle + (type.topicSuffix ?? "")
            let priority = type == .background ? "5" : "10"
            #expect(Self.reason(Self.request(topic: topic, extra: [("apns-push-type", type.rawValue), ("apns-priority", priority)])) == nil, "\(type)")
        }
        #expect(APNsPushType.liveactivity.bundleID(ofTopic: Self.bundle + ".push-type.liveactivity") == Self.bundle)
        #expect(Self.reason(Self.request(extra: [("apns-priority", "7")])) == .badPriority)
        #expect(Self.reason(Self.request(extra: [("apns-priority", "high")])) == .badPriority)
        #expect(Self.reason(Self.request(extra: [("apns-push-type", "background"), ("apns-priority", "10")])) == .badPriority)
        #expect(Self.reason(Self.request(extra: [("apns-id", "not-a-uuid")])) == .badMessageId)
        #expect(Self.reason(Self.request(extra: [("apns-expiration", "tomorrow")])) == .badExpirationDate)
        #expect(Self.reason(Self.request(extra: [("apns-expiration", "-5")])) == .badExpirationDate)
        #expect(Self.reason(Self.request(extra: [("apns-collapse-id", String(repeating: "c", count: 65))])) == .badCollapseId)
        #expect(Self.reason(Self.request(extra: [("apns-collapse-id", String(repeating: "c", count: 64))])) == nil)
    }

    @Test("payloads: empty is 400, over 4096 bytes 413 (5120 for VoIP); not JSON is taken with a warning")
    func payloads() {
        #expect(Self.reason(Self.request(body: "")) == .payloadEmpty)
        let exact = #"{"aps":{},"x":""#, close = #""}"#
        let fits = exact + String(repeating: "a", count: 4096 - exact.utf8.count - close.utf8.count) + close
        #expect(fits.utf8.count == 4096 && Self.reason(Self.request(body: fits)) == nil)
        var standIn = Self.standIn()
        let large = Self.decide(Self.request(body: fits + " "), &standIn)
        #expect(large.status == 413 && large.reason == .payloadTooLarge)
        #expect(Self.reason(Self.request(topic: Self.bundle + ".voip", extra: [("apns-push-type", "voip")], body: fits + " ")) == nil)
        let text = Self.decide(Self.request(body: "hello"), &standIn)
        #expect(text.status == 200 && text.warnings.count == 1)
    }

    @Test("devices: the environment and app a token belongs to; given devices make unknown tokens bad")
    func devices() {
        var standIn = Self.standIn()
        #expect(Self.decide(Self.request(), &standIn).status == 200)
        #expect(Self.decide(Self.request(), &standIn, environment: .production).reason == .badDeviceToken)
        #expect(Self.decide(Self.request(topic: "com.example.other"), &standIn).reason == .deviceTokenNotForTopic)
        #expect(Self.decide(Self.request(topic: Self.bundle + ".voip", extra: [("apns-push-type", "voip")]), &standIn).status == 200)
        var strict = Self.standIn { $0.devices = [Self.token: APNsDevice(bundleID: Self.bundle, environment: .production)] }
        #expect(Self.decide(Self.request(), &strict, environment: .production).status == 200)
        #expect(Self.decide(Self.request(), &strict).reason == .badDeviceToken)
        #expect(Self.decide(Self.request(path: "/3/device/" + Self.other), &strict, environment: .production).reason == .badDeviceToken)
        guard case .success(let parsed) = APNsDevice.parse(Self.token.uppercased() + "=com.example.app@production") else { Issue.record("parse"); return }
        #expect(parsed.token == Self.token && parsed.device == APNsDevice(bundleID: Self.bundle, environment: .production))
        guard case .success(let plain) = APNsDevice.parse(Self.token + "=com.example.app") else { Issue.record("parse"); return }
        #expect(plain.device.environment == .sandbox)
        for bad in ["nothing", Self.token + "=app", "xyz=com.example.app", Self.token + "=com.example.app@moon"] {
            guard case .failure = APNsDevice.parse(bad) else { Issue.record("\(bad) parsed"); continue }
        }
    }

    @Test("devices learned from pushes are bounded: past the limit the oldest is forgotten, given and re-learned ones stay")
    func learnedDevicesBounded() {
        func token(_ n: Int) -> String { String(repeating: "0", count: 64 - String(n, radix: 16).count) + String(n, radix: 16) }
        var standIn = Self.standIn { $0.learnedDeviceLimit = 3 }
        for n in 1...3 { #expect(Self.decide(Self.request(path: "/3/device/" + token(n)), &standIn).status == 200) }
        #expect(Self.decide(Self.request(path: "/3/device/" + token(1), topic: "com.example.other"), &standIn).reason == .deviceTokenNotForTopic,
                "within the limit a token keeps its app")
        standIn.learn(token: token(2), device: APNsDevice(bundleID: Self.bundle, environment: .sandbox))  // known: not learned again
        #expect(Self.decide(Self.request(path: "/3/device/" + token(4)), &standIn).status == 200)
        #expect(standIn.devices.count == 3 && standIn.devices[token(1)] == nil, "the oldest is forgotten")
        #expect(Self.decide(Self.request(path: "/3/device/" + token(1), topic: "com.example.other"), &standIn).status == 200,
                "a forgotten token's next push is a first one")
        #expect(standIn.devices[token(2)] == nil && standIn.devices.count == 3)

        // A flood of new tokens leaves the table at the limit; a given device is never forgotten.
        var strict = Self.standIn { $0.learnedDeviceLimit = 2; $0.devices = [Self.token: APNsDevice(bundleID: Self.bundle, environment: .sandbox)] }
        for n in 1...5000 { strict.learn(token: token(n), device: APNsDevice(bundleID: Self.bundle, environment: .sandbox)) }
        #expect(strict.devices.count == 3 && strict.devices[Self.token] != nil && strict.devices[token(5000)] != nil)
        #expect(Self.decide(Self.request(), &strict).status == 200)
        var flood = Self.standIn { $0.learnedDeviceLimit = 100 }
        for n in 1...3000 { _ = Self.decide(Self.request(path: "/3/device/" + token(n)), &flood) }
        #expect(flood.devices.count == 100 && flood.devices[token(3000)] != nil && flood.devices[token(2900)] == nil)
    }

    @Test("faults: 410 with the time the token went, any reason for every push, slow answers, a seeded share")
    func faults() throws {
        func fault(_ text: String) throws -> APNsFault { try APNsFault.parse(text).get() }
        var standIn = Self.standIn { options in
            options.faults = [try! fault(Self.token + "=Unregistered"), try! fault(Self.other.uppercased() + "=slow:250")]
        }
        let gone = Self.decide(Self.request(), &standIn)
        #expect(gone.status == 410 && gone.reason == .unregistered && gone.timestamp == standIn.startedMs && gone.fault == "Unregistered")
        let body = try JSONParser.parse(bytes: gone.body).objectValue
        #expect(body?["reason"]?.stringValue == "Unregistered" && body?["timestamp"]?.integerValue == Int(standIn.startedMs))
        #expect(gone.accepted == nil)
        let slow = Self.decide(Self.request(path: "/3/device/" + Self.other), &standIn)
        #expect(slow.status == 200 && slow.delayMs == 250 && slow.accepted != nil && slow.fault == "slow:250")
        for reason in APNsReason.allCases {
            var every = Self.standIn { $0.faults = [APNsFault(target: .every, effect: .answer(reason))] }
            let decision = Self.decide(Self.request(), &every)
            #expect(decision.status == reason.status && decision.reason == reason)
            #expect((decision.timestamp != nil) == reason.isGone)
        }
        var expired = Self.standIn { $0.faults = [try! fault(Self.token + "=ExpiredToken")] }
        #expect(Self.decide(Self.request(), &expired).reason == .expiredToken)
        func shares(seed: UInt64) -> [Int] {
            var random = Self.standIn { $0.faults = [try! fault("random:0.5=503")]; $0.seed = seed }
            return (0..<40).map { _ in Self.decide(Self.request(), &random).status }
        }
        let first = shares(seed: 7)
        #expect(first == shares(seed: 7), "a seed repeats its faults")
        #expect(first.contains(503) && first.contains(200) && Set(first) == [200, 503])
        var none = Self.standIn { $0.faults = [try! fault("random:0=429")] }
        #expect(Self.decide(Self.request(), &none).status == 200)
        var all = Self.standIn { $0.faults = [try! fault("random:1=429")] }
        #expect(Self.decide(Self.request(), &all).reason == .tooManyRequests)
        #expect(Self.reason(Self.request(method: "GET")) == .methodNotAllowed, "a fault never hides a bad request")
        for bad in ["", "Unregistered", "xyz=410", "random:2=503", "all=Teapot", "all=slow:-1", "all=slow:999999", "all=404"] {
            guard case .failure = APNsFault.parse(bad) else { Issue.record("\(bad) parsed"); continue }
        }
    }

    @Test("a record line: time, headers that matter, the token by key and team only, payload, answer")
    func record() throws {
        var standIn = Self.standIn { $0.faults = [try! APNsFault.parse("all=slow:5").get()] }
        let request = Self.request(extra: [("apns-push-type", "alert"), ("user-agent", "x")])
        let decision = Self.decide(request, &standIn)
        let line = APNsRecord.line(request, decision, environment: .sandbox, transport: "h2", time: Self.now + 0.25, delivered: true)
        #expect(!line.contains("\n") && !line.contains(Self.jwt().dropFirst(7)))
        let object = try #require(try JSONParser.parse(line).objectValue)
        #expect(object["time"]?.stringValue == "2027-01-15T08:00:00.250Z")
        #expect(object["headers"]?.objectValue?.keys == ["apns-topic", "apns-push-type"])
        #expect(object["provider"]?.objectValue?["kid"]?.stringValue == "KEY1")
        #expect(object["payload"]?.objectValue?["aps"] != nil)
        #expect(object["answer"]?.objectValue?["status"]?.integerValue == 200)
        #expect(object["delivered"]?.boolValue == true && object["delayMs"]?.integerValue == 5)
        #expect(APNsRecord.iso8601(0) == "1970-01-01T00:00:00.000Z")
    }

    @Test("base64url decoding round-trips and refuses other alphabets")
    func base64() {
        for count in 0..<20 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("a+b/") == nil && Base64URL.decode("abcde") == nil && Base64URL.decode("YQ==") == [0x61])
    }
}

extension String {
    func replacingFirst(_ old: String, _ new: String) -> String {
        guard let range = range(of: old) else { return self }
        return replacingCharacters(in: range, with: new)
    }
}
