/// A web origin: scheme, host and port, compared exactly (default ports made explicit).
/// Equal means the same scalars: `String`'s `==` (canonical equivalence) would make
/// `é` and `e` + U+0301 one host.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// Lowercased `http` or `https`.
    public let scheme: String
    /// ASCII-lowercased (§5: case-insensitive is ASCII case folding); an IPv6 address without brackets.
    public let host: String
    /// The effective port: the default for the scheme when none was written.
    public let port: Int

    public init?(scheme: String, host: String, port: Int?) {
        let scheme = scheme.asciiLowercased()
        guard let defaultPort = Self.defaultPort(scheme), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.asciiLowercased()
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

    /// An app scheme's origin (`capacitor://localhost`): a scheme of the app's own, which has no
    /// port. Nil for http(s) (use `init(scheme:host:port:)`) or a scheme or host that is not one.
    public init?(appScheme scheme: String, host: String) {
        let scheme = scheme.asciiLowercased()
        guard Self.defaultPort(scheme) == nil, !host.isEmpty, let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) }) else { return nil }
        self.scheme = scheme
        self.host = host.asciiLowercased()
        port = 0
    }

    /// The origin of `url` when it is on the app scheme `appScheme` (see `init(appScheme:host:)`).
    public init?(url: String, appScheme: String) {
        guard let parts = URLParts(url), parts.scheme == appScheme.asciiLowercased(), parts.port == nil,
              let origin = Origin(appScheme: parts.scheme, host: parts.host) else { return nil }
        self = origin
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    public var isDefaultPort: Bool { (Self.defaultPort(scheme) ?? 0) == port }

    public static func == (a: Origin, b: Origin) -> Bool {
        a.port == b.port && a.scheme.isExactly(b.scheme) && a.host.isExactly(b.host)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(port)
        for byte in scheme.utf8 { hasher.combine(byte) }
        hasher.combine(0xFF as UInt8)  // never a byte of UTF-8: the scheme ends here
        for byte in host.utf8 { hasher.combine(byte) }
    }

    /// `scheme://host[:port]`, the port only when it is not the default, IPv6 in brackets.
    public var description: String {
        let hostText = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return isDefaultPort ? "\(scheme)://\(hostText)" : "\(scheme)://\(hostText):\(port)"
    }
}

/// The pieces of an absolute hierarchical URL (`scheme://authority/path?query#fragment`), split
/// without normalizing anything. Enough for the contract's checks; not a general URL parser.
/// Every delimiter is found on UTF-8 bytes (CONTRACT.md §5): a mark after `@`, `/`, `?`, `#`
/// or `:` does not hide it, and each piece keeps its scalars exactly.
package struct URLParts {
    /// ASCII-lowercased.
    package var scheme: String
    package var userInfo: Substring?
    /// ASCII-lowercased; an IPv6 address without brackets.
    package var host: String
    package var port: Int?
    /// The port exactly as written (`:` present), even when it equals the default.
    package var hasExplicitPort: Bool
    package var path: Substring
    package var query: Substring?
    package var fragment: Substring?

    package init?(_ url: String) {
        guard let schemeEnd = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = url[..<schemeEnd]
        guard let first = scheme.utf8.first, first &- UInt8(ascii: "a") < 26 || first &- UInt8(ascii: "A") < 26,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        self.scheme = scheme.asciiLowercased()
        let afterScheme = url[url.utf8.index(after: schemeEnd)...]
        guard afterScheme.utf8.starts(with: "//".utf8) else { return nil }
        let rest = afterScheme[afterScheme.utf8.index(afterScheme.startIndex, offsetBy: 2)...]
        let authorityEnd = rest.utf8.firstIndex(where: {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var tail = rest[authorityEnd...]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = authority[..<at]
            authority = authority[authority.utf8.index(after: at)...]
        }
        // Host and port; an IPv6 literal is bracketed.
        var hostPart: Substring
        var portPart: Substring? = nil
        if authority.utf8.first == UInt8(ascii: "[") {
            guard let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostPart = authority[authority.utf8.index(after: authority.startIndex)..<close]
            let after = authority[authority.utf8.index(after: close)...]
            if !after.isEmpty {
                guard after.utf8.first == UInt8(ascii: ":") else { return nil }
                portPart = after[after.utf8.index(after: after.startIndex)...]
            }
            guard !hostPart.isEmpty, hostPart.unicodeScalars.allSatisfy({ $0.isASCIIHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[..<colon]
            portPart = authority[authority.utf8.index(after: colon)...]
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
        host = hostPart.asciiLowercased()
        if let hash = tail.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = tail[tail.utf8.index(after: hash)...]
            tail = tail[..<hash]
        }
        if let question = tail.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = tail[tail.utf8.index(after: question)...]
            tail = tail[..<question]
        }
        path = tail
    }
}
