import HostCore

/// An HTTP request as the HomeSec-like reference server sees it.
public struct HomeSecRequest: Sendable {
    public var method: String
    public var path: String
    public var query: String
    /// Header names in any case, as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, path: String, query: String = "", headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The last value of a header, its name compared in ASCII case.
    public func header(_ name: String) -> String? {
        let wanted = name.asciiLowercased()
        return headers.last { $0.name.asciiLowercased() == wanted }?.value
    }
}

/// What the server answers before CORS headers are added.
public enum HomeSecAnswer: Sendable, Equatable {
    case json(Int, JSONValue)
    case text(Int, String)
    /// Not an API route: a file of the served web app, if there is one.
    case staticFile
}

/// The full response: status, headers, and the body with its type.
public struct HomeSecResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(name: String, value: String)]
    /// True when the glue should serve the path from the web app's directory (then adding `headers`).
    public var servesFile: Bool
}

/// The rules of a small HomeSec-like server (HomeSec's FastAPI app, its answers and codes), for
/// the reference Capacitor app and for tests: `GET /api/v1/health` (never authenticated; 503 when
/// the pipeline is stopped, with the same body), `GET /api/v1/cameras` and the mobile device
/// routes behind the API key when auth is on (`Authorization: Bearer <key>`, else 401
/// `UNAUTHORIZED`), FastAPI's 404/405/422 answers, and CORS as Starlette's middleware does it
/// (`*` by default, so `capacitor://localhost` may call it). `/__test/log` shows what was received.
public struct HomeSecServer: Sendable {
    /// The longest request body the reference server reads (its JSON requests are small); a
    /// longer one is refused (413) as it arrives.
    public static let requestBodyBytes = 1 << 20
    public struct Options: Sendable {
        public var authEnabled: Bool
        public var apiKey: String
        /// Allowed origins; `*` allows any (and then no credentials, as HomeSec's default).
        public var corsOrigins: [String]
        /// False answers health with 503 "unhealthy" (the pipeline stopped).
        public var pipelineRunning: Bool
        public var cameras: [Camera]
        /// The `apns_mobile` notifier's settings; nil: events raise no push.
        public var apns: HomeSecNotifier.Config?

        public init(authEnabled: Bool = false, apiKey: String = HomeSecServer.defaultKey, corsOrigins: [String] = ["*"],
                    pipelineRunning: Bool = true, cameras: [Camera] = HomeSecServer.referenceCameras, apns: HomeSecNotifier.Config? = nil) {
            self.apns = apns
            self.authEnabled = authEnabled
            self.apiKey = apiKey
            self.corsOrigins = corsOrigins
            self.pipelineRunning = pipelineRunning
            self.cameras = cameras
        }
    }

    public struct Camera: Sendable, Equatable {
        public var name: String
        public var enabled: Bool
        public var healthy: Bool
        public init(name: String, enabled: Bool = true, healthy: Bool = true) {
            self.name = name
            self.enabled = enabled
            self.healthy = healthy
        }
    }

    public static let defaultKey = "homesec-reference-key"
    public static let referenceCameras = [Camera(name: "front_door"), Camera(name: "driveway"), Camera(name: "garage", enabled: false, healthy: false)]

    public var options: Options
    public var devices = HomeSecDevices()
    /// Every request but `/__test/…`: method, path, the Authorization and Origin it carried.
    public private(set) var log: [JSONValue] = []
    /// The bodies of `POST /api/v1/mobile/devices`, as received (parsed when they parse).
    public private(set) var registrations: [JSONValue] = []
    /// Events raised through `POST /__test/event` and their notifications.
    public internal(set) var notify = HomeSecNotifyState()

    public init(options: Options = Options()) { self.options = options }

    public var cors: HomeSecCORS { HomeSecCORS(allowed: options.corsOrigins) }

    /// Answers one request; `now` in seconds since 1970, `entropy` 16 random bytes for a new id.
    public mutating func respond(_ request: HomeSecRequest, now: Double, entropy: [UInt8]) -> HomeSecResponse {
        let origin = request.header("Origin")
        if request.method == "OPTIONS", let origin, let asked = request.header("Access-Control-Request-Method") {
            return cors.preflight(origin: origin, method: asked, headers: request.header("Access-Control-Request-Headers"))
        }
        if !request.path.hasPrefix("/__test/") {
            log.append(["method": .string(request.method), "path": .string(request.path),
                        "authorization": request.header("Authorization").map(JSONValue.string) ?? .null,
                        "origin": origin.map(JSONValue.string) ?? .null])
        }
        let answer = route(request, now: now, entropy: entropy)
        var response: HomeSecResponse
        switch answer {
        case .json(let status, let value):
            response = HomeSecResponse(status: status, contentType: "application/json", body: JSONWriter.bytes(value), headers: [], servesFile: false)
        case .text(let status, let text):
            response = HomeSecResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8), headers: [], servesFile: false)
        case .staticFile:
            response = HomeSecResponse(status: 200, contentType: "", body: [], headers: [], servesFile: true)
        }
        if let origin { response.headers += cors.simpleHeaders(origin: origin, hasCookie: request.header("Cookie") != nil) }
        return response
    }

    static let unauthorized = HomeSecAnswer.json(401, ["detail": "Unauthorized", "error_code": "UNAUTHORIZED"])
    static let notFound = HomeSecAnswer.json(404, ["detail": "Not Found", "error_code": "NOT_FOUND"])
    static let notAllowed = HomeSecAnswer.json(405, ["detail": "Method Not Allowed", "error_code": "HTTP_ERROR"])

    /// HomeSec's `verify_api_key`: a `Bearer ` header whose rest (stripped) is the key.
    public func authorized(_ request: HomeSecRequest) -> Bool {
        guard options.authEnabled else { return true }
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return false }
        return HomeSecValidation.stripped(String(header.dropFirst("Bearer ".count))).isExactly(options.apiKey)
    }

    private mutating func route(_ request: HomeSecRequest, now: Double, entropy: [UInt8]) -> HomeSecAnswer {
        let method = request.method == "HEAD" ? "GET" : request.method
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch segments {
        case ["__test", "log"]:
            return .json(200, ["requests": .array(log), "registrations": .array(registrations),
                               "devices": .array(devices.devices.map(\.record)), "notifications": .array(notify.runs.map(\.record))])
        case ["__test", "event"]:
            guard method == "POST" else { return Self.notAllowed }
            return raiseEvent(body: request.body, now: now, entropy: entropy)
        case ["api", "v1", "health"]:
            guard method == "GET" else { return Self.notAllowed }
            return health
        case ["api", "v1", "cameras"]:
            guard method == "GET" else { return Self.notAllowed }
            guard authorized(request) else { return Self.unauthorized }
            return .json(200, .array(options.cameras.map(Self.record)))
        case ["api", "v1", "mobile", "devices"]:
            guard method == "GET" || method == "POST" else { return Self.notAllowed }
            guard authorized(request) else { return Self.unauthorized }
            if method == "GET" { return devices.list(query: FormEncoding.items(request.query)) }
            registrations.append((try? JSONParser.parse(bytes: request.body, maxDepth: 32)) ?? .string(String(decoding: request.body, as: UTF8.self)))
            return devices.register(body: request.body, now: now, entropy: entropy)
        case let path where path.count == 5 && Array(path.prefix(4)) == ["api", "v1", "mobile", "devices"] && !path[4].isEmpty:
            guard method == "PATCH" || method == "DELETE" else { return Self.notAllowed }
            guard authorized(request) else { return Self.unauthorized }
            let id = PercentEncoding.decode(path[4].utf8)
            return method == "PATCH" ? devices.update(id: id, body: request.body, now: now) : devices.disable(id: id, now: now)
        default:
            if segments.first == "api" || segments.first == "__test" || !(method == "GET") { return Self.notFound }
            return .staticFile
        }
    }

    /// HomeSec's `/api/v1/health`: healthy with the pipeline running (no database here, so
    /// "connected"), else 503 with the same body saying "unhealthy".
    var health: HomeSecAnswer {
        let running = options.pipelineRunning
        let online = running ? options.cameras.filter { $0.enabled && $0.healthy }.count : 0
        let body: JSONValue = ["status": running ? "healthy" : "unhealthy", "pipeline": running ? "running" : "stopped",
                               "postgres": "connected", "cameras_online": .number(Double(online))]
        return .json(running ? 200 : 503, body)
    }

    /// HomeSec's `CameraResponse` (its source configuration with nothing secret in it).
    static func record(_ camera: Camera) -> JSONValue {
        ["name": .string(camera.name), "enabled": .bool(camera.enabled), "source_backend": "rtsp",
         "healthy": .bool(camera.enabled && camera.healthy), "last_heartbeat": .null,
         "source_config": ["rtsp_url_env": .string(camera.name.asciiUppercasedForEnv + "_RTSP_URL")]]
    }
}

extension String {
    /// `front_door` → `FRONT_DOOR`: ASCII letters upper-cased, everything else kept.
    var asciiUppercasedForEnv: String {
        String(decoding: utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
