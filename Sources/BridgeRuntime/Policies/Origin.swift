/// A web origin: scheme, host and port, compared exactly (default ports made explicit).
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// Lowercased `http` or `https`.
    public let scheme: String
    /// Lowercased; an IPv6 address without brackets.
    public let host: String
    /// The effective port: the default for the scheme when none was written.
    public let port: Int

    public init?(scheme: String, host: String, port: Int?) {
        let scheme = scheme.lowercased()
        guard let defaultPort = Self.defaultPort(scheme), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        // A page may report its origin's default port as 0.
        let port = port ?? 0
        guard (0...65535).contains(port) else { return nil }
        self.port = port == 0 ? defaultPort : port
    }

    /// The origin of an absolute http(s) URL, or nil when it has none.
    public init?(url: String) {
        guard let parts = URLParts(url), let origin = Origin(scheme: parts.scheme, host: parts.host, port: parts.port) else {
            return nil
        }
        self = origin
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    public var isDefaultPort: Bool { Self.defaultPort(scheme) == port }

    /// `scheme://host[:port]`, the port only when it is not the default, IPv6 in brackets.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return isDefaultPort ? "\(scheme)://\(hostText)" : "\(scheme)://\(hostText):\(port)"
    }
}

/// The pieces of an absolute hierarchical URL (`scheme://authority/path?query#fragment`), split
/// without normalizing anything. Enough for the contract's checks; not a general URL parser.
struct URLParts {
    var scheme: String
    var userInfo: Substring?
    var host: String
    var port: Int?
    /// The port exactly as written (`:` present), even when it equals the default.
    var hasExplicitPort: Bool
    var path: Substring
    var query: Substring?
    var fragment: Substring?

    init?(_ url: String) {
        guard let schemeEnd = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<schemeEnd]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        self.scheme = scheme.lowercased()
        var rest = url[url.index(after: schemeEnd)...]
        guard rest.hasPrefix("//") else { return nil }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var tail = rest[authorityEnd...]
        if let at = authority.lastIndex(of: "@") {
            userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
        }
        // Host and port; an IPv6 literal is bracketed.
        var hostPart: Substring
        var portPart: Substring? = nil
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
            guard !hostPart.isEmpty, hostPart.unicodeScalars.allSatisfy({ $0.isASCIIHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
        }
        hasExplicitPort = portPart != nil
        if let portPart {
            guard !portPart.isEmpty, portPart.utf8.count <= 5, portPart.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let value = Int(portPart), value <= 65535 else { return nil }
            port = value
        }
        guard !hostPart.isEmpty else { return nil }
        host = hostPart.lowercased()
        if let hash = tail.firstIndex(of: "#") {
            fragment = tail[tail.index(after: hash)...]
            tail = tail[..<hash]
        }
        if let question = tail.firstIndex(of: "?") {
            query = tail[tail.index(after: question)...]
            tail = tail[..<question]
        }
        path = tail
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
    var isASCIIHexDigit: Bool { isASCIIDigit || (0x41...0x46).contains(value) || (0x61...0x66).contains(value) }
}
