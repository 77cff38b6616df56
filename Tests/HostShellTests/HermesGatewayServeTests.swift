import Foundation
import Testing

@Suite("hostshell hermes-gateway serve: capabilities and pushes through the APNs stand-in", .serialized)
struct HermesGatewayServeTests {
    static let live = String(repeating: "1a", count: 32)
    static let pruned = String(repeating: "2b", count: 32)

    static func post(_ url: String, _ object: [String: Any]) throws -> CurlAnswer {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return try Curl.send(url, mode: ["--http1.1"], headers: [("Content-Type", "application/json")], body: body)
    }

    @Test("register → the hpc1 capability; push → Apple's request; a stale capability 403; a gone token 410")
    func gateway() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("GWKEY")
        let record = keys.path("record.jsonl")
        let standIn = try APNsProcess(["--team", "TEAMHERMES", "--key", "GWKEY=" + publicKey, "--record", record,
                                       "--fault", Self.pruned + "=Unregistered"])
        defer { standIn.stop() }
        let sandbox = try #require(standIn.ports["sandbox"])
        let process = Process()
        process.executableURL = HostShellBinary.url
        process.arguments = ["hermes-gateway", "serve", "--secret", "s3cret", "--team", "TEAMHERMES", "--key-id", "GWKEY",
                             "--key-file", keys.path("GWKEY.key"), "--topic", "com.example.hermes", "--apns-sandbox", "http://127.0.0.1:\(sandbox)"]
        process.environment = HostShellBinary.environment()
        let output = keys.directory.appendingPathComponent("gateway.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { stopProcess(process) }
        var url = ""
        waitUntil(timeout: 10) {
            url = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return url.hasPrefix("http://") || !process.isRunning
        }
        try #require(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/push"), "it prints the push URL the plugin is configured with")
        let base = String(url.dropLast("/push".count))

        let registered = try Self.post(base + "/register", ["device_token": Self.live])
        let capability = try #require(registered.json?["capability"] as? String)
        // The same HMAC from the openssl tool: hex HMAC-SHA256(secret, "hpc1:" + token).
        let input = keys.path("hmac-input")
        try Data(("hpc1:" + Self.live).utf8).write(to: URL(fileURLWithPath: input))
        let expected = try APNsKeys.openssl(["dgst", "-sha256", "-hmac", "s3cret", "-r", input]).split(separator: " ").first.map(String.init)
        #expect(registered.status == 200 && capability == expected)

        let push: [String: Any] = ["device_token": Self.live, "apns_env": "sandbox", "capability": capability, "type": "approval",
                                   "session_id": "sess-9", "title": "Approval needed", "body": "Hermes needs your approval"]
        let sent = try Self.post(url, push)
        #expect(sent.status == 200 && sent.json?["ok"] as? Bool == true, "\(sent)")
        // The stand-in records a push once it has answered it: wait for the line.
        var lastLine: Substring?
        _ = waitUntil(timeout: 10) {
            lastLine = ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").last
            return lastLine != nil
        }
        let line = try #require(lastLine, "the stand-in recorded nothing")
        let recorded = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let headers = try #require(recorded["headers"] as? [String: String])
        #expect(headers == ["apns-topic": "com.example.hermes", "apns-push-type": "alert", "apns-priority": "10", "apns-collapse-id": "sess-9"])
        let payload = try #require(recorded["payload"] as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["thread-id"] as? String == "sess-9" && aps["interruption-level"] as? String == "time-sensitive" && aps["sound"] as? String == "default")
        #expect(payload["session_id"] as? String == "sess-9" && payload["type"] as? String == "approval")
        #expect((recorded["answer"] as? [String: Any])?["status"] as? Int == 200)

        // A session id with a line break would add a header of its own to Apple's request (and
        // trip libsoup's critical, fatal here): refused with 400, and the gateway goes on.
        var injected = push
        injected["session_id"] = "sess-9\r\nx-evil: 1"
        let refused = try Self.post(url, injected)
        #expect(refused.status == 400 && (refused.json?["error"] as? String)?.contains("apns-collapse-id") == true, "\(refused)")
        #expect(process.isRunning)
        #expect(try Self.post(url, push).status == 200, "the gateway still answers")

        var stale = push
        stale["capability"] = String(repeating: "0", count: 64)
        #expect(try Self.post(url, stale).status == 403)
        let prunedCapability = try #require(try Self.post(base + "/register", ["device_token": Self.pruned]).json?["capability"] as? String)
        var gone = push
        gone["device_token"] = Self.pruned
        gone["capability"] = prunedCapability
        let goneAnswer = try Self.post(url, gone)
        #expect(goneAnswer.status == 410 && goneAnswer.json?["reason"] as? String == "Unregistered")
        var production = push
        production["apns_env"] = "production"
        #expect(try Self.post(url, production).status == 502, "no production base URL: retryable")
        #expect(try Self.post(base + "/nothing", [:]).status == 404)
    }

    @Test("bad arguments are refused with one clear line; --help lists every flag", arguments: [
        [], ["--secret", "s"], ["--secret", "s", "--team", "T", "--key-id", "K", "--key-file", "/nonexistent", "--topic", "com.x.y",
                                "--apns-sandbox", "http://127.0.0.1:1"],
        ["--secret", "s", "--team", "T", "--key-id", "K", "--key-file", "/dev/null", "--topic", "com.x.y"],
        ["--apns-sandbox", "ftp://x"], ["--port", "0"], ["--frobnicate"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let run = try HostShellBinary.run(["hermes-gateway", "serve"] + arguments)
        #expect(run.status == 2 && run.stderr.hasPrefix("hostshell: ") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        let help = try HostShellBinary.run(["hermes-gateway", "serve", "--help"])
        #expect(help.status == 0)
        for flag in ["--secret", "--team", "--key-id", "--key-file", "--topic", "--apns-sandbox", "--apns-production", "--port"] {
            #expect(help.stdout.contains(flag), "\(flag) is in the help")
        }
    }
}
