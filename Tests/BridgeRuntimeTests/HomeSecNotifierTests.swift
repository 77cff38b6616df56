import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("HomeSec's apns_mobile notifier: targets, payload, request, outcomes, the fan-out and its retries")
struct HomeSecNotifierTests {
    static let config = HomeSecNotifier.Config(bundleID: "com.example.homesec", environment: "sandbox", baseURL: "http://127.0.0.1:9/")
    static let tokens = (1...5).map { String(repeating: String(format2: $0), count: 32) }

    /// A server with devices registered as the app registers them: `(token, environment, bundle)`.
    static func server(_ devices: [(String, String, String)], apns: HomeSecNotifier.Config? = config) -> HomeSecServer {
        var server = HomeSecServer(options: .init(apns: apns))
        for (index, device) in devices.enumerated() {
            let body: JSONValue = ["platform": "ios", "apns_token": .string(device.0), "environment": .string(device.1), "bundle_id": .string(device.2)]
            let answer = server.respond(HomeSecRequest(method: "POST", path: "/api/v1/mobile/devices", body: JSONWriter.bytes(body)),
                                        now: 1000, entropy: Array(repeating: UInt8(index), count: 16))
            #expect(answer.status == 201)
        }
        return server
    }

    static func raise(_ server: inout HomeSecServer, _ body: JSONValue, now: Double = 1_780_000_000) throws -> JSONObject {
        let answer = server.respond(HomeSecRequest(method: "POST", path: "/__test/event", body: JSONWriter.bytes(body)), now: now, entropy: Array(0..<16))
        #expect(answer.status == 202)
        return try #require(try JSONParser.parse(bytes: answer.body).objectValue)
    }

    static func sends(_ effects: [HomeSecNotifyEffect]) -> [(device: String, request: HomeSecNotifier.Outbound)] {
        effects.compactMap { if case .send(_, let device, let request) = $0 { return (device, request) } else { return nil } }
    }

    static let ok = HomeSecNotifier.outcome(status: 200, body: [])
    static func failure(_ status: Int, _ reason: String) -> HomeSecNotifier.Outcome {
        HomeSecNotifier.outcome(status: status, body: JSONWriter.bytes(["reason": .string(reason)]))
    }

    @Test("targets: enabled iOS devices of the configured environment and bundle only")
    func targets() throws {
        var server = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec"), (Self.tokens[1], "production", "com.example.homesec"),
                                  (Self.tokens[2], "sandbox", "com.example.other"), (Self.tokens[3], "sandbox", "com.example.homesec")])
        let disabled = server.devices.devices[3].id
        #expect(server.respond(HomeSecRequest(method: "DELETE", path: "/api/v1/mobile/devices/" + disabled), now: 1001, entropy: []).status == 200)
        let targets = HomeSecNotifier.targets(server.devices.devices, config: Self.config)
        #expect(targets.map(\.apnsToken) == [Self.tokens[0]])
    }

    @Test("payload and request as HomeSec builds them; the event id and its route for the page")
    func payloadAndRequest() throws {
        let event = HomeSecEvent(clipID: "clip 7/a", camera: "front_door", activityType: " person ", riskLevel: "high", time: 1_780_000_000)
        let payload = try #require(HomeSecNotifier.payload(event))
        let time = "8:26 PM"  // 1_780_000_000 is 2026-05-28T20:26:40Z
        #expect(String(decoding: payload, as: UTF8.self) == #"{"aps":{"alert":{"title":"front_door: person detected","body":"High-risk event at \#(time)."},"sound":"default","category":"HOMESEC_EVENT"},"type":"event_alert","event_id":"clip 7/a","camera":"front_door","risk_level":"high","activity_type":"person","route":"/events/clip%207%2Fa?from=notification"}"#)
        let plain = HomeSecEvent(clipID: "c1", camera: "garage", time: 1_780_000_000 - 20 * 3600)
        #expect(HomeSecNotifier.title(plain) == "garage: activity detected")
        #expect(HomeSecNotifier.body(plain) == "HomeSec event at 12:26 AM.")
        var summarized = plain
        summarized.summary = "  A person at the door \n"
        #expect(HomeSecNotifier.body(summarized) == "A person at the door")

        let request = HomeSecNotifier.request(config: Self.config, deviceToken: Self.tokens[0], providerToken: "h.c.s", payload: payload)
        #expect(request.url == "http://127.0.0.1:9/3/device/" + Self.tokens[0])
        #expect(request.headers == [.init("authorization", "bearer h.c.s"), .init("apns-topic", "com.example.homesec"),
                                    .init("apns-push-type", "alert"), .init("apns-priority", "10")])
        #expect(HomeSecNotifier.Config(bundleID: "b", environment: "production").baseURL == "https://api.push.apple.com")
    }

    @Test("a body too long for 4096 bytes is cut to the longest prefix that fits, by code points")
    func payloadLimit() throws {
        let long = HomeSecEvent(clipID: "c", camera: "cam", summary: String(repeating: "é", count: 5000), time: 0)
        let payload = try #require(HomeSecNotifier.payload(long))
        #expect(payload.count <= 4096 && payload.count >= 4094)
        let body = try #require(try JSONParser.parse(bytes: payload).objectValue?["aps"]?.objectValue?["alert"]?.objectValue?["body"]?.stringValue)
        #expect(body.unicodeScalars.allSatisfy { $0 == "é" } && body.count > 1900)
        let hopeless = HomeSecEvent(clipID: String(repeating: "x", count: 5000), camera: "cam", time: 0)
        #expect(HomeSecNotifier.payload(hopeless) == nil)
    }

    @Test("outcomes: 410 or a dead-token reason at any status is permanent; everything else, 4xx included, retryable", arguments: [
        (200, "", HomeSecNotifier.Outcome.Kind.delivered, nil as String?),
        (410, "Unregistered", .rejected, "HTTP 410: Unregistered"),
        (410, "ExpiredToken", .rejected, "HTTP 410: ExpiredToken"),
        (400, "BadDeviceToken", .rejected, "HTTP 400: BadDeviceToken"),
        (400, "DeviceTokenNotForTopic", .rejected, "HTTP 400: DeviceTokenNotForTopic"),
        (400, "BadTopic", .retryable, "HTTP 400: BadTopic"),
        (403, "ExpiredProviderToken", .retryable, "HTTP 403: ExpiredProviderToken"),
        (413, "PayloadTooLarge", .retryable, "HTTP 413: PayloadTooLarge"),
        (429, "TooManyRequests", .retryable, "HTTP 429: TooManyRequests"),
        (503, "ServiceUnavailable", .retryable, "HTTP 503: ServiceUnavailable"),
        (500, "", .retryable, "HTTP 500: unknown"),
    ])
    func outcomes(_ status: Int, _ reason: String, _ kind: HomeSecNotifier.Outcome.Kind, _ error: String?) {
        let body = reason.isEmpty ? Array("<html>oops</html>".utf8) : JSONWriter.bytes(["reason": .string(reason)])
        #expect(HomeSecNotifier.outcome(status: status, body: body) == .init(kind: kind, error: error))
        #expect(HomeSecNotifier.outcome(status: nil, body: [], transportError: "ConnectError") == .init(kind: .retryable, error: "ConnectError"))
        #expect(HomeSecNotifier.reason(JSONWriter.bytes(["reason": .string("  " + String(repeating: "r", count: 300))])).count == 200)
    }

    @Test("an event goes to every target; each answer is recorded on its device; all delivered ends the run")
    func delivered() throws {
        var server = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec"), (Self.tokens[1], "sandbox", "com.example.homesec")])
        let raised = try Self.raise(&server, ["camera": "driveway", "clip_id": "evt-1", "activity_type": "car"])
        #expect(raised["event_id"] == "evt-1" && raised["route"] == "/events/evt-1?from=notification" && raised["targets"] == 2)
        let run = try #require(server.takeRaisedRuns().first)
        #expect(server.takeRaisedRuns().isEmpty)
        let sends = Self.sends(server.beginAttempt(run: run, providerToken: "tok", now: 50))
        #expect(sends.count == 2)
        #expect(server.answered(run: run, deviceID: sends[0].device, outcome: Self.ok).isEmpty)
        #expect(server.notify.runs[0].phase == .sending)
        #expect(server.answered(run: run, deviceID: sends[1].device, outcome: Self.ok).isEmpty)
        #expect(server.notify.runs[0].phase == .delivered)
        #expect(server.devices.devices.allSatisfy { $0.lastPushAt == 50 && $0.lastPushError == nil && $0.enabled })
        #expect(server.answered(run: run, deviceID: sends[1].device, outcome: Self.ok).isEmpty, "an answer nobody waits for changes nothing")
    }

    @Test("Unregistered disables the device; no retry when the only failure is permanent")
    func permanent() throws {
        var server = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec")])
        _ = try Self.raise(&server, [:])
        let run = try #require(server.takeRaisedRuns().first)
        let sends = Self.sends(server.beginAttempt(run: run, providerToken: "tok", now: 60))
        #expect(server.answered(run: run, deviceID: sends[0].device, outcome: Self.failure(410, "Unregistered")).isEmpty)
        #expect(server.notify.runs[0].phase == .failed(retryable: false))
        #expect(server.notify.runs[0].error == "APNs delivery failed for 1 of 1 device(s)")
        let device = server.devices.devices[0]
        #expect(!device.enabled && device.lastPushError == "HTTP 410: Unregistered" && device.updatedAt == 60)
        #expect(HomeSecNotifier.targets(server.devices.devices, config: Self.config).isEmpty)
    }

    @Test("503 everywhere: retried after 1 s and 2 s, 3 attempts in all, then failed as retryable")
    func retries() throws {
        var server = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec")])
        _ = try Self.raise(&server, [:])
        let run = try #require(server.takeRaisedRuns().first)
        var delays: [Double] = []
        for attempt in 1...3 {
            let sends = Self.sends(server.beginAttempt(run: run, providerToken: "tok", now: Double(attempt)))
            #expect(sends.count == 1)
            #expect(server.beginAttempt(run: run, providerToken: "tok", now: 0).isEmpty, "an attempt in flight is not begun twice")
            for effect in server.answered(run: run, deviceID: sends[0].device, outcome: Self.failure(503, "ServiceUnavailable")) {
                if case .retry(_, let after) = effect { delays.append(after) }
            }
        }
        #expect(delays == [1, 2])
        #expect(server.notify.runs[0].phase == .failed(retryable: true) && server.notify.runs[0].attempt == 3)
        #expect(server.beginAttempt(run: run, providerToken: "tok", now: 9).isEmpty)
        #expect(server.devices.devices[0].enabled && server.devices.devices[0].lastPushError == "HTTP 503: ServiceUnavailable")
        #expect(server.devices.devices[0].lastPushAt == 3)
    }

    @Test("a retry goes to the targets of its moment: a device disabled by the first attempt is left out")
    func retryTargets() throws {
        var server = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec"), (Self.tokens[1], "sandbox", "com.example.homesec")])
        _ = try Self.raise(&server, [:])
        let run = try #require(server.takeRaisedRuns().first)
        let first = Self.sends(server.beginAttempt(run: run, providerToken: "tok", now: 1))
        _ = server.answered(run: run, deviceID: first[0].device, outcome: Self.failure(400, "BadDeviceToken"))
        let effects = server.answered(run: run, deviceID: first[1].device, outcome: Self.failure(429, "TooManyRequests"))
        #expect(effects == [.retry(run: run, afterSeconds: 1)])
        let second = Self.sends(server.beginAttempt(run: run, providerToken: "tok", now: 2))
        #expect(second.map(\.device) == [first[1].device])
        _ = server.answered(run: run, deviceID: second[0].device, outcome: Self.ok)
        #expect(server.notify.runs[0].phase == .delivered)
    }

    @Test("a partial fan-out raises but is not retried: no device gets the push twice")
    func partial() throws {
        var server = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec"), (Self.tokens[1], "sandbox", "com.example.homesec")])
        _ = try Self.raise(&server, [:])
        let run = try #require(server.takeRaisedRuns().first)
        let sends = Self.sends(server.beginAttempt(run: run, providerToken: "tok", now: 1))
        _ = server.answered(run: run, deviceID: sends[0].device, outcome: Self.ok)
        #expect(server.answered(run: run, deviceID: sends[1].device, outcome: Self.failure(503, "ServiceUnavailable")).isEmpty)
        #expect(server.notify.runs[0].phase == .failed(retryable: false))
        #expect(server.notify.runs[0].error == "APNs delivery failed for 1 of 2 device(s)")
        #expect(server.beginAttempt(run: run, providerToken: "tok", now: 5).isEmpty)
        #expect(server.notify.runs[0].sends.count == 2)
    }

    @Test("no targets: delivered at once; no credentials or no notifier: failed before anything is sent")
    func nothingToSend() throws {
        var empty = Self.server([])
        _ = try Self.raise(&empty, [:])
        #expect(empty.beginAttempt(run: 1, providerToken: "tok", now: 1).isEmpty && empty.notify.runs[0].phase == .delivered)
        var unsigned = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec")])
        _ = try Self.raise(&unsigned, [:])
        #expect(unsigned.beginAttempt(run: 1, providerToken: nil, now: 1).isEmpty)
        #expect(unsigned.notify.runs[0].phase == .failed(retryable: false) && unsigned.notify.runs[0].error == HomeSecNotifier.missingCredentials)
        var bare = Self.server([(Self.tokens[0], "sandbox", "com.example.homesec")], apns: nil)
        let raised = try Self.raise(&bare, [:])
        #expect(raised["notifier"] == "not configured" && raised["targets"] == .null)
        #expect(bare.beginAttempt(run: 1, providerToken: "tok", now: 1).isEmpty && bare.notify.runs[0].phase == .failed(retryable: false))
    }

    @Test("the event hook: defaults, validation as HomeSec answers it, POST only, and the log shows each run")
    func hook() throws {
        var server = Self.server([])
        let raised = try Self.raise(&server, [:])
        #expect(raised["event_id"]?.stringValue?.hasPrefix("front_door_") == true)
        let bad = server.respond(HomeSecRequest(method: "POST", path: "/__test/event", body: Array(#"{"camera":5}"#.utf8)), now: 0, entropy: [])
        #expect(bad.status == 422)
        #expect(server.respond(HomeSecRequest(method: "GET", path: "/__test/event"), now: 0, entropy: []).status == 405)
        let log = server.respond(HomeSecRequest(method: "GET", path: "/__test/log"), now: 0, entropy: [])
        let runs = try #require(try JSONParser.parse(bytes: log.body).objectValue?["notifications"]?.arrayValue)
        #expect(runs.count == 1 && runs[0].objectValue?["state"] == "waiting")
    }

    @Test("the provider token is signed again after 50 minutes, or when the clock went back")
    func tokenRefresh() {
        #expect(HomeSecNotifier.providerTokenIsStale(issuedAt: nil, now: 0))
        #expect(!HomeSecNotifier.providerTokenIsStale(issuedAt: 100, now: 100 + 2999))
        #expect(HomeSecNotifier.providerTokenIsStale(issuedAt: 100, now: 100 + 3000))
        #expect(HomeSecNotifier.providerTokenIsStale(issuedAt: 100, now: 99))
    }
}

private extension String {
    /// Two hex digits.
    init(format2 value: Int) {
        let digits = Array("0123456789abcdef")
        self = String(digits[(value >> 4) & 15]) + String(digits[value & 15])
    }
}
