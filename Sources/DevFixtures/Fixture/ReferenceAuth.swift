import HostCore
import StudioContract

/// The reference server's side of the app sign-in, as a real server behaves: approve codes bound
/// to a PKCE challenge and used once, grants with rotating refresh tokens (reusing a rotated one
/// revokes the whole grant), Studio session cookies, and a log of what each exchange carried so
/// tests can prove the host sent no cookie or credential where it must not.
@MainActor
package final class ReferenceAuth {
    package struct Options {
        /// Approve (or deny) at once instead of showing the page: stands in for the person's click.
        var autoDecision: String?
        /// Answer exchanges the way an older server does: a Studio session, no credential.
        var legacy = false
        /// Lifetime of access tokens, seconds.
        var tokenLifetime = 3600.0
        /// Claim this issuer in callbacks instead of the server's own origin (for refusal tests).
        var issuer: String?
        /// Studio pages need a signed-in session (the app lands on /login otherwise).
        var requireSignIn = false
        /// What a refresh that asks for a Studio session gets (for tests of a server that
        /// misbehaves): a real session, none (a credential only), or a cookie that signs nothing in.
        var refreshSession = RefreshSession.real
    }

    package enum RefreshSession: String {
        case real, none, bogus
    }

    package struct PendingCode {
        var challenge: String
        var state: String
        var expires: Double
    }

    package final class Grant {
        var access: String
        var refresh: String
        var expiresAt: Double
        var rotated: Set<String> = []
        var revoked = false
        init(access: String, refresh: String, expiresAt: Double) { self.access = access; self.refresh = refresh; self.expiresAt = expiresAt }
    }

    var options = Options()
    private var codes: [String: PendingCode] = [:]
    private var grants: [Grant] = []
    private(set) var sessions: Set<String> = []
    /// One line per exchange or refresh: grant type, whether a Cookie or Authorization header came.
    private(set) var log: [JSONValue] = []

    static func token(_ prefix: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 24)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        return prefix + Base64URL.encode(bytes)
    }

    /// `GET /oauth/approve?…`: the validated request becomes a code (approve) or an error.
    /// Returns the callback URL to redirect to, or a problem to show.
    func approve(query: [FormEncoding.Item], origin: Origin, decision: String) -> Result<String, UsageError> {
        func one(_ name: String) -> String? {
            let values = query.filter { $0.name == name }.map(\.value)
            return values.count == 1 ? values[0] : nil
        }
        guard one("client_id") == SignInRequest.clientId else { return .failure(UsageError("unknown client_id")) }
        guard one("redirect_uri") == SignInRequest.redirectURI else { return .failure(UsageError("redirect_uri is not registered")) }
        guard one("code_challenge_method") == "S256", let challenge = one("code_challenge"), challenge.utf8.count == 43 else {
            return .failure(UsageError("a S256 code_challenge is required"))
        }
        guard let state = one("state"), !state.isEmpty else { return .failure(UsageError("state is required")) }
        let issuer = FormEncoding.escape(options.issuer ?? origin.description)
        var callback = SignInRequest.redirectURI + "?state=\(FormEncoding.escape(state))&iss=\(issuer)"
        if decision == "deny" {
            callback += "&error=access_denied&error_description=The%20request%20was%20denied"
        } else {
            let code = Self.token("code_")
            codes[code] = PendingCode(challenge: challenge, state: state, expires: monotonicSeconds() + 120)
            callback += "&code=\(code)"
        }
        return .success(callback)
    }

    package enum ExchangeAnswer {
        case ok(body: JSONValue, cookie: String?)
        case error(status: UInt32, message: String)
    }

    /// `POST /api/v1/oauth/ios-session`.
    func exchange(body: [UInt8], hadCookie: Bool, hadAuthorization: Bool, now: Double) -> ExchangeAnswer {
        guard let request = (try? JSONParser.parse(bytes: body, maxDepth: 8))?.objectValue,
              request["client_id"]?.stringValue == SignInRequest.clientId else {
            return .error(status: 400, message: "invalid_request")
        }
        let grantType = request["grant_type"]?.stringValue ?? ""
        log.append(["grant_type": .string(grantType), "cookie": .bool(hadCookie), "authorization": .bool(hadAuthorization),
                    "studio_session": .bool(request["studio_session"]?.boolValue == true)])
        switch grantType {
        case "authorization_code":
            guard let code = request["code"]?.stringValue, let pending = codes.removeValue(forKey: code),
                  pending.expires > monotonicSeconds(),
                  request["redirect_uri"]?.stringValue == SignInRequest.redirectURI,
                  let verifier = request["code_verifier"]?.stringValue,
                  Base64URL.encode(SHA256.digest(Array(verifier.utf8))) == pending.challenge else {
                return .error(status: 400, message: "invalid_grant")
            }
            let session = Self.token("sess_")
            sessions.insert(session)
            if options.legacy { return .ok(body: ["data": ["authenticated": true]], cookie: session) }
            let grant = Grant(access: Self.token(Credential.accessTokenMarker), refresh: Self.token(Credential.refreshTokenMarker),
                              expiresAt: now + options.tokenLifetime)
            grants.append(grant)
            return .ok(body: ["data": ["credential": credentialJSON(grant)]], cookie: session)
        case "refresh_token":
            guard let token = request["refresh_token"]?.stringValue else { return .error(status: 400, message: "invalid_request") }
            if let reused = grants.first(where: { $0.rotated.contains(token) }) {
                reused.revoked = true  // a rotated token came back: someone has a copy
                return .error(status: 401, message: "invalid_grant: token reuse, grant revoked")
            }
            guard let grant = grants.first(where: { $0.refresh == token && !$0.revoked }) else {
                return .error(status: 401, message: "invalid_grant")
            }
            grant.rotated.insert(grant.refresh)
            grant.refresh = Self.token(Credential.refreshTokenMarker)
            grant.access = Self.token(Credential.accessTokenMarker)
            grant.expiresAt = now + options.tokenLifetime
            var cookie: String?
            if request["studio_session"]?.boolValue == true {
                switch options.refreshSession {
                case .real:
                    let session = Self.token("sess_")
                    sessions.insert(session)
                    cookie = session
                case .bogus: cookie = Self.token("sess_")  // never a session: Studio stays signed out
                case .none: cookie = nil
                }
            }
            return .ok(body: ["data": ["credential": credentialJSON(grant)]], cookie: cookie)
        default:
            return .error(status: 400, message: "unsupported_grant_type")
        }
    }

    /// A grant whose access token is `token`, valid for an hour: for benchmarks that upload
    /// without going through a sign-in window.
    func addBenchGrant(_ token: String, now: Double) {
        grants.append(Grant(access: token, refresh: Self.token(Credential.refreshTokenMarker), expiresAt: now + 3600))
    }

    func endSessions() { sessions = [] }

    /// `POST /api/v1/oauth/revoke {token}`: best effort from the app's sign-out.
    func revoke(body: [UInt8]) {
        guard let token = (try? JSONParser.parse(bytes: body, maxDepth: 4))?.objectValue?["token"]?.stringValue else { return }
        for grant in grants where grant.access == token || grant.refresh == token { grant.revoked = true }
    }

    /// The grant an `Authorization: Bearer …` header names, when valid now.
    func bearerIsValid(_ header: String?, now: Double) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let token = String(header.dropFirst(7))
        return grants.contains { $0.access == token && !$0.revoked && $0.expiresAt > now }
    }

    func hasSession(cookieHeader: String?) -> Bool {
        guard let cookieHeader else { return false }
        return cookieHeader.split(separator: ";").contains { pair in
            let trimmed = pair.trimmingPrefix(" ")
            return trimmed.hasPrefix("tilecast_session=") && sessions.contains(String(trimmed.dropFirst("tilecast_session=".count)))
        }
    }

    var grantsJSON: JSONValue {
        .array(grants.map { ["revoked": .bool($0.revoked), "rotations": .number(Double($0.rotated.count))] })
    }

    private func credentialJSON(_ grant: Grant) -> JSONValue {
        ["access_token": .string(grant.access), "refresh_token": .string(grant.refresh), "token_type": "Bearer",
         "expires_at": .number(grant.expiresAt.rounded())]
    }
}
