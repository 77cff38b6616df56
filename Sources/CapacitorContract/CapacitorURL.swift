import HostCore

/// URL rules of a Capacitor shell (contract §3, §4), pure.
public enum CapacitorURL {
    /// HomeSec's server URL normalisation: trim; the scheme lower-cased (only it); http or https
    /// with a host; query and fragment dropped; trailing `/` stripped (the root path becomes
    /// empty), a non-root path kept. Nil when the text is not such a URL. Re-applied on every read.
    public static func normalizedServerURL(_ text: String) -> String? {
        let trimmed = text.trimmingSpaces()
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon].asciiLowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = trimmed[trimmed.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        rest = rest.dropFirst(2)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        // The host is what follows any user info and precedes any port.
        let hostPart = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host: Substring
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { return nil }
            host = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else {
            host = hostPart.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
        }
        guard !host.isEmpty, !authority.contains(where: { $0 == " " || $0 == "\\" }) else { return nil }
        while path.hasSuffix("/") { path.removeLast() }
        return scheme + "://" + authority + path
    }

    /// The file a request path of the app's scheme is served from, relative to `webDir`: the
    /// path itself, or `index.html` for a path with no file extension in its last segment
    /// (client routing) and for the root. Nil for a path that leaves `webDir` (`..`) or holds
    /// a NUL or backslash.
    public static func assetPath(forRequestPath raw: String) -> String? {
        var path = raw
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        let decoded = PercentEncoding.decode(path.utf8)
        guard !decoded.contains("\0"), !decoded.contains("\\") else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        guard let last = segments.last, last.contains(".") else { return "index.html" }
        return segments.joined(separator: "/")
    }

    /// Whether a served path fell back to `index.html` (for the log).
    public static func isRoutingFallback(requestPath: String) -> Bool {
        assetPath(forRequestPath: requestPath) == "index.html" && !requestPath.hasSuffix("index.html")
    }

    /// `convertFileSrc`: a local file path as a URL the page can load from the app's origin.
    public static func fileSource(_ path: String, serverURL: String) -> String {
        guard path.hasPrefix("/") else { return path }
        return serverURL + "/_capacitor_file_" + path
    }

    /// The scheme of a link (`homesec` of `homesec://…`), lower-cased; nil when it has none.
    public static func scheme(of link: String) -> String? {
        guard let colon = link.firstIndex(of: ":"), colon != link.startIndex else { return nil }
        let scheme = link[..<colon]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              scheme.first!.isLetter else { return nil }
        return scheme.asciiLowercased()
    }
}
