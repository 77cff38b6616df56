import HostCore

/// What the host does with a `system/share` (§4 "Share refusal").
public enum ShareVerdict: Sendable, Equatable {
    /// Show the share panel.
    case allowed
    /// Reply `unavailable`: the URL points into the server's own API or native tree.
    case unavailable(reason: String)
}

/// The refusal rules for shared content. Content rules make the message `malformed`; the
/// origin rule (which needs the server) makes it `unavailable`.
public enum SharePolicy {
    /// Query or fragment parameter names that carry credentials.
    static let credentialParameters: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "password", "passwd", "secret",
        "client_secret", "api_key", "apikey", "x-api-key", "signature", "sig", "auth", "authorization",
        "session", "sessionid", "session_id", "csrf", "csrf_token", "credential", "credentials", "bearer", "code",
    ]

    /// Prefixes of Tilecast credentials (access, refresh, device, pairing), matched anywhere.
    static let credentialMarkers = CredentialMarkers.prefixes

    struct ContentProblem { let field: String?; let reason: String }

    /// The content rules (malformed): URL shape, credential parameters, credential markers.
    static func contentProblem(_ share: ShareRequest) -> ContentProblem? {
        if let url = share.url, let reason = urlProblem(url) { return ContentProblem(field: "url", reason: reason) }
        for (field, value) in [("title", share.title), ("text", share.text), ("url", share.url)] {
            if let value, containsCredentialMarker(value) {
                return ContentProblem(field: field, reason: "looks like it carries a Tilecast credential")
            }
        }
        return nil
    }

    /// Why `url` may not be shared, or nil: absolute http(s), no user info, no white space,
    /// control character or backslash anywhere, no credential-named parameter.
    public static func urlProblem(_ url: String) -> String? {
        guard url.utf8.starts(with: "https://".utf8) || url.utf8.starts(with: "http://".utf8) else { return "must be an absolute http or https URL" }
        if Patterns.hasForbiddenCharacter(url) { return "must not contain white space, control characters or a backslash" }
        guard let parts = URLParts(url) else { return "is not a valid URL" }
        if parts.userInfo != nil { return "must not contain user information" }
        for component in [parts.query, parts.fragment] {
            if let component, let name = credentialParameter(in: component) {
                return "names a credential parameter (\(name))"
            }
        }
        return nil
    }

    /// The first parameter name in a query or fragment that is a credential, read the way form
    /// decoding reads it: split on `&` or `;` (as bytes, so no mark hides them), `+` as space,
    /// percent-decoded, trimmed as JavaScript trims, ASCII-lowercased.
    static func credentialParameter(in component: Substring) -> String? {
        for pair in component.utf8.split(whereSeparator: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }) {
            let nameBytes = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false).first ?? pair
            let name = PercentEncoding.decode(nameBytes, plusAsSpace: true)
                .trimmingWhitespace().asciiLowercased()
            // Every listed name is ASCII, and for ASCII the set's `==` is byte equality.
            if name.utf8.allSatisfy({ $0 < 0x80 }), credentialParameters.contains(name) { return name }
        }
        return nil
    }

    /// A credential marker anywhere, ASCII letters in either case, matched on the UTF-8 bytes:
    /// a mark after the marker's `_` does not hide it.
    public static func containsCredentialMarker(_ text: String) -> Bool { CredentialMarkers.contained(in: text) }

    /// The origin rule, for content that passed the content rules: a URL on the server's own
    /// origin under `/api` or `/__native` (percent-decoded, any case) is not shared.
    public static func verdict(for share: ShareRequest, serverOrigin: Origin?) -> ShareVerdict {
        guard let url = share.url, let serverOrigin, let parts = URLParts(url),
              let origin = Origin(scheme: parts.scheme, host: parts.host, port: parts.port),
              origin == serverOrigin else { return .allowed }
        let path = PercentEncoding.decode(parts.path.utf8).asciiLowercased()
        for root in ["/api", "/__native"] where StudioPath.isInTree(path[...], root: root) {
            return .unavailable(reason: "links into the server's \(root) tree are not shared")
        }
        return .allowed
    }
}
