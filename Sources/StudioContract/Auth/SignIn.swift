import HostCore

/// The app's sign-in (CONTRACT.md §4 "Sign-in"): OAuth 2 authorization code with PKCE (S256) in a
/// separate authentication window, the redirect `tilecast-ios://oauth/callback` intercepted by
/// the host, then an exchange that yields the app's own credential and a Studio session cookie.
/// Everything here is pure; the host supplies the random bytes and does the HTTP.
public struct SignInRequest: Sendable, Equatable {
    public static let clientId = "tilecast-ios"
    public static let redirectURI = "tilecast-ios://oauth/callback"
    public static let scope = "read write admin"
    /// Random bytes behind `state` and `verifier` (CONTRACT.md §4).
    public static let stateByteCount = 24
    public static let verifierByteCount = 32

    /// 24 random bytes, base64url: the value the callback must carry back exactly once.
    public let state: String
    /// 32 random bytes, base64url (43 characters).
    public let verifier: String
    /// base64url(SHA-256(verifier)).
    public let challenge: String

    public init(stateBytes: [UInt8], verifierBytes: [UInt8]) {
        precondition(stateBytes.count == Self.stateByteCount && verifierBytes.count == Self.verifierByteCount,
                     "PKCE wants \(Self.stateByteCount) state bytes and \(Self.verifierByteCount) verifier bytes")
        state = Base64URL.encode(stateBytes)
        verifier = Base64URL.encode(verifierBytes)
        challenge = Base64URL.encode(SHA256.digest(Array(verifier.utf8)))
    }

    /// The approve page the authentication window opens.
    public func approveURL(origin: Origin) -> String {
        let query: [(String, String)] = [
            ("client_id", Self.clientId), ("redirect_uri", Self.redirectURI), ("scope", Self.scope),
            ("state", state), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        return origin.description + "/oauth/approve?" + query.map { "\($0)=\(FormEncoding.escape($1))" }.joined(separator: "&")
    }

    /// The exchange's JSON body.
    public func exchangeBody(code: String) -> JSONValue {
        ["grant_type": "authorization_code", "client_id": .string(Self.clientId), "code": .string(code),
         "redirect_uri": .string(Self.redirectURI), "code_verifier": .string(verifier)]
    }

    /// True when `url` is Studio's sign-in page on the server: where a signed-out Studio lands,
    /// and where the host starts its own sign-in.
    public static func isLoginPage(_ url: String, origin: Origin) -> Bool {
        guard let parts = URLParts(url), Origin(url: url) == origin else { return false }
        return parts.path.isExactly("/login") || parts.path.isExactly("/login/")
    }

    /// True when `url` is aimed at the redirect: the host intercepts it instead of loading it.
    public static func isCallback(_ url: String) -> Bool {
        guard let parts = URLParts(url) else { return false }
        return parts.scheme == "tilecast-ios" && parts.host.isExactly("oauth")
    }
}

/// Why a sign-in did not produce a code, worded for the person signing in.
public enum SignInProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The callback does not belong to this attempt or this server: nothing is exchanged.
    case invalidCallback(String)
    /// The server refused (the person denied access, or the server rejected the request).
    case rejected(String)
    /// The person closed the window.
    case cancelled
    /// The server could not be asked (network, 429, 5xx).
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalidCallback(let why): return "The sign-in answer was not valid (\(why)); nothing was signed in. Try again."
        case .rejected(let why): return "The server did not sign you in: \(why)."
        case .cancelled: return "Sign-in was cancelled."
        case .unavailable(let why): return "The server could not sign you in right now (\(why)). Try again in a moment."
        }
    }
}

public enum SignInCallback {
    /// The authorization code from a callback URL, after every rule: host `oauth`, path
    /// `/callback`, exactly one `state` equal to the attempt's, `iss` (when present) equal to the
    /// server origin — checked before any `error` — and exactly one `code`. Names and values
    /// compare scalar for scalar (§5): `==` on strings would let U+212A KELVIN SIGN stand for
    /// the `K` of a state.
    public static func code(from url: String, request: SignInRequest, serverOrigin: Origin) -> Result<String, SignInProblem> {
        guard let parts = URLParts(url), parts.scheme == "tilecast-ios", parts.host.isExactly("oauth") else {
            return .failure(.invalidCallback("not the app's callback address"))
        }
        guard parts.path.isExactly("/callback"), parts.userInfo == nil, !parts.hasExplicitPort else {
            return .failure(.invalidCallback("not the app's callback address"))
        }
        let items = FormEncoding.items(parts.query.map(String.init) ?? "")
        func values(_ name: String) -> [String] { items.filter { $0.name.isExactly(name) }.map(\.value) }
        let states = values("state")
        guard states.count == 1 else { return .failure(.invalidCallback(states.isEmpty ? "no state" : "more than one state")) }
        guard states[0].isExactly(request.state) else { return .failure(.invalidCallback("the state does not match this sign-in")) }
        let issuers = values("iss")
        guard issuers.count <= 1 else { return .failure(.invalidCallback("more than one issuer")) }
        if let issuer = issuers.first, !isOrigin(issuer, serverOrigin) {
            return .failure(.invalidCallback("it came from another server (\(issuer.prefix(scalars: 100)))"))
        }
        if let error = values("error").first {
            let detail = values("error_description").first.map { ": \($0.prefix(scalars: 200))" } ?? ""
            return .failure(error.isExactly("access_denied") ? .rejected("access was denied\(detail)") : .rejected("\(error.prefix(scalars: 60))\(detail)"))
        }
        let codes = values("code")
        guard codes.count <= 1 else { return .failure(.invalidCallback("more than one code")) }
        guard let code = codes.first, !code.isEmpty else { return .failure(.invalidCallback("no code")) }
        return .success(code)
    }
}

extension SignInCallback {
    /// `iss` names exactly the server's origin: scheme, host and port, nothing after them.
    static func isOrigin(_ issuer: String, _ origin: Origin) -> Bool {
        guard let parts = URLParts(issuer), parts.path.isEmpty, parts.query == nil, parts.fragment == nil,
              parts.userInfo == nil else { return false }
        return Origin(url: issuer) == origin
    }
}

/// `application/x-www-form-urlencoded` pieces: query items split on `&` and `=` as bytes (so a
/// mark after either does not hide it), `+` as space, percent-decoded; and escaping for values
