import Foundation
import Testing

/// A `hostshell …` process with its stdout and stderr kept in files, in an environment of the
/// test's choosing (variables can be removed, not only added).
final class LoggedProcess {
    let process = Process()
    let out: URL, err: URL

    init(_ arguments: [String], environment: [String: String] = [:], removing: [String] = []) throws {
        process.executableURL = HostShellBinary.url
        process.arguments = arguments
        var env = HostShellBinary.environment(environment)
        for name in removing { env[name] = nil }
        process.environment = env
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-logged-\(UUID().uuidString)")
        out = base.appendingPathExtension("out")
        err = base.appendingPathExtension("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
    }

    var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// Waits until stdout has `lines` lines (or the process ended) and returns them.
    func lines(_ lines: Int, timeout: Double = 15) -> [String] {
        var seen: [String] = []
        waitUntil(timeout: timeout) { [process] in
            seen = stdout.split(separator: "\n").map(String.init)
            return seen.count >= lines || !process.isRunning
        }
        return seen
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
}

/// Issue 28 item 7: the gateway as the hermes-push plugin uses it — the URL it prints and the
/// register URL the plugin derives from it, a slow APNs, a restart with a valid provider token.
@Suite("hermes-gateway serve as the plugin reaches it: its URLs, a slow APNs, a restart", .serialized)
final class HermesGatewayPluginTests {
    static let team = "TEAMHGP"
    static let device = String(repeating: "3c", count: 32)
    static let slow = String(repeating: "4d", count: 32)
    let keys: APNsKeys
    /// The provider-token cache the test's processes share (and no other run's).
    let cache: String
    let standIn: APNsProcess
    let sandbox: Int

    init() throws {
        keys = try APNsKeys()
        let publicKey = try keys.make("GPKEY")
        cache = keys.path("cache")
        // Apple's own rule: a new provider token for a key at most every 20 minutes.
        standIn = try APNsProcess(["--team", Self.team, "--key", "GPKEY=" + publicKey, "--fault", Self.slow + "=slow:6000"])
        sandbox = try #require(standIn.ports["sandbox"])
    }

    deinit { standIn.stop() }

    func gateway(_ extra: [String] = []) throws -> LoggedProcess {
        try LoggedProcess(["hermes-gateway", "serve", "--secret", "s", "--team", Self.team, "--key-id", "GPKEY", "--key-file", keys.path("GPKEY.key"),
                           "--topic", "com.example.hermes", "--apns-sandbox", "http://127.0.0.1:\(sandbox)"] + extra,
                          environment: ["XDG_CACHE_HOME": cache])
    }

    static func post(_ url: String, _ object: [String: Any]) throws -> CurlAnswer {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return try Curl.send(url, mode: ["--http1.1"], headers: [("Content-Type", "application/json")], body: body)
    }

    /// Registers `token` at `base`/register and pushes it to `url` as the plugin would.
    static func push(_ token: String, base: String, url: String) throws -> CurlAnswer {
        let capability = try #require(try post(base + "/register", ["device_token": token]).json?["capability"] as? String)
        return try post(url, ["device_token": token, "apns_env": "sandbox", "capability": capability, "type": "complete",
                              "session_id": "s-1", "title": "Turn complete", "body": "Hermes finished the turn"])
    }

    @Test("it prints its push URL and the plugin's setting line; pushes are answered at that URL and at the bare base URL")
    func urls() throws {
        let process = try gateway()
        defer { process.stop() }
        let url = try #require(process.lines(1).first)
        try #require(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/push"), "\(url) \(process.stderr)")
        let base = String(url.dropLast("/push".count))
        #expect(waitUntil(timeout: 5) { process.stderr.contains("HERMES_PUSH_GATEWAY_URL=" + url) }, "\(process.stderr)")
        // The plugin configured with the printed URL: register at …/register, push at …/push.
        #expect(try Self.push(Self.device, base: base, url: url).status == 200)
        // Configured with the bare base URL: the plugin posts to / and registers at the origin's /register.
        let bare = try Self.push(Self.device, base: base, url: base)
        #expect(bare.status == 200, "a push to / is answered, not dropped: \(bare.body)")
        #expect(try Self.push(Self.device, base: base, url: base + "/").status == 200)
    }

    @Test("a slow APNs: the gateway answers 502 (retryable) before the plugin's own 5 s timeout")
    func slowAPNs() throws {
        let process = try gateway()
        defer { process.stop() }
        let url = try #require(process.lines(1).first)
        let base = String(url.dropLast("/push".count))
        let started = Date()
        let answer = try Self.push(Self.slow, base: base, url: url)
        let took = Date().timeIntervalSince(started)
        #expect(answer.status == 502 && took < 5, "answered \(answer.status) after \(took) s: \(answer.body)")
        #expect(process.process.isRunning)
    }

    @Test("a hand-made token, then the gateway, then a restarted gateway, one key: no TooManyProviderTokenUpdates")
    func tokenKept() throws {
        // The README's push by hand: apns token, then curl straight to the stand-in.
        let made = try HostShellBinary.run(["apns", "token", "--team", Self.team, "--key-id", "GPKEY", "--key-file", keys.path("GPKEY.key")],
                                          environment: ["XDG_CACHE_HOME": cache])
        let jwt = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(made.status == 0 && jwt.split(separator: ".").count == 3, "\(made.stderr)")
        let byHand = try Curl.send("http://127.0.0.1:\(sandbox)/3/device/" + Self.device, mode: ["--http1.1"],
                                   headers: [("authorization", "bearer " + jwt), ("apns-topic", "com.example.hermes"), ("apns-push-type", "alert")],
                                   body: #"{"aps":{"alert":{"title":"Hi","body":"there"}}}"#)
        #expect(byHand.status == 200, "\(byHand.body)")
        for run in ["first", "restarted"] {
            let process = try gateway()
            defer { process.stop() }
            let url = try #require(process.lines(1).first)
            let answer = try Self.push(Self.device, base: String(url.dropLast("/push".count)), url: url)
            #expect(answer.status == 200, "the \(run) gateway: \(answer.body)")
        }
        // Without the kept token a restart signs a new one, which Apple's rule refuses.
        let forgetful = try gateway(["--no-token-cache"])
        defer { forgetful.stop() }
        let url = try #require(forgetful.lines(1).first)
        let refused = try Self.push(Self.device, base: String(url.dropLast("/push".count)), url: url)
        #expect(refused.status == 502 && refused.json?["reason"] as? String == "TooManyProviderTokenUpdates", "\(refused.body)")
    }

    @Test("apns token: bad arguments are one clear line; --help lists every flag", arguments: [
        [], ["--team", "T"], ["--team", "T", "--key-id", "K", "--key-file", "/nonexistent"], ["--team", "T", "--key-id", "K", "--key-file", "/dev/null"],
        ["--frobnicate"], ["--team"],
    ])
    func tokenArguments(_ arguments: [String]) throws {
        let run = try HostShellBinary.run(["apns", "token"] + arguments, environment: ["XDG_CACHE_HOME": cache])
        #expect(run.status == 2 && run.stderr.hasPrefix("hostshell: ") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        let help = try HostShellBinary.run(["apns", "token", "--help"])
        #expect(help.status == 0 && ["--team", "--key-id", "--key-file", "--new"].allSatisfy { help.stdout.contains($0) })
    }
}
