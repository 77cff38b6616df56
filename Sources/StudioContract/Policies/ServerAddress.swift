import HostCore

/// Why an address cannot be saved as a server.
public enum ServerAddressProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case unsupportedScheme(String)
    case invalid(String)
    case containsPath
    case publicHTTP(host: String)

    public var description: String {
        switch self {
        case .empty: return "Enter the server's address, for example https://studio.example.org."
        case .unsupportedScheme(let s): return "\"\(s)\" addresses are not supported; use https:// (or http:// on a local network)."
        case .invalid(let why): return "That is not a server address: \(why)."
        case .containsPath: return "Enter only the server's address, without a path (for example https://studio.example.org)."
        case .publicHTTP(let host): return "Plain http is allowed only on a local network; \(host) must use https://."
        }
    }
}

/// A server address that passed the policy (§4 "Server address").
public struct ServerAddress: Sendable, Equatable, CustomStringConvertible {
    public let origin: Origin
    /// `scheme://host[:port]` as entered (normalized), keeping a typed port even when it is the default.
    public let normalized: String
    /// Plain http on a local network: allowed, but the user is warned before it is saved.
    public var isPlainHTTP: Bool { origin.scheme == "http" }
    public var description: String { normalized }

    /// For an address typed without a scheme (so https, §4), the same host and port over plain
    /// http when the policy allows it there (a local address): what `server add` also asks, to
    /// tell a person at once that the server speaks http and how to add it. Nil otherwise.
    public static func plainTwin(of input: String) -> ServerAddress? {
        let trimmed = input.trimmingWhitespace()
        guard trimmed.firstScalarRange(of: "://") == nil, case .success(let twin) = parse("http://" + trimmed) else { return nil }
        return twin
    }

    /// Trim (as JavaScript trims); a bare host gets `https://`; http or https only; no user
    /// info, query or fragment; path empty or `/`; host ASCII-lowercased; port kept. Plain http
    /// only for local addresses. Every delimiter is found on scalars (CONTRACT.md §5).
    public static func parse(_ input: String) -> Result<ServerAddress, ServerAddressProblem> {
        let trimmed = input.trimmingWhitespace()
        guard !trimmed.isEmpty else { return .failure(.empty) }
        let text = trimmed.firstScalarRange(of: "://") != nil ? trimmed : "https://" + trimmed
        if Patterns.hasForbiddenCharacter(text) { return .failure(.invalid("it contains spaces or control characters")) }
        guard let schemeEnd = text.firstScalarRange(of: "://") else { return .failure(.invalid("it has no scheme")) }
        let scheme = text[..<schemeEnd.lowerBound].asciiLowercased()
        guard scheme.isExactly("http") || scheme.isExactly("https") else { return .failure(.unsupportedScheme(scheme)) }
        guard let parts = URLParts(text) else { return .failure(.invalid("it cannot be read as a URL")) }
        if parts.userInfo != nil { return .failure(.invalid("it contains a user name or password")) }
        if parts.query != nil { return .failure(.invalid("it contains a query (?…)")) }
        if parts.fragment != nil { return .failure(.invalid("it contains a fragment (#…)")) }
        guard parts.path.isEmpty || parts.path.isExactly("/") else { return .failure(.containsPath) }
        let host = parts.host
        guard isValidHost(host) else { return .failure(.invalid("\"\(host)\" is not a host name or address")) }
        if scheme.isExactly("http") && !isLocal(host) { return .failure(.publicHTTP(host: host)) }
        if parts.port == 0 {
            return .failure(.invalid("port 0 is not a port a server can be reached on; ports run from 1 to 65535"))
        }
        guard let origin = Origin(scheme: scheme, host: host, port: parts.port) else {
            return .failure(.invalid("the port is out of range"))
        }
        let hostText = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        let normalized = parts.port.map { "\(scheme)://\(hostText):\($0)" } ?? "\(scheme)://\(hostText)"
        return .success(ServerAddress(origin: origin, normalized: normalized))
    }

    public static func isValidHost(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) {
            return host.unicodeScalars.allSatisfy { $0.isASCIIHexDigit || $0 == ":" || $0 == "." }
        }
        // The first and last scalars: a spacing mark after a leading `.` must not hide it.
        guard host.utf8.first != UInt8(ascii: "."), host.utf8.last != UInt8(ascii: ".") else { return false }
        return host.unicodeScalars.allSatisfy {
            $0 == "-" || $0 == "." || $0.properties.isAlphabetic || $0.properties.numericType != nil
        }
    }

    /// Hosts that may use plain http: loopback, private and link-local IPv4, `localhost`, `*.local`, `::1`.
    public static func isLocal(_ host: String) -> Bool {
        let host = host.asciiLowercased()
        if host.isExactly("localhost") || host.utf8.suffix(6).elementsEqual(".local".utf8) || host.isExactly("::1") { return true }
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 48) }
            guard value <= 255 else { return false }
            octets.append(value)
        }
        switch (octets[0], octets[1]) {
        case (10, _), (127, _), (192, 168), (169, 254): return true
        case (172, 16...31): return true
        default: return false
        }
    }
}
