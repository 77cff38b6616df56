import HostCore
import Push
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
