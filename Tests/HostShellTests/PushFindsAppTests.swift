import Foundation
import Testing

/// Issue 32 item 4 and issue 28 item 8 on the real processes: the stand-in says where it looks
/// for apps and when a push reaches none; Hermes' reference server answers as the real routes;
/// the emulated phone's "Send test notification" warns beside "sent" when the server's result failed.
@Suite("Push finds the app, or says so: apns serve's output, hermes-server's answers, the test send", .serialized)
final class PushFindsAppTests {
    static let team = "TEAMPF"
    static let unheld = String(repeating: "5e", count: 32)
    let home = TemporaryHome()
    let keys: APNsKeys
    let publicKey: String

    init() throws {
        keys = try APNsKeys()
        publicKey = try keys.make("PFKEY")
    }

    deinit { home.remove() }

    func standIn(_ extra: [String], environment: [String: String], removing: [String] = []) throws -> (LoggedProcess, Int) {
        let process = try LoggedProcess(["apns", "serve", "--team", Self.team, "--key", "PFKEY=" + publicKey] + extra,
                                        environment: environment, removing: removing)
        let lines = process.lines(2)
        let sandbox = lines.first { $0.hasPrefix("sandbox ") }?.split(separator: " ").dropFirst().first?.split(separator: ":").last.flatMap { Int($0) }
        return (process, try #require(sandbox, "the stand-in did not start: \(process.stderr)"))
    }

    @Test("apns serve says where it looks for apps ($XDG_RUNTIME_DIR, else the cache dir), that a push reached no app, and with --verbose each request")
    func standInSays() throws {
        let runtime = home.root.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let (withRuntime, _) = try standIn([], environment: home.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(waitUntil(timeout: 5) { withRuntime.stderr.contains(runtime + "/hostshell/phones ($XDG_RUNTIME_DIR)") }, "\(withRuntime.stderr)")
        withRuntime.stop()

        let cache = home.environment["XDG_CACHE_HOME"]!
        let (process, sandbox) = try standIn(["--verbose"], environment: home.environment, removing: ["XDG_RUNTIME_DIR"])
        defer { process.stop() }
        #expect(waitUntil(timeout: 5) { process.stderr.contains(cache + "/hostshell/phones (XDG_RUNTIME_DIR is not set") }, "\(process.stderr)")
        let jwt = try HostShellBinary.run(["apns", "token", "--team", Self.team, "--key-id", "PFKEY", "--key-file", keys.path("PFKEY.key")],
                                          environment: home.environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        func push() throws -> Int {
            try Curl.send("http://127.0.0.1:\(sandbox)/3/device/" + Self.unheld, mode: ["--http1.1"],
                          headers: [("authorization", "bearer " + jwt), ("apns-topic", "com.example.app"), ("apns-push-type", "alert")],
                          body: #"{"aps":{"alert":"hi"}}"#).status
        }
        #expect(try push() == 200 && push() == 200)
        #expect(waitUntil(timeout: 5) { process.stderr.components(separatedBy: ", no app here holds the token").count == 3 },
                "--verbose: a line per request: \(process.stderr)")
        #expect(process.stderr.components(separatedBy: "no app here holds that token").count == 2, "told once per token: \(process.stderr)")
        #expect(process.stderr.contains("…" + Self.unheld.suffix(8)) && !process.stderr.contains(jwt))

        // hostshell push to a token no app holds says where it looked, and what to share.
        let file = keys.path("hi.apns")
        try Data(#"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let pushed = try HostShellBinary.run(["push", Self.unheld, file], environment: home.environment)
        #expect(pushed.status != 0 && pushed.stderr.contains("running apps were looked for in ") && pushed.stderr.contains("XDG_RUNTIME_DIR"),
                "\(pushed.stderr)")
    }

    static func call(_ url: String, method: String = "POST", _ body: String?) throws -> CurlAnswer {
        try Curl.send(url, mode: [], method: method, headers: [("Content-Type", "application/json"), ("X-Hermes-Session-Token", "T")], body: body)
    }

    @Test("hermes-server: bad registration fields are 422 with FastAPI's detail list, any non-empty token is taken, the hub rows carry the real fields")
    func referenceServer() throws {
        let server = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", "http://127.0.0.1:9/push"])
        defer { server.stop() }
        let register = server.url + "/api/plugins/hermes-push/register"
        let bad = try Self.call(register, #"{"device_token":"","apns_env":"staging"}"#)
        let detail = try #require(bad.json?["detail"] as? [[String: Any]], "\(bad.body)")
        #expect(bad.status == 422 && detail.map { $0["type"] as? String } == ["string_too_short", "string_pattern_mismatch", "missing"])
        #expect(detail.map { ($0["loc"] as? [String])?.joined(separator: ".") } == ["body.device_token", "body.apns_env", "body.app_version"])
        #expect(try Self.call(register, "{nope").status == 422)
        let taken = try Self.call(register, #"{"device_token":"any-token","apns_env":"production","app_version":"2.1"}"#)
        #expect(taken.status == 200 && taken.json?["device_token"] as? String == "any-token", "\(taken.body)")
        let hub = try Self.call(server.url + "/api/dashboard/plugins/hub", method: "GET", nil)
        let row = try #require((hub.json?["plugins"] as? [[String: Any]])?.first { $0["name"] as? String == "hermes-push" })
        #expect(row["runtime_status"] as? String == "enabled" && row["source"] as? String == "user" && row["version"] is String
                && row["has_dashboard_manifest"] as? Bool == true && row["auth_required"] as? Bool == false, "\(row)")
        #expect(hub.json?["providers"] is [String: Any])
    }

    @Test("the phone's test send shows \"sent\" on a 200 as the phone does, with HostShell's warning when the server reached none of its devices")
    func testSendFailed() throws {
        // A gateway nobody answers on: the server's own result for the phone is a failure.
        let server = try ServingProcess(["hermes-server", "serve", "--session-token", "T", "--gateway", "http://127.0.0.1:9/push"])
        defer { server.stop() }
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("hs-pf-\(UUID().uuidString.prefix(8)).sock").path
        let phone = try ServingProcess(["device", "hermes", "--server", server.url, "--session-token", "T", "--control", socket],
                                       environment: home.environment)
        defer { phone.stop() }
        func ctl(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
            let run = try HostShellBinary.run(["ctl", socket] + arguments, environment: home.environment)
            return (run.status, run.stdout, run.stderr)
        }
        #expect(try ctl("wait", "hermes.readiness=ready").status == 0)
        #expect(try ctl("permission", "grant").status == 0)
        #expect(try ctl("wait", "hermes.registration.state=registered").status == 0)
        #expect(try ctl("hermes", "test").status == 0)
        let sent = try ctl("wait", "hermes.test.state=sent")
        let state = try ctl("state").out
        #expect(sent.status == 0, "\(sent.err) \(state)")
        #expect(state.contains("the server reached none of its 1 device(s)"), "\(state)")
    }
}
