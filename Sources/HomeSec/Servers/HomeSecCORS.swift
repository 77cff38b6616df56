/// CORS as HomeSec's server applies it (Starlette's `CORSMiddleware` with every method and
/// header allowed): origins `["*"]` by default, which lets an app scheme such as
/// `capacitor://localhost` call it; credentials only when the origins are listed.
public struct HomeSecCORS: Sendable {
    public let allowed: [String]

    public init(allowed: [String]) { self.allowed = allowed }

    public var allowsAll: Bool { allowed.contains("*") }
    public var allowsCredentials: Bool { !allowsAll }
    public static let methods = "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT"
    public static let maxAge = "600"

    public func allows(_ origin: String) -> Bool { allowsAll || allowed.contains { $0.isExactly(origin) } }

    /// The answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`):
    /// 200 "OK" with what may be sent, or 400 "Disallowed CORS origin".
    public func preflight(origin: String, method: String, headers requested: String?) -> HomeSecResponse {
        var headers: [(name: String, value: String)] = [
            ("Access-Control-Allow-Origin", allowsAll ? "*" : origin),
            ("Access-Control-Allow-Methods", Self.methods),
            ("Access-Control-Max-Age", Self.maxAge),
        ]
        if let requested { headers.append(("Access-Control-Allow-Headers", requested)) }
        if allowsCredentials { headers.append(("Access-Control-Allow-Credentials", "true")) }
        if !allowsAll { headers.append(("Vary", "Origin")) }
        guard allows(origin) else {
            return HomeSecResponse(status: 400, contentType: "text/plain; charset=utf-8",
                                   body: Array("Disallowed CORS origin".utf8), headers: headers.filter { $0.name != "Access-Control-Allow-Origin" },
                                   servesFile: false)
        }
        return HomeSecResponse(status: 200, contentType: "text/plain; charset=utf-8", body: Array("OK".utf8), headers: headers, servesFile: false)
    }

    /// Headers added to an ordinary answer to a request that came with `Origin`.
    public func simpleHeaders(origin: String, hasCookie: Bool) -> [(name: String, value: String)] {
        if allowsAll {
            // With a cookie Starlette names the origin (a `*` would be refused by the browser).
            return hasCookie ? [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")] : [("Access-Control-Allow-Origin", "*")]
        }
        guard allows(origin) else { return [("Vary", "Origin")] }
        return [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"), ("Vary", "Origin")]
    }
}
