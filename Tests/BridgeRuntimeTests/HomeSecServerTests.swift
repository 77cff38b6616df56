import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("HomeSec reference server: routes, auth, the device registry, validation, CORS")
struct HomeSecServerTests {
    static let token = "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"
    static let entropy: [UInt8] = Array(0..<16)

    static func request(_ method: String, _ path: String, query: String = "", key: String? = nil, origin: String? = nil,
                        body: JSONValue? = nil, raw: String? = nil) -> HomeSecRequest {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let key { headers.append(("authorization", "Bearer \(key)")) }
        if let origin { headers.append(("Origin", origin)) }
        let bytes = raw.map { Array($0.utf8) } ?? body.map(JSONWriter.bytes) ?? []
        return HomeSecRequest(method: method, path: path, query: query, headers: headers, body: bytes)
    }

    static func json(_ response: HomeSecResponse) throws -> JSONValue {
        #expect(response.contentType == "application/json")
        return try JSONParser.parse(bytes: response.body)
    }

    static let registration: JSONValue = [
        "platform": "ios", "apns_token": .string(token), "environment": "sandbox", "bundle_id": "com.example.homesec",
        "device_name": "Linux desktop", "app_version": "1.0.0", "capabilities": ["deep_links": true, "rich_notifications": false],
    ]

    @Test("health needs no key; a stopped pipeline answers 503 with a body that still parses")
    func health() throws {
        var server = HomeSecServer(options: .init(authEnabled: true, apiKey: "k"))
        let healthy = server.respond(Self.request("GET", "/api/v1/health"), now: 0, entropy: Self.entropy)
        #expect(healthy.status == 200)
        #expect(try Self.json(healthy) == ["status": "healthy", "pipeline": "running", "postgres": "connected", "cameras_online": 2])
        server.options.pipelineRunning = false
        let stopped = server.respond(Self.request("GET", "/api/v1/health"), now: 0, entropy: Self.entropy)
        #expect(stopped.status == 503)
        #expect(try Self.json(stopped).objectValue?["status"] == "unhealthy")
        #expect(server.respond(Self.request("POST", "/api/v1/health"), now: 0, entropy: Self.entropy).status == 405)
    }

    @Test("cameras: open with auth off; with auth on only `Bearer <key>` passes, anything else is 401 UNAUTHORIZED")
    func cameraAuth() throws {
        var open = HomeSecServer(options: .init(authEnabled: false))
        let listed = open.respond(Self.request("GET", "/api/v1/cameras"), now: 0, entropy: Self.entropy)
        #expect(listed.status == 200)
        #expect(try Self.json(listed).arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } == ["front_door", "driveway", "garage"])
        var locked = HomeSecServer(options: .init(authEnabled: true, apiKey: "s3cret"))
        for header in [nil, "Bearer wrong", "bearer s3cret", "s3cret", "Bearer "] as [String?] {
            var request = Self.request("GET", "/api/v1/cameras")
            if let header { request.headers.append(("Authorization", header)) }
            let answer = locked.respond(request, now: 0, entropy: Self.entropy)
            #expect(answer.status == 401, "\(header ?? "no header")")
            #expect(try Self.json(answer) == ["detail": "Unauthorized", "error_code": "UNAUTHORIZED"])
        }
        #expect(locked.respond(Self.request("GET", "/api/v1/cameras", key: "s3cret "), now: 0, entropy: Self.entropy).status == 200)
        #expect(locked.respond(Self.request("GET", "/api/v1/mobile/devices"), now: 0, entropy: Self.entropy).status == 401)
    }

    @Test("register: 201 with HomeSec's record, never the raw token; the fingerprint is the hash's first 12 hex")
    func register() throws {
        var server = HomeSecServer()
        let answer = server.respond(Self.request("POST", "/api/v1/mobile/devices", body: Self.registration), now: 1_764_613_800.25, entropy: Self.entropy)
        #expect(answer.status == 201)
        let record = try #require(try Self.json(answer).objectValue)
        #expect(record.keys == ["id", "platform", "environment", "bundle_id", "device_name", "app_version", "capabilities", "enabled",
                                "token_fingerprint", "created_at", "updated_at", "last_seen_at", "last_push_at", "last_push_error"])
        #expect(record["id"] == .string("dev_" + Base64URL.encode(Self.entropy)))
        #expect(record["token_fingerprint"] == .string(String(HomeSecDevices.tokenHash(Self.token).prefix(12))))
        #expect(HomeSecDevices.tokenHash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(record["created_at"] == "2025-12-01T18:30:00.250000Z")
        #expect(record["enabled"] == true && record["device_name"] == "Linux desktop" && record["environment"] == "sandbox")
        #expect(!String(decoding: answer.body, as: UTF8.self).contains(Self.token))
        #expect(server.registrations == [Self.registration], "the body as received is kept for tests")
    }

    @Test("re-registering the same token updates that device (201 again) and does not re-enable a disabled one")
    func reRegister() throws {
        var server = HomeSecServer()
        let first = try Self.json(server.respond(Self.request("POST", "/api/v1/mobile/devices", body: Self.registration), now: 10, entropy: Self.entropy))
        let id = try #require(first.objectValue?["id"]?.stringValue)
        let deleted = server.respond(Self.request("DELETE", "/api/v1/mobile/devices/\(id)"), now: 11, entropy: Self.entropy)
        #expect(deleted.status == 200)
        #expect(try Self.json(deleted).objectValue?["enabled"] == false)
        var changed = Self.registration.objectValue!
        changed["apns_token"] = .string(" \(Self.token) ")
        changed["device_name"] = nil
        changed["environment"] = "production"
        let again = server.respond(Self.request("POST", "/api/v1/mobile/devices", body: .object(changed)), now: 12, entropy: Array(repeating: 9, count: 16))
        #expect(again.status == 201)
        let record = try #require(try Self.json(again).objectValue)
        #expect(record["id"] == .string(id) && record["enabled"] == false && record["environment"] == "production")
        #expect(record["device_name"] == .null, "an absent name is set to null, as HomeSec's upsert does")
        #expect(record["created_at"] == .string(HomeSecTime.text(10)) && record["updated_at"] == .string(HomeSecTime.text(12)))
        #expect(server.devices.devices.count == 1)
        let listed = try Self.json(server.respond(Self.request("GET", "/api/v1/mobile/devices"), now: 13, entropy: Self.entropy))
        #expect(listed == [], "disabled devices are hidden by default")
        let all = try Self.json(server.respond(Self.request("GET", "/api/v1/mobile/devices", query: "include_disabled=true"), now: 13, entropy: Self.entropy))
        #expect(all.arrayValue?.count == 1)
        let bad = server.respond(Self.request("GET", "/api/v1/mobile/devices", query: "include_disabled=maybe"), now: 13, entropy: Self.entropy)
        #expect(bad.status == 422)
    }

    @Test("PATCH changes the mutable fields; an unknown id is 404 MOBILE_DEVICE_NOT_FOUND")
    func patchAndUnknown() throws {
        var server = HomeSecServer()
        let id = try #require(try Self.json(server.respond(Self.request("POST", "/api/v1/mobile/devices", body: Self.registration), now: 1, entropy: Self.entropy)).objectValue?["id"]?.stringValue)
        let patched = server.respond(Self.request("PATCH", "/api/v1/mobile/devices/\(id)", body: ["device_name": "Desk", "enabled": nil,
                                                                                                "capabilities": ["rich_notifications": true]]), now: 2, entropy: Self.entropy)
        #expect(patched.status == 200)
        let record = try #require(try Self.json(patched).objectValue)
        #expect(record["device_name"] == "Desk" && record["enabled"] == true && record["app_version"] == "1.0.0")
        #expect(record["capabilities"] == ["deep_links": true, "rich_notifications": true])
        for (method, body) in [("PATCH", ["enabled": false] as JSONValue), ("DELETE", nil)] {
            let answer = server.respond(Self.request(method, "/api/v1/mobile/devices/dev_nope", body: body), now: 3, entropy: Self.entropy)
            #expect(answer.status == 404)
            #expect(try Self.json(answer) == ["detail": "Mobile device not found", "error_code": "MOBILE_DEVICE_NOT_FOUND"])
        }
        #expect(server.respond(Self.request("GET", "/api/v1/mobile/devices/\(id)"), now: 3, entropy: Self.entropy).status == 405)
    }

    @Test("bad registrations get 422 with every problem listed as pydantic lists it", arguments: [
        (#"{"environment":"sandbox","bundle_id":"b"}"#, [("missing", "apns_token")]),
        (#"{"apns_token":"","environment":"sandbox","bundle_id":"b"}"#, [("string_too_short", "apns_token")]),
        (#"{"apns_token":" \t","environment":"sandbox","bundle_id":"b"}"#, [("value_error", "apns_token")]),
        (#"{"apns_token":5,"environment":"dev","bundle_id":"b","platform":"android"}"#,
         [("literal_error", "platform"), ("string_type", "apns_token"), ("literal_error", "environment")]),
        (#"{"apns_token":"t","environment":"sandbox","bundle_id":"b","capabilities":{"deep_links":"maybe"},"device_name":3}"#,
         [("string_type", "device_name"), ("bool_parsing", "deep_links")]),
        (#"[1]"#, [("model_attributes_type", "body")]),
        (#"{"apns_token":"#, [("json_invalid", "body")]),
        ("", [("missing", "body")]),
    ])
    func validation(_ body: String, _ expected: [(String, String)]) throws {
        var server = HomeSecServer()
        let answer = server.respond(Self.request("POST", "/api/v1/mobile/devices", raw: body), now: 0, entropy: Self.entropy)
        #expect(answer.status == 422)
        let object = try #require(try Self.json(answer).objectValue)
        #expect(object["detail"] == "Request validation failed" && object["error_code"] == "REQUEST_VALIDATION_FAILED")
        let errors = try #require(object["validation_errors"]?.arrayValue)
        let found = errors.compactMap { error -> (String, String)? in
            guard let type = error.objectValue?["type"]?.stringValue, let location = error.objectValue?["loc"]?.arrayValue else { return nil }
            let named = location.compactMap(\.stringValue).last ?? ""
            return (type, named)
        }
        #expect(found.map { "\($0.0) \($0.1)" } == expected.map { "\($0.0) \($0.1)" })
        #expect(server.devices.devices.isEmpty)
    }

    @Test("CORS: any origin by default (capacitor://localhost included), a listed origin only when listed")
    func cors() throws {
        var server = HomeSecServer()
        let preflight = server.respond(HomeSecRequest(method: "OPTIONS", path: "/api/v1/mobile/devices", headers: [
            ("Origin", "capacitor://localhost"), ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "authorization,content-type")]), now: 0, entropy: Self.entropy)
        #expect(preflight.status == 200)
        let headers = Dictionary(preflight.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(headers["Access-Control-Allow-Origin"] == "*")
        #expect(headers["Access-Control-Allow-Headers"] == "authorization,content-type")
        #expect(headers["Access-Control-Allow-Methods"]?.contains("PATCH") == true)
        #expect(server.log.isEmpty, "a preflight is not an API request")
        let simple = server.respond(Self.request("GET", "/api/v1/health", origin: "capacitor://localhost"), now: 0, entropy: Self.entropy)
        #expect(simple.headers.contains { $0.name == "Access-Control-Allow-Origin" && $0.value == "*" })
        var listed = HomeSecServer(options: .init(corsOrigins: ["capacitor://localhost"]))
        let ours = listed.respond(Self.request("GET", "/api/v1/health", origin: "capacitor://localhost"), now: 0, entropy: Self.entropy)
        #expect(ours.headers.contains { $0.name == "Access-Control-Allow-Origin" && $0.value == "capacitor://localhost" })
        let theirs = listed.respond(HomeSecRequest(method: "OPTIONS", path: "/api/v1/cameras", headers: [
            ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "GET")]), now: 0, entropy: Self.entropy)
        #expect(theirs.status == 400 && String(decoding: theirs.body, as: UTF8.self) == "Disallowed CORS origin")
        #expect(!theirs.headers.contains { $0.name == "Access-Control-Allow-Origin" })
    }

    @Test("unknown API paths are FastAPI's 404; other GETs are the served web app's; the log records each request")
    func routing() throws {
        var server = HomeSecServer()
        let missing = server.respond(Self.request("GET", "/api/v1/clips"), now: 0, entropy: Self.entropy)
        #expect(missing.status == 404)
        #expect(try Self.json(missing) == ["detail": "Not Found", "error_code": "NOT_FOUND"])
        #expect(server.respond(Self.request("GET", "/live/front_door"), now: 0, entropy: Self.entropy).servesFile)
        #expect(!server.respond(Self.request("POST", "/live"), now: 0, entropy: Self.entropy).servesFile)
        _ = server.respond(Self.request("GET", "/api/v1/cameras", key: "k", origin: "capacitor://localhost"), now: 0, entropy: Self.entropy)
        #expect(server.log.last == ["method": "GET", "path": "/api/v1/cameras", "authorization": "Bearer k", "origin": "capacitor://localhost"])
        let log = try Self.json(server.respond(Self.request("GET", "/__test/log"), now: 0, entropy: Self.entropy))
        #expect(log.objectValue?["requests"]?.arrayValue?.count == 4)
    }
}
