import Foundation
import Testing

/// Keys and provider tokens made at test time with the `openssl` tool: a P-256 key pair per
/// key id, tokens signed with `openssl dgst -sha256 -sign` (DER, turned into JWS's raw r‖s here).
final class APNsKeys {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-apns-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Makes a key pair; returns the public PEM's path.
    func make(_ name: String) throws -> String {
        let key = path(name + ".key"), pub = path(name + ".pem")
        try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
        try Self.openssl(["pkey", "-in", key, "-pubout", "-out", pub])
        return pub
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// `bearer <JWT>` signed with key file `signer`.
    func token(kid: String, team: String, iat: Int, signer: String) throws -> String {
        func b64(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let input = b64(Data(#"{"alg":"ES256","kid":"\#(kid)"}"#.utf8)) + "." + b64(Data(#"{"iss":"\#(team)","iat":\#(iat)}"#.utf8))
        let inputFile = path("input-\(UUID().uuidString)"), signatureFile = inputFile + ".sig"
        try Data(input.utf8).write(to: URL(fileURLWithPath: inputFile))
        try Self.openssl(["dgst", "-sha256", "-sign", path(signer + ".key"), "-out", signatureFile, inputFile])
        let der = [UInt8](try Data(contentsOf: URL(fileURLWithPath: signatureFile)))
        return "bearer " + input + "." + b64(Data(try Self.raw(der)))
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s, 32 bytes each.
    static func raw(_ der: [UInt8]) throws -> [UInt8] {
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            try #require(der[index] == 0x02)
            let length = Int(der[index + 1])
            var integer = Array(der[(index + 2)..<(index + 2 + length)])
            while integer.count > 32 && integer.first == 0 { integer.removeFirst() }
            out += Array(repeating: 0, count: 32 - integer.count) + integer
            index += 2 + length
        }
        return out
    }

    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl \(arguments.joined(separator: " ")) failed")
        return String(decoding: data, as: UTF8.self)
    }
}

/// `hostshell apns serve …` in its own process; its two listeners' ports.
final class APNsProcess {
    let process = Process()
    var ports: [String: Int] = [:]

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = HostShellBinary.url
        process.arguments = ["apns", "serve"] + arguments
        process.environment = HostShellBinary.environment(environment)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-apns-out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines: [Substring] = []
        waitUntil(timeout: 10) { [process] in
            lines = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.count >= 2 || !process.isRunning
        }
        for line in lines {
            let words = line.split(separator: " ")
            if words.count >= 2, let port = words[1].split(separator: ":").last.flatMap({ Int($0) }) { ports[String(words[0])] = port }
        }
        #expect(ports.count == 2, "the stand-in did not start: \(lines)")
    }

    func stop() { stopProcess(process) }
}

/// One request through curl: the HTTP version curl used, the status, headers and body.
struct CurlAnswer {
    var status = 0
    var version = ""
    var headers: [String: String] = [:]
    var body = ""
    var exitStatus: Int32 = 0
    var reason: String? { (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["reason"] as? String }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] }
}

enum Curl {
    static func send(_ url: String, mode: [String], method: String = "POST", headers: [(String, String)], body: String?) throws -> CurlAnswer {
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-curl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: headerFile) }
        var arguments = ["-s", "-S", "-X", method, "-D", headerFile.path, "-w", "\n%{http_code} %{http_version}", "--max-time", "30"] + mode
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var answer = CurlAnswer()
        answer.exitStatus = process.terminationStatus
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let last = (lines.last ?? "").split(separator: " ")
        answer.status = last.first.flatMap { Int($0) } ?? 0
        answer.version = last.count > 1 ? String(last[1]) : ""
        answer.body = lines.dropLast().joined(separator: "\n")
        for line in ((try? String(contentsOf: headerFile, encoding: .utf8)) ?? "").split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            answer.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return answer
    }
}

@Suite("hostshell apns serve: Apple's provider API over real HTTP/1.1, h2c and h2 over TLS", .serialized)
struct APNsServeTests {
    static let team = "TEAM123456"
    static let tokenA = String(repeating: "a1", count: 32)
    static let gone = String(repeating: "b2", count: 32)
    static let busy = String(repeating: "c3", count: 32)
    static let slow = String(repeating: "d4", count: 32)
    static let payload = #"{"aps":{"alert":{"title":"Front door","body":"Person detected"},"sound":"default"},"event_id":"e1"}"#
    static let tlsDirectory = HostShellBinary.root.appendingPathComponent("fixtures/tls").path

    @Test("every HTTP version, the tokens Apple refuses, request rules, environments, faults and the record")
    func endToEnd() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("KEY1"), _ = try keys.make("OTHER")
        let record = keys.path("record.jsonl")
        let server = try APNsProcess(["--team", Self.team, "--key", "KEY1=" + publicKey, "--tls", Self.tlsDirectory, "--record", record,
                                      "--fault", Self.gone + "=Unregistered", "--fault", Self.busy + "=429", "--fault", Self.slow + "=slow:30"])
        defer { server.stop() }
        let sandbox = try #require(server.ports["sandbox"]), production = try #require(server.ports["production"])
        let now = Int(Date().timeIntervalSince1970)
        let good = try keys.token(kid: "KEY1", team: Self.team, iat: now - 30, signer: "KEY1")
        let h2c = ["--http2-prior-knowledge"], h2 = ["--http2", "-k"], http1 = ["--http1.1"]
        func push(_ mode: [String], port: Int = sandbox, scheme: String = "http", token: String = APNsServeTests.tokenA, auth: String? = nil,
                  headers: [(String, String)] = [("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("apns-priority", "10")],
                  method: String = "POST", path: String? = nil, body: String? = APNsServeTests.payload) throws -> CurlAnswer {
            let authorization = [("authorization", auth ?? good)]
            return try Curl.send("\(scheme)://127.0.0.1:\(port)" + (path ?? "/3/device/\(token)"), mode: mode, method: method,
                                 headers: authorization + headers, body: body)
        }

        // A good push over each HTTP version.
        for (mode, scheme, version) in [(http1, "http", "1.1"), (h2c, "http", "2"), (h2, "https", "2")] {
            let answer = try push(mode, scheme: scheme)
            #expect(answer.status == 200 && answer.version == version, "\(scheme) \(mode): \(answer)")
            #expect(answer.headers["apns-id"].map { $0.count == 36 } == true && answer.body.isEmpty)
        }
        let echoed = try push(h2c, headers: [("apns-topic", "com.example.app"), ("apns-id", "123e4567-e89b-12d3-a456-426614174000")])
        #expect(echoed.status == 200 && echoed.headers["apns-id"] == "123e4567-e89b-12d3-a456-426614174000")
        // TLS is h2 only (ALPN): a client that asks for HTTP/1.1 over TLS gets no connection.
        let tlsOne = try push(["--http1.1", "-k"], scheme: "https")
        #expect(tlsOne.exitStatus != 0 && tlsOne.status == 0)

        // Provider tokens: signed by another key, expired, another team, unknown key, none, too many updates.
        for (mode, scheme) in [(h2, "https"), (http1, "http")] {
            let wrongKey = try keys.token(kid: "KEY1", team: Self.team, iat: now - 30, signer: "OTHER")
            #expect(try push(mode, scheme: scheme, auth: wrongKey).reason == "InvalidProviderToken")
            let expired = try keys.token(kid: "KEY1", team: Self.team, iat: now - 3700, signer: "KEY1")
            let expiredAnswer = try push(mode, scheme: scheme, auth: expired)
            #expect(expiredAnswer.status == 403 && expiredAnswer.reason == "ExpiredProviderToken")
            let otherTeam = try keys.token(kid: "KEY1", team: "OTHERTEAM1", iat: now - 30, signer: "KEY1")
            #expect(try push(mode, scheme: scheme, auth: otherTeam).reason == "InvalidProviderToken")
            let unknownKey = try keys.token(kid: "OTHER", team: Self.team, iat: now - 30, signer: "OTHER")
            #expect(try push(mode, scheme: scheme, auth: unknownKey).reason == "InvalidProviderToken")
            let missing = try Curl.send("\(scheme)://127.0.0.1:\(sandbox)/3/device/\(Self.tokenA)", mode: mode,
                                        headers: [("apns-topic", "com.example.app")], body: Self.payload)
            #expect(missing.status == 403 && missing.reason == "MissingProviderToken")
        }
        let refreshed = try keys.token(kid: "KEY1", team: Self.team, iat: now - 20, signer: "KEY1")
        let tooSoon = try push(h2c, auth: refreshed)
        #expect(tooSoon.status == 429 && tooSoon.reason == "TooManyProviderTokenUpdates")

        // Request rules, over h2 and HTTP/1.1.
        for (mode, scheme) in [(h2, "https"), (http1, "http")] {
            #expect(try push(mode, scheme: scheme, method: "GET", body: nil).status == 405)
            let badPath = try push(mode, scheme: scheme, path: "/3/devices/x")
            #expect(badPath.status == 404 && badPath.reason == "BadPath")
            #expect(try push(mode, scheme: scheme, token: "not-hex").reason == "BadDeviceToken")
            #expect(try push(mode, scheme: scheme, headers: [("apns-priority", "10")]).reason == "MissingTopic")
            #expect(try push(mode, scheme: scheme, headers: [("apns-topic", "com.example.app"), ("apns-push-type", "voip")]).reason == "BadTopic")
            #expect(try push(mode, scheme: scheme, headers: [("apns-topic", "com.example.app"), ("apns-priority", "7")]).reason == "BadPriority")
            let large = try push(mode, scheme: scheme, body: #"{"aps":{},"x":""# + String(repeating: "x", count: 4100) + #""}"#)
            #expect(large.status == 413 && large.reason == "PayloadTooLarge")
            #expect(try push(mode, scheme: scheme, body: "").reason == "PayloadEmpty")
            #expect(try push(mode, scheme: scheme, headers: [("apns-topic", "com.example.other")]).reason == "DeviceTokenNotForTopic")
        }
        // A token taken in sandbox does not belong to production.
        let wrongEnvironment = try push(h2c, port: production)
        #expect(wrongEnvironment.status == 400 && wrongEnvironment.reason == "BadDeviceToken")

        // Faults: 410 with a timestamp, 429, and a slow answer that still arrives.
        for (mode, scheme) in [(h2, "https"), (http1, "http"), (h2c, "http")] {
            let goneAnswer = try push(mode, scheme: scheme, token: Self.gone)
            #expect(goneAnswer.status == 410 && goneAnswer.reason == "Unregistered")
            #expect((goneAnswer.json?["timestamp"] as? NSNumber).map { $0.int64Value > Int64(now - 600) * 1000 } == true)
            let busyAnswer = try push(mode, scheme: scheme, token: Self.busy)
            #expect(busyAnswer.status == 429 && busyAnswer.reason == "TooManyRequests")
            #expect(try push(mode, scheme: scheme, token: Self.slow).status == 200)
        }

        // The record: one line per request that reached the API, never the token itself.
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count && objects.count >= 40)
        #expect(!lines.contains { $0.contains(good.dropFirst(7)) })
        let first = try #require(objects.first)
        #expect(first["transport"] as? String == "http/1.1" && first["environment"] as? String == "sandbox")
        #expect((first["headers"] as? [String: Any])?["apns-topic"] as? String == "com.example.app")
        #expect(((first["payload"] as? [String: Any])?["event_id"]) as? String == "e1")
        #expect((first["answer"] as? [String: Any])?["status"] as? Int == 200 && first["delivered"] as? Bool == false)
        #expect((first["provider"] as? [String: Any])?["kid"] as? String == "KEY1")
        #expect(Set(objects.compactMap { $0["transport"] as? String }) == ["http/1.1", "h2c", "h2"])
        #expect(objects.contains { $0["fault"] as? String == "slow:30" && $0["delayMs"] as? Int == 30 })
        #expect(objects.contains { ($0["answer"] as? [String: Any])?["reason"] as? String == "Unregistered" })
    }

    @Test("HTTP/1.1: a client keeps its connection from one push to the next, as httpx does")
    func http1KeepAlive() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("KEY1")
        let server = try APNsProcess(["--team", Self.team, "--key", "KEY1=" + publicKey])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(try #require(server.ports["sandbox"]))/3/device/\(Self.tokenA)"
        let good = try keys.token(kid: "KEY1", team: Self.team, iat: Int(Date().timeIntervalSince1970) - 30, signer: "KEY1")
        // Three pushes in one curl run: each transfer's status and how many connections it opened.
        var arguments: [String] = []
        for index in 0..<3 {
            if index > 0 { arguments.append("--next") }
            arguments += ["--http1.1", "-s", "-o", "/dev/null", "-w", "%{http_code} %{num_connects}\\n", "-H", "authorization: " + good,
                          "-H", "apns-topic: com.example.app", "--data", Self.payload, url]
        }
        let lines = try Shell.run("/usr/bin/curl", arguments).split(separator: "\n").map(String.init)
        #expect(lines == ["200 1", "200 0", "200 0"], "one connection for all three: \(lines)")
    }

    @Test("the stand-in follows who holds a token as app profiles appear, rotate their token and go, without a restart")
    func holdersFollowed() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("KEY1")
        let record = keys.path("record.jsonl")
        // A record file that was there, readable by everyone: the stand-in makes it owner-only
        // (its lines hold device tokens and payloads).
        FileManager.default.createFile(atPath: record, contents: nil, attributes: [.posixPermissions: 0o644])
        let home = TemporaryHome()
        defer { home.remove() }
        let runtime = home.root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try APNsProcess(["--team", Self.team, "--key", "KEY1=" + publicKey, "--record", record],
                                     environment: home.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        defer { server.stop() }
        let sandbox = try #require(server.ports["sandbox"]), production = try #require(server.ports["production"])
        let good = try keys.token(kid: "KEY1", team: Self.team, iat: Int(Date().timeIntervalSince1970) - 30, signer: "KEY1")
        let tokenB = String(repeating: "e5", count: 32)
        let profile = home.root.appendingPathComponent("data/hostshell/apps/com.example.app")
        func hold(_ token: String) throws {
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            let text = #"{"token":"\#(token.uppercased())","bundleId":"com.example.app","environment":"sandbox"}"#
            try text.write(to: profile.appendingPathComponent("push.json"), atomically: true, encoding: .utf8)
        }
        var sent = 0
        /// Pushes to `token`: the status and, once the record's line is there, its `delivered` (or the reason).
        func push(_ token: String, port: Int? = nil, topic: String = "com.example.app") throws -> (Int, String) {
            let answer = try Curl.send("http://127.0.0.1:\(port ?? sandbox)/3/device/\(token)", mode: ["--http2-prior-knowledge"],
                                       headers: [("authorization", good), ("apns-topic", topic)], body: Self.payload)
            sent += 1
            var lines: [Substring] = []
            waitUntil(timeout: 10) { lines = ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n"); return lines.count >= sent }
            let last = try #require(lines.count == sent ? lines.last : nil, "one record line per push")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            return (answer.status, answer.status == 200 ? json["delivered"].map { "\($0)" } ?? "none" : answer.reason ?? "no reason")
        }

        #expect(try push(Self.tokenA) == (200, "0"), "nothing here holds it: the profiles' folder does not exist yet")
        let mode = try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the record is owner-only: \(String(mode ?? 0, radix: 8))")
        try hold(Self.tokenA)
        #expect(try push(Self.tokenA) == (200, "kept"), "a profile made after the first push holds it")
        #expect(FileManager.default.fileExists(atPath: profile.appendingPathComponent("push-inbox.json").path), "the push waits in the profile")
        #expect(try push(Self.tokenA, topic: "com.example.other") == (400, "DeviceTokenNotForTopic"))
        #expect(try push(Self.tokenA, port: production) == (400, "BadDeviceToken"), "the other environment")
        try hold(tokenB)
        #expect(try push(Self.tokenA) == (200, "0"), "the rotated-away token is held by nobody")
        #expect(try push(tokenB) == (200, "kept"), "the new token is")
        try FileManager.default.removeItem(at: profile)
        #expect(try push(tokenB) == (200, "0"), "a removed profile holds nothing")
    }

    @Test("random faults with a seed, given devices, allowed topics")
    func devicesAndRandomFaults() throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("KEY1")
        let server = try APNsProcess(["--team", Self.team, "--key", "KEY1=" + publicKey, "--topic", "com.example.app",
                                      "--device", Self.tokenA + "=com.example.app@production", "--fault", "random:0.5=503", "--seed", "3"])
        defer { server.stop() }
        let production = try #require(server.ports["production"]), sandbox = try #require(server.ports["sandbox"])
        let good = try keys.token(kid: "KEY1", team: Self.team, iat: Int(Date().timeIntervalSince1970) - 30, signer: "KEY1")
        func push(_ port: Int, token: String = APNsServeTests.tokenA, topic: String = "com.example.app") throws -> CurlAnswer {
            try Curl.send("http://127.0.0.1:\(port)/3/device/\(token)", mode: ["--http2-prior-knowledge"],
                          headers: [("authorization", good), ("apns-topic", topic)], body: Self.payload)
        }
        let statuses = try (0..<16).map { _ in try push(production).status }
        #expect(Set(statuses) == [200, 503], "\(statuses)")
        #expect(try push(sandbox).reason == "BadDeviceToken")
        #expect(try push(production, token: Self.gone).reason == "BadDeviceToken")
        #expect(try push(production, topic: "com.example.other").reason == "TopicDisallowed")
    }

    @Test("bad arguments are refused with one clear line; --help lists every flag", arguments: [
        [], ["--team", "T"], ["--key", "K=/nonexistent.pem", "--team", "T"], ["--team", "T", "--key", "nokey"],
        ["--team", "T", "--key", "K=@KEY", "--sandbox-port", "0"], ["--team", "T", "--key", "K=@KEY", "--fault", "all=Teapot"],
        ["--team", "T", "--key", "K=@KEY", "--device", "zz=com.example.app"], ["--team", "T", "--key", "K=@KEY", "--tls", "/nonexistent"],
        ["--team", "T", "--key", "K=@PRIVATE"], ["--team", "T", "--key", "K=@KEY", "--frobnicate"],
        ["--team", "T", "--key", "K=@KEY", "--record", "/nonexistent/dir/x"], ["--team", "T", "--key", "K=@KEY", "--record", "@FIFO"],
        ["--team", "T", "--key", "K=@KEY", "--record", "/tmp"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let keys = try APNsKeys()
        let publicKey = try keys.make("K")
        // A FIFO nobody reads: opening it to write would wait for good; it is refused at once.
        let fifo = keys.path("fifo")
        if arguments.contains("@FIFO") { #expect(mkfifo(fifo, 0o600) == 0) }
        let resolved = arguments.map {
            $0.replacingOccurrences(of: "@KEY", with: publicKey).replacingOccurrences(of: "@PRIVATE", with: keys.path("K.key"))
                .replacingOccurrences(of: "@FIFO", with: fifo)
        }
        let run = try HostShellBinary.run(["apns", "serve"] + resolved)
        #expect(run.status == 2 && run.stderr.hasPrefix("hostshell: ") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        let help = try HostShellBinary.run(["apns", "serve", "--help"])
        #expect(help.status == 0)
        for flag in ["--team", "--key", "--sandbox-port", "--production-port", "--tls", "--topic", "--device", "--record", "--fault",
                     "--seed", "--token-update-interval"] {
            #expect(help.stdout.contains(flag), "\(flag) is in the help")
        }
    }
}
