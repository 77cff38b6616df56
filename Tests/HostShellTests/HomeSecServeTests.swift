import Foundation
import Testing

/// A HomeSec-like server in its own process (`hostshell serve --homesec …`).
final class HomeSecProcess {
    private let serving: ServingProcess
    var process: Process { serving.process }
    var url: String { serving.url }

    init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        serving = try ServingProcess(["serve", "--homesec"] + arguments, environment: environment, what: "the HomeSec server")
        #expect(url.hasPrefix("http://127.0.0.1:") || url.hasPrefix("https://127.0.0.1:"), "the HomeSec server did not give a loopback address: \(url)")
    }

    /// What the server received (`/__test/log`): requests, registration bodies, devices.
    func log() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: RawHTTP.send("GET", url + "/__test/log").body) as? [String: Any])
    }

    func stop() { serving.stop() }
}

/// One HTTP/1.1 exchange over a loopback socket, with any headers, keeping the answer's headers.
enum RawHTTP {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: Any? { try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed) }
    }

    static func send(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) throws -> Answer {
        let parts = try #require(URL(string: url))
        let port = UInt16(try #require(parts.port))
        let payload = Data((body ?? "").utf8)
        let target = parts.path + (parts.query.map { "?" + $0 } ?? "")
        var head = "\(method) \(target.isEmpty ? "/" : target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(payload.count)\r\n\r\n"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "cannot connect to \(url)")
        let outgoing = Array(head.utf8) + Array(payload)
        var sent = 0
        while sent < outgoing.count {
            let n = outgoing.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
            guard n > 0 else { break }
            sent += n
        }
        var incoming = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { break }
            incoming.append(contentsOf: chunk[0..<n])
        }
        let split = try #require(incoming.range(of: Data("\r\n\r\n".utf8)), "no HTTP answer from \(url)")
        let lines = String(decoding: incoming[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: fields, body: Data(incoming[split.upperBound...]))
    }
}

@Suite("hostshell serve --homesec: the HomeSec-like server over real HTTP", .serialized)
struct HomeSecServeTests {
    static let token = "AB12CD34EF56AB12CD34EF56AB12CD34EF56AB12CD34EF56AB12CD34EF56AB12"

    @Test("auth on: health is open, cameras and devices want the key; register, list, patch, delete as HomeSec does")
    func authOn() throws {
        let server = try HomeSecProcess(["--auth", "on", "--token", "s3cret"])
        let health = try RawHTTP.send("GET", server.url + "/api/v1/health", headers: ["Accept": "application/json"])
        #expect(health.status == 200 && (health.json as? [String: Any])?["status"] as? String == "healthy")
        let refused = try RawHTTP.send("GET", server.url + "/api/v1/cameras")
        #expect(refused.status == 401)
        #expect((refused.json as? [String: String]) == ["detail": "Unauthorized", "error_code": "UNAUTHORIZED"])
        #expect(try RawHTTP.send("GET", server.url + "/api/v1/cameras", headers: ["Authorization": "Bearer nope"]).status == 401)
        let key = ["Authorization": "Bearer s3cret", "Content-Type": "application/json", "Origin": "capacitor://localhost"]
        let cameras = try RawHTTP.send("GET", server.url + "/api/v1/cameras", headers: key)
        #expect(cameras.status == 200 && (cameras.json as? [[String: Any]])?.count == 3)
        #expect(cameras.headers["access-control-allow-origin"] == "*", "the app scheme may read the answer")
        let body = #"{"platform":"ios","apns_token":"\#(Self.token)","environment":"sandbox","bundle_id":"com.example.homesec","device_name":"desk","app_version":"1.0","capabilities":{"deep_links":true,"rich_notifications":false}}"#
        let created = try RawHTTP.send("POST", server.url + "/api/v1/mobile/devices", headers: key, body: body)
        #expect(created.status == 201)
        let record = try #require(created.json as? [String: Any])
        let id = try #require(record["id"] as? String)
        #expect(id.hasPrefix("dev_") && id.count == 26)
        #expect((record["token_fingerprint"] as? String)?.count == 12)
        #expect(!String(decoding: created.body, as: UTF8.self).contains(Self.token), "the raw token never comes back")
        #expect(try RawHTTP.send("POST", server.url + "/api/v1/mobile/devices", headers: key, body: body).status == 201, "an update is 201 too")
        let listed = try RawHTTP.send("GET", server.url + "/api/v1/mobile/devices", headers: key)
        #expect((listed.json as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        let patched = try RawHTTP.send("PATCH", server.url + "/api/v1/mobile/devices/\(id)", headers: key, body: #"{"device_name":"Desk 2"}"#)
        #expect((patched.json as? [String: Any])?["device_name"] as? String == "Desk 2")
        let deleted = try RawHTTP.send("DELETE", server.url + "/api/v1/mobile/devices/\(id)", headers: key)
        #expect(deleted.status == 200 && (deleted.json as? [String: Any])?["enabled"] as? Bool == false)
        let missing = try RawHTTP.send("DELETE", server.url + "/api/v1/mobile/devices/dev_unknown", headers: key)
        #expect(missing.status == 404 && (missing.json as? [String: Any])?["error_code"] as? String == "MOBILE_DEVICE_NOT_FOUND")
        let invalid = try RawHTTP.send("POST", server.url + "/api/v1/mobile/devices", headers: key, body: #"{"apns_token":""}"#)
        #expect(invalid.status == 422 && (invalid.json as? [String: Any])?["error_code"] as? String == "REQUEST_VALIDATION_FAILED")
        let log = try server.log()
        let registrations = try #require(log["registrations"] as? [[String: Any]])
        #expect(registrations.count == 3 && registrations.first?["apns_token"] as? String == Self.token, "the bodies as received")
        let requests = try #require(log["requests"] as? [[String: Any]])
        #expect(requests.first?["path"] as? String == "/api/v1/health" && requests.first?["authorization"] is NSNull)
    }

    @Test("preflight from capacitor://localhost is answered; a listed origin list refuses others")
    func cors() throws {
        let open = try HomeSecProcess()
        let preflight = try RawHTTP.send("OPTIONS", open.url + "/api/v1/mobile/devices", headers: [
            "Origin": "capacitor://localhost", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"])
        #expect(preflight.status == 200)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
        #expect(preflight.headers["access-control-allow-headers"] == "authorization,content-type")
        let strict = try HomeSecProcess(["--cors-origin", "capacitor://localhost"])
        let ours = try RawHTTP.send("GET", strict.url + "/api/v1/health", headers: ["Origin": "capacitor://localhost"])
        #expect(ours.headers["access-control-allow-origin"] == "capacitor://localhost")
        let theirs = try RawHTTP.send("OPTIONS", strict.url + "/api/v1/cameras", headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "GET"])
        #expect(theirs.status == 400 && theirs.headers["access-control-allow-origin"] == nil)
    }

    @Test("auth off, an unhealthy pipeline, an injected failure and a served web app")
    func knobs() throws {
        let web = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: web) }
        try "<!doctype html><title>dev server</title>".write(to: web.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let server = try HomeSecProcess(["--unhealthy", "--web-dir", web.path, "--fail", "/api/v1/diagnostics=502"])
        #expect(try RawHTTP.send("GET", server.url + "/api/v1/cameras").status == 200, "auth is off by default")
        let health = try RawHTTP.send("GET", server.url + "/api/v1/health")
        #expect(health.status == 503 && (health.json as? [String: Any])?["status"] as? String == "unhealthy")
        let failed = try RawHTTP.send("GET", server.url + "/api/v1/diagnostics")
        #expect(failed.status == 502 && failed.json == nil)
        let readable = try RawHTTP.send("GET", server.url + "/api/v1/diagnostics", headers: ["Origin": "capacitor://localhost"])
        #expect(readable.status == 502 && readable.headers["access-control-allow-origin"] == "*", "an app of another origin can read the failure")
        let page = try RawHTTP.send("GET", server.url + "/live/front_door")
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("dev server"), "client routes get index.html")
        #expect(try RawHTTP.send("GET", server.url + "/.secret.json").status == 404, "no hidden files")
        #expect(try RawHTTP.send("GET", server.url + "/missing.js").status == 404)
    }

    @Test("bad arguments are refused with one clear line; --help lists every flag", arguments: [
        ["--auth", "maybe"], ["--token"], ["--token", "has space"], ["--port", "0"], ["--web-dir", "/nonexistent"],
        ["--fail", "health=500"], ["--frobnicate"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let run = try HostShellBinary.run(["serve", "--homesec"] + arguments)
        #expect(run.status == 2 && run.stderr.hasPrefix("hostshell: ") && !run.stderr.contains("Fatal error"), "\(arguments): \(run.stderr)")
        let help = try HostShellBinary.run(["serve", "--homesec", "--help"])
        #expect(help.status == 0)
        for flag in ["--auth", "--token", "--port", "--cors-origin", "--unhealthy", "--web-dir", "--fail"] {
            #expect(help.stdout.contains(flag), "\(flag) is in the help")
        }
    }
}
