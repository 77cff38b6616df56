import HostCore

/// The app's own API credential for one server: a bearer access token (`tca_…`) and a refresh
/// token (`tcr_…`) with the access token's expiry. Kept by the host in the system keychain or its
/// fallback file; never given to the page, never logged, never in a state dump.
public struct Credential: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var tokenType: String
    /// Seconds since 1970 (UTC).
    public var expiresAt: Double

    /// Refresh this long before expiry (CONTRACT.md §4).
    public static let refreshLead = 60.0

    public init(accessToken: String, refreshToken: String, tokenType: String = "Bearer", expiresAt: Double) {
        self.accessToken = accessToken; self.refreshToken = refreshToken; self.tokenType = tokenType; self.expiresAt = expiresAt
    }

    /// When a refresh is due (never in the past of `now`).
    public func refreshDue(now: Double) -> Double { max(now, expiresAt - Self.refreshLead) }

    public func needsRefresh(now: Double) -> Bool { now >= expiresAt - Self.refreshLead }

    /// The stored form (the secret itself: only ever written to the keychain or a 0600 file).
    public var json: JSONValue {
        ["access_token": .string(accessToken), "refresh_token": .string(refreshToken),
         "token_type": .string(tokenType), "expires_at": .number(expiresAt)]
    }

    /// The longest token taken, in UTF-8 bytes.
    public static let maxTokenBytes = 4096
    /// How the access and the refresh token start (§4 "Sign-in": `tca_…`, `tcr_…`).
    public static let accessTokenMarker = "tca_"
    public static let refreshTokenMarker = "tcr_"
    /// The stored form (`json`) is at most this large: two tokens of `maxTokenBytes` and three
    /// short fields fit in it several times over, so anything larger is not a credential.
    public static let maxStoredBytes = 64 << 10

    /// Whether `token` can be one of the app's tokens: it starts with `marker` (`tca_` or
    /// `tcr_`, compared scalar for scalar, CONTRACT.md §5: a mark after the `_` does not hide
    /// it), is at most `maxTokenBytes` long, and has no white space or control character, so it
    /// goes into an `Authorization` header as it is.
    static func isToken(_ token: String, marker: String) -> Bool {
        token.utf8.starts(with: marker.utf8) && token.utf8.count <= maxTokenBytes
            && !token.unicodeScalars.contains { ScalarText.isWhitespace($0) || ScalarText.isControl($0) }
    }

    /// Whether `token` can be the app's access token (`isToken` with `accessTokenMarker`).
    public static func isAccessToken(_ token: String) -> Bool { isToken(token, marker: accessTokenMarker) }

    /// Reads the stored form as `json` wrote it (the keyring's secret or the fallback file's
    /// text): nil when it is larger than `maxStoredBytes`, not JSON, or not a credential.
    public init?(storedForm text: String) {
        guard text.utf8.count <= Self.maxStoredBytes, let value = try? JSONParser.parse(text, maxDepth: 4) else { return nil }
        self.init(json: value)
    }

    /// Reads the stored form or a server's `data.credential`; `expires_at` may be seconds since
    /// 1970 or an ISO 8601 UTC time. `token_type` (default Bearer) is `bearer` in any ASCII case.
    public init?(json: JSONValue) {
        guard let object = json.objectValue,
              let access = object["access_token"]?.stringValue, Self.isToken(access, marker: Self.accessTokenMarker),
              let refresh = object["refresh_token"]?.stringValue, Self.isToken(refresh, marker: Self.refreshTokenMarker)
        else { return nil }
        let type = object["token_type"]?.stringValue ?? "Bearer"
        guard type.asciiLowercased().isExactly("bearer") else { return nil }
        let expiry: Double?
        switch object["expires_at"] {
        case .number(let seconds)?: expiry = seconds.isFinite ? seconds : nil
        case .string(let text)?: expiry = ISO8601.seconds(text)
        default: expiry = nil
        }
        guard let expiry else { return nil }
        self.init(accessToken: access, refreshToken: refresh, tokenType: "Bearer", expiresAt: expiry)
    }
}

/// What the exchange endpoint (`POST /api/v1/oauth/ios-session`) answered.
public enum SessionExchangeResult: Sendable, Equatable {
    /// A credential (and, in the response's `Set-Cookie`, a Studio session).
    case credential(Credential)
    /// An older server: a Studio session only, no app credential.
    case studioSessionOnly
    case failed(SignInProblem)

    /// Interprets the status and body. 400/401 are rejections, 429 and 5xx "try later".
    public static func interpret(status: Int, body: [UInt8]) -> SessionExchangeResult {
        switch status {
        case 200, 201:
            break
        case 400, 401:
            return .failed(.rejected(status == 400 ? "the request was refused (HTTP 400)" : "the sign-in was not accepted (HTTP 401)"))
        case 429:
            return .failed(.unavailable("too many attempts (HTTP 429)"))
        case 500...599:
            return .failed(.unavailable("HTTP \(status)"))
        default:
            return .failed(.unavailable("unexpected HTTP \(status)"))
        }
        guard let value = try? JSONParser.parse(bytes: body, maxDepth: 16), let data = value.objectValue?["data"]?.objectValue else {
            return .failed(.unavailable("the answer was not the expected JSON"))
        }
        if let raw = data["credential"] {
            guard let credential = Credential(json: raw) else { return .failed(.unavailable("the credential in the answer was malformed")) }
            return .credential(credential)
        }
        if data["authenticated"]?.boolValue == true { return .studioSessionOnly }
        return .failed(.unavailable("the answer had neither a credential nor a session"))
    }

    /// The refresh request's body; `studioSession` asks for a fresh Studio cookie too.
    public static func refreshBody(_ credential: Credential, studioSession: Bool) -> JSONValue {
        ["grant_type": "refresh_token", "client_id": .string(SignInRequest.clientId),
         "refresh_token": .string(credential.refreshToken), "studio_session": .bool(studioSession)]
    }
}

/// ISO 8601 UTC times as servers write them: `2026-11-29T15:04:05Z`, optionally with fractional
/// seconds or a `+hh:mm` offset.
public enum ISO8601 {
    public static func seconds(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] | 0x20 == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<from + count {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            while i < b.count, b[i] >= 48 && b[i] <= 57 { fraction += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
        }
        var offset = 0
        if i < b.count, b[i] | 0x20 == UInt8(ascii: "z"), i + 1 == b.count {
            offset = 0
        } else if i + 6 == b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: ":"),
                  let hours = number(i + 1, 2), let minutes = number(i + 4, 2) {
            offset = (hours * 60 + minutes) * 60 * (b[i] == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        // Days since 1970-01-01 (proleptic Gregorian), from the civil date.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}
