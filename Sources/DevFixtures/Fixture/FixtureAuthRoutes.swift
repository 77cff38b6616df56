import CGtk
import HostCore

/// The reference server's sign-in routes: the approve page, the exchange and refresh endpoint,
/// revocation, `GET /api/v1/me` (is this browser signed in?), and `/__test/…` switches and the
/// auth log for tests.
extension FixtureServer {
    /// Answers `path` when it is a sign-in route; false lets the caller serve it.
    func handleAuth(_ message: OpaquePointer, path: String) -> Bool {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        switch (method, path) {
        case ("GET", "/oauth/approve"), ("GET", "/oauth/approve/decide"):
            let items = FormEncoding.items(query(message))
            let decision = path.hasSuffix("/decide")
                ? (items.first { $0.name == "decision" }?.value ?? "deny") : auth.options.autoDecision
            guard let decision else {
                reply(message, status: 200, type: "text/html; charset=utf-8", body: Array(approvePage(query(message)).utf8))
                return true
            }
            switch auth.approve(query: items, origin: origin, decision: decision) {
            case .success(let callback):
                soup_message_headers_replace(soup_server_message_get_response_headers(message), "Location", callback)
                reply(message, status: 302, type: "text/plain", body: [])
            case .failure(let problem):
                reply(message, status: 400, type: "text/plain; charset=utf-8", body: Array("Sign-in request refused: \(problem.message)".utf8))
            }
            return true
        case ("POST", "/api/v1/oauth/ios-session"):
            let answer = auth.exchange(body: requestBody(message), hadCookie: requestHeader(message, "Cookie") != nil,
                                       hadAuthorization: requestHeader(message, "Authorization") != nil, now: wallClockSeconds())
            switch answer {
            case .ok(let body, let cookie):
                if let cookie {
                    soup_message_headers_append(soup_server_message_get_response_headers(message), "Set-Cookie",
                                                "tilecast_session=\(cookie); Path=/; HttpOnly; SameSite=Lax")
                }
                reply(message, status: 200, type: "application/json", body: JSONWriter.bytes(body))
            case .error(let status, let text):
                reply(message, status: status, type: "application/json", body: JSONWriter.bytes(["error": .string(text)]))
            }
            return true
        case ("POST", "/api/v1/oauth/revoke"):
            auth.revoke(body: requestBody(message))
            reply(message, status: 200, type: "application/json", body: JSONWriter.bytes(["data": ["revoked": true]]))
            return true
        case ("GET", "/api/v1/me"):
            let signedIn = !auth.options.requireSignIn || auth.hasSession(cookieHeader: requestHeader(message, "Cookie"))
            reply(message, status: signedIn ? 200 : 401, type: "application/json",
                  body: JSONWriter.bytes(signedIn ? ["data": ["name": "Reference Admin"]] : ["error": "not signed in"]))
            return true
        case ("POST", "/__test/auth-mode"):
            // For tests: how the approve page answers from now on (approve, deny, or ask).
            let decision = FormEncoding.items(query(message)).first { $0.name == "decision" }?.value
            auth.options.autoDecision = decision == "ask" ? nil : decision
            reply(message, status: 204, type: "text/plain", body: [])
            return true
        case ("POST", "/__test/refresh-session"):
            // For tests: what a refresh asking for a Studio session gets (real, none, bogus).
            let give = FormEncoding.items(query(message)).first { $0.name == "give" }?.value ?? ""
            guard let mode = ReferenceAuth.RefreshSession(rawValue: give) else {
                reply(message, status: 400, type: "text/plain", body: Array("give= real, none or bogus".utf8))
                return true
            }
            auth.options.refreshSession = mode
            reply(message, status: 204, type: "text/plain", body: [])
            return true
        case ("POST", "/__test/end-sessions"):
            // For tests: every Studio session ends (as when it expires); grants stay valid.
            auth.endSessions()
            reply(message, status: 204, type: "text/plain", body: [])
            return true
        case ("GET", "/__test/auth-log"):
            let body: JSONValue = ["exchanges": .array(auth.log), "grants": auth.grantsJSON,
                                   "studioRequestsWithAuthorization": .number(Double(studioRequestsWithAuthorization))]
            reply(message, status: 200, type: "application/json", body: JSONWriter.bytes(body))
            return true
        default:
            return false
        }
    }

    func requestHeader(_ message: OpaquePointer, _ name: String) -> String? {
        soup_message_headers_get_one(soup_server_message_get_request_headers(message), name).map { String(cString: $0) }
    }

    func requestBody(_ message: OpaquePointer) -> [UInt8] {
        guard let body = soup_server_message_get_request_body(message), body.pointee.length > 0,
              let data = body.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(body.pointee.length)))
    }

    private func query(_ message: OpaquePointer) -> String {
        soup_server_message_get_uri(message).flatMap { g_uri_get_query($0) }.map { String(cString: $0) } ?? ""
    }

    /// What a person sees in the authentication window: the request, and Approve or Deny.
    private func approvePage(_ query: String) -> String {
        let escaped = query.replacingAll("&", with: "&amp;").replacingAll("\"", with: "&quot;")
        return """
        <!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>Sign in to \(organizationName)</title>
        <link rel="stylesheet" href="/studio.css">
        <main class="approve"><h1>Sign in to \(organizationName)</h1>
        <p>The app asks to use this server on your behalf (read, write, admin).</p>
        <p><a class="button" id="approve" href="/oauth/approve/decide?decision=approve&amp;\(escaped)">Approve</a>
        <a class="button" id="deny" href="/oauth/approve/decide?decision=deny&amp;\(escaped)">Deny</a></p></main>
        """
    }
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
