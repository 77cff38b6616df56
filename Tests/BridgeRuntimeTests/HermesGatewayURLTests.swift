import HostCore
@testable import Push
import Testing

@Suite("The Hermes gateway as the plugin reaches it: URLs, its wait on APNs, a kept provider token")
struct HermesGatewayURLTests {
    @Test("the plugin's register URL: …/push has its suffix replaced; any other URL registers at its origin", arguments: [
        ("http://127.0.0.1:9/push", "http://127.0.0.1:9/register"),
        ("http://gw/v1/push", "http://gw/v1/register"),
        ("https://gw.example.workers.dev/push", "https://gw.example.workers.dev/register"),
        ("http://127.0.0.1:9", "http://127.0.0.1:9/register"),
        ("http://127.0.0.1:9/", "http://127.0.0.1:9/register"),
        ("http://127.0.0.1:9/api/send", "http://127.0.0.1:9/register"),
        ("http://127.0.0.1:9/push/", "http://127.0.0.1:9/register"),
        ("http://127.0.0.1:9/x?to=/push#y", "http://127.0.0.1:9/register"),
        ("http://[::1]:9?q", "http://[::1]:9/register"),
    ])
    func registerURL(_ pushURL: String, _ expected: String) {
        #expect(HermesPluginSender.registerURL(pushURL: pushURL) == expected)
    }

    @Test("the gateway answers where the plugin sends for the URL it prints and for its bare base URL")
    func routes() {
        let base = "http://127.0.0.1:4711"
        #expect(HermesGateway.pushURL(base: base) == "http://127.0.0.1:4711/push")
        #expect(HermesGateway.pluginSetting(base: base) == "HERMES_PUSH_GATEWAY_URL=http://127.0.0.1:4711/push")
        // The printed URL: the push at /push, the register URL the plugin derives from it.
        for url in [HermesGateway.pushURL(base: base), base, base + "/"] {
            let pushPath = String(url.dropFirst(base.count))
            let registerPath = String(HermesPluginSender.registerURL(pushURL: url).dropFirst(base.count))
            #expect(HermesGateway.route(path: pushPath) == .push, "\(url)")
            #expect(HermesGateway.route(path: registerPath) == .register, "\(url)")
        }
        for other in ["/nothing", "/push/x", "/register/", "/v1/push"] { #expect(HermesGateway.route(path: other) == nil, "\(other)") }
    }

    @Test("the gateway's wait on APNs ends before the plugin's own timeout")
    func wait() {
        #expect(HermesGateway.apnsWaitSeconds > 0)
        #expect(HermesGateway.apnsWaitSeconds + 1 <= HermesPluginSender.timeoutSeconds)
    }

    static func token(team: String = "TEAM1", key: String = "KEY1", issuedAt: Double) -> String {
        let header = Base64URL.encode(JSONWriter.bytes(["alg": "ES256", "kid": .string(key)]))
        let claims = Base64URL.encode(JSONWriter.bytes(["iss": .string(team), "iat": .number(issuedAt)]))
        return header + "." + claims + "." + Base64URL.encode([UInt8](repeating: 7, count: 64))
    }

    @Test("a kept provider token is reused while it is valid, by the same key and team only")
    func kept() throws {
        let made = 1_000_000.0
        let cache = ProviderTokenCache(token: Self.token(issuedAt: made), keyFingerprint: "ab12")
        let read = try #require(ProviderTokenCache(fileText: cache.fileText))
        #expect(read == cache)
        func reuse(_ now: Double, team: String = "TEAM1", key: String = "KEY1", print: String = "ab12") -> Bool {
            read.reusable(teamID: team, keyID: key, keyFingerprint: print, now: now) != nil
        }
        // A restart a minute later, or 20 minutes later (inside Apple's update window): the same token.
        #expect(reuse(made + 60) && reuse(made + 1200) && reuse(made + 2999))
        // Past the 50 minutes senders keep one, or before it was made: a new one.
        #expect(!reuse(made + 3000) && !reuse(made + 7200) && !reuse(made - 120))
        #expect(!reuse(made + 60, team: "TEAM2") && !reuse(made + 60, key: "KEY2") && !reuse(made + 60, print: "cd34"))
        for damaged in ["", "{}", "[1]", #"{"token":"x.y.z","key_fingerprint":"ab"}"#, #"{"token":"\#(Self.token(issuedAt: made))"}"#] {
            #expect(ProviderTokenCache(fileText: damaged) == nil, "\(damaged)")
        }
        #expect(ProviderTokenCache.fileName(teamID: "TEAM1", keyID: "KEY1") == "TEAM1.KEY1.json")
        #expect(ProviderTokenCache.fileName(teamID: "../x", keyID: "a/b") == "___x.a_b.json")
    }
}

@Suite("APNsConsole: what the stand-in says of where pushes go")
struct APNsConsoleTests {
    static let token = String(repeating: "ab", count: 32)

    @Test("where apps are looked for, and what decides it")
    func start() {
        #expect(APNsConsole.startLine(phoneDirectory: "/run/user/1000/hostshell/phones", runtimeDirectorySet: true)
                .contains("/run/user/1000/hostshell/phones ($XDG_RUNTIME_DIR)"))
        #expect(APNsConsole.startLine(phoneDirectory: "/home/ci/.cache/hostshell/phones", runtimeDirectorySet: false)
                .contains("XDG_RUNTIME_DIR is not set"))
    }

    @Test("a push no app holds is told once per token, for a bounded number of tokens, then once that the rest are not")
    func unheld() throws {
        var console = APNsConsole()
        let said = console.unheld(token: Self.token, phoneDirectory: "/d")
        let first = try #require(said)
        #expect(first.contains("…" + Self.token.suffix(8)) && first.contains("/d") && !first.contains(Self.token))
        let again = console.unheld(token: Self.token, phoneDirectory: "/d")
        let capitals = console.unheld(token: Self.token.uppercased(), phoneDirectory: "/d")
        #expect(again == nil && capitals == nil, "once per token, in any case")
        var told = 1
        for index in 0..<(APNsConsole.maxToldTokens * 2) {
            let hex = String(index, radix: 16)
            let other = hex + String(repeating: "0", count: 64 - hex.count)
            if console.unheld(token: other, phoneDirectory: "/d") != nil { told += 1 }
        }
        #expect(told == APNsConsole.maxToldTokens + 1, "\(told): the first \(APNsConsole.maxToldTokens) tokens, then one closing line")
    }

    @Test("--verbose: one line per request with what became of the push; a device's words cannot move the cursor")
    func verbose() {
        let request = APNsRequest(method: "POST", path: "/3/device/" + Self.token, headers: [("apns-topic", "com.example.app")], body: [])
        let decision = APNsDecision(status: 200, reason: nil, apnsID: "id")
        let line = APNsConsole.requestLine(request, decision, environment: .sandbox, transport: "HTTP/1.1",
                                           outcome: APNsConsole.outcome(nil))
        #expect(line == "APNs stand-in: sandbox HTTP/1.1 POST /3/device/…" + Self.token.suffix(8) + " topic com.example.app → 200, no app here holds the token")
        #expect(APNsConsole.outcome(.kept) == "kept for the app's next start" && APNsConsole.outcome(.delivered) == "delivered (delivered)")
        #expect(!APNsConsole.requestLine(request, decision, environment: .sandbox, transport: "h2", outcome: APNsConsole.outcome(.refused("\u{1b}[2J")))
            .contains("\u{1b}"))
    }
}
