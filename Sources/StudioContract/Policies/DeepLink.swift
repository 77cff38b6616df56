import HostCore

/// Why a URL is not a deep link the host will follow.
public enum DeepLinkProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another scheme or host (for example the OAuth callback): not a deep link at all.
    case notADeepLink
    case tooLong
    case forbiddenPart(String)
    case missingParameter(String)
    case repeatedParameter(String)
    case invalidInstallation
    case invalidPath(PathProblem)

    public var description: String {
        switch self {
        case .notADeepLink: return "not a tilecast-ios://open link"
        case .tooLong: return "longer than \(DeepLink.maxLength) characters"
        case .forbiddenPart(let part): return "must not have \(part)"
        case .missingParameter(let name): return "the \(name) parameter is missing or empty"
        case .repeatedParameter(let name): return "the \(name) parameter appears more than once"
        case .invalidInstallation: return "installation is not a UUID"
        case .invalidPath(let problem): return "path \(problem)"
        }
    }
}

/// `tilecast-ios://open?installation=<uuid>&path=<percent-encoded Studio path>` (§4 "Deep links").
public struct DeepLink: Sendable, Equatable {
    public static let scheme = "tilecast-ios"
    public static let maxLength = 4096
    /// How long a queued link stays valid while Studio is not ready.
    public static let validitySeconds = 300.0
    /// Delivery retries: up to 10, waiting 200 ms × attempt.
    public static let maxRetries = 10
    public static func retryDelay(attempt: Int) -> Double { 0.2 * Double(attempt) }

    /// ASCII-lowercased (it is a UUID).
    public var installationId: String
    public var path: String

    public init(installationId: String, path: String) {
        self.installationId = installationId.asciiLowercased(); self.path = path
    }

    /// The saved server this link is for: the one whose installation id is the link's, in
    /// either case (both are UUIDs). Nil means "not configured here": contact no one.
    public func server(in records: [ServerRecord]) -> ServerRecord? {
        records.first { $0.identity.installationId.asciiLowercased().isExactly(installationId) }
    }

    public static func parse(_ url: String) -> Result<DeepLink, DeepLinkProblem> {
        guard let parts = URLParts(url), parts.scheme == scheme else {
            // Distinguish an opaque or odd tilecast-ios URL from other schemes.
            let ours = url.utf8.prefix(scheme.utf8.count + 1).map(ScalarText.foldASCII).elementsEqual((scheme + ":").utf8)
            return .failure(ours ? .forbiddenPart("this shape") : .notADeepLink)
        }
        guard PercentEncoding.decode(parts.host.utf8).asciiLowercased().isExactly("open") else { return .failure(.notADeepLink) }
        guard Patterns.hasLength(url, in: 0...maxLength) else { return .failure(.tooLong) }
        if Patterns.hasForbiddenCharacter(url) { return .failure(.forbiddenPart("white space or control characters")) }
        if parts.userInfo != nil { return .failure(.forbiddenPart("a user or password")) }
        if parts.hasExplicitPort { return .failure(.forbiddenPart("a port")) }
        if parts.fragment != nil { return .failure(.forbiddenPart("a fragment")) }
        guard parts.path.isEmpty || parts.path.isExactly("/") else { return .failure(.forbiddenPart("a path")) }
        guard let query = parts.query else { return .failure(.missingParameter("installation")) }

        var installation: String?
        var path: String?
        // Split on bytes: a mark after `&` or `=` does not hide it (§5).
        for item in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let pieces = item.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = pieces.first, hasValidEscapes(item) else { return .failure(.forbiddenPart("invalid percent escapes")) }
            let name = PercentEncoding.decode(rawName)
            guard name.isExactly("installation") || name.isExactly("path") else { continue }  // other parameters are ignored
            guard pieces.count == 2 else { return .failure(.missingParameter(name)) }
            let value = PercentEncoding.decode(pieces[1])
            if name.isExactly("installation") {
                guard installation == nil else { return .failure(.repeatedParameter(name)) }
                installation = value
            } else {
                guard path == nil else { return .failure(.repeatedParameter(name)) }
                path = value
            }
        }
        guard let installation, !installation.isEmpty else { return .failure(.missingParameter("installation")) }
        guard Patterns.isUUID(installation) else { return .failure(.invalidInstallation) }
        guard let path, !path.isEmpty else { return .failure(.missingParameter("path")) }
        if let problem = checkPath(path) { return .failure(.invalidPath(problem)) }
        return .success(DeepLink(installationId: installation, path: path))
    }

    /// The path rules for a deep link: a Studio path (≤ 2048, outside `/__native`) that is not an
    /// authentication page — `/login`, `/setup`, `/oauth` or below them (`/loginx` is fine).
    public static func checkPath(_ path: String) -> PathProblem? {
        if let problem = StudioPath.checkStudioPath(path) { return problem }
        let part = StudioPath.pathPart(path)
        for reserved in ["/login", "/setup", "/oauth"] where StudioPath.isInTree(part, root: reserved) {
            return .reservedAuthenticationPath
        }
        return nil
    }

    /// Every `%` starts a two-digit hex escape.
    private static func hasValidEscapes(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%") {
                let a = bytes.index(after: i)
                guard a < bytes.endIndex, let b = Optional(bytes.index(after: a)), b < bytes.endIndex,
                      PercentEncoding.hexValue(bytes[a]) != nil, PercentEncoding.hexValue(bytes[b]) != nil else { return false }
                i = bytes.index(after: b)
            } else {
                i = bytes.index(after: i)
            }
        }
        return true
    }
}
