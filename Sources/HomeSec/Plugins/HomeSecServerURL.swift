/// HomeSec's server address as its shell stores and compares it (capacitor-shell CONTRACT §4,
/// `HomeSecAuth`): trimmed, the scheme alone lower-cased, `http` or `https` with a host, no
/// query or fragment, trailing `/` stripped (the root path becomes empty), any other path kept
/// as written. Applied on every write and on every read of the stored address.
public enum HomeSecServerURL {
    /// The normalised form of `input`, or nil when it is no http(s) address with a host.
    public static func normalize(_ input: String) -> String? {
        let trimmed = trim(input)
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = trimmed[trimmed.index(after: colon)...]
        guard rest.hasPrefix("//"), isURLText(rest) else { return nil }
        let afterSlashes = rest.dropFirst(2)
        // The authority runs to the first `/`, `?` or `#`.
        let authorityEnd = afterSlashes.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd]
        guard hasHost(authority) else { return nil }
        let tail = afterSlashes[authorityEnd...]
        let pathEnd = tail.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? tail.endIndex
        var path = Substring(tail[..<pathEnd])
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        if path == "/" { path = "" }
        return scheme + "://" + authority + path
    }

    /// Whitespace and line breaks off both ends (Unicode's, as Foundation's trimming does).
    static func trim(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = text.lastIndex(where: { !isSpace($0) })!
        return text[first...last]
    }

    /// Only the characters a URL may hold (RFC 3986), with every `%` starting an escape.
    private static func isURLText(_ text: Substring) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let value = scalars[index].value
            if value == 0x25 {  // %
                guard index + 2 < scalars.count, isHex(scalars[index + 1].value), isHex(scalars[index + 2].value) else { return false }
                index += 3
                continue
            }
            guard value < 0x80, allowed.contains(UInt8(value)) else { return false }
            index += 1
        }
        return true
    }

    private static let allowed: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#[]".utf8))

    private static func isHex(_ value: UInt32) -> Bool {
        (0x30...0x39).contains(value) || (0x41...0x46).contains(value) || (0x61...0x66).contains(value)
    }

    /// `[userinfo@]host[:port]` with a host that is not empty, a bracketed IPv6 literal closed,
    /// brackets nowhere else, and a port of digits.
    private static func hasHost(_ authority: Substring) -> Bool {
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let host: Substring
        let port: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return false }
            host = hostAndPort[...close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return false }
            port = after.dropFirst()
            guard host.count > 2, !host.dropFirst().dropLast().contains(where: { $0 == "[" || $0 == "]" }) else { return false }
        } else {
            let colon = hostAndPort.firstIndex(of: ":")
            host = colon.map { hostAndPort[..<$0] } ?? hostAndPort
            port = colon.map { hostAndPort[hostAndPort.index(after: $0)...] } ?? ""
            guard !host.isEmpty, !host.contains(where: { $0 == "[" || $0 == "]" }) else { return false }
        }
        if authority.contains("@") && authority[..<authority.lastIndex(of: "@")!].contains(where: { $0 == "[" || $0 == "]" }) { return false }
        return port.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
