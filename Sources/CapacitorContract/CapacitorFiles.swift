import HostCore

/// Local files on the app scheme (contract §1): `convertFileSrc('/x')` is
/// `<server url>/_capacitor_file_/x`, and the scheme answers it with the file at `/x`.
///
/// Capacitor's iOS scheme handler takes the path after `/_capacitor_file_` (decoded) as an
/// absolute file path and serves that file with no check of its own — iOS's sandbox is the
/// limit: an app can read its bundle and its data container, nothing of the user's beyond
/// them. Its type comes from the extension; `Cache-Control: no-cache`; a `Range` request gets
/// 206 with the slice; a file that cannot be read fails the request.
///
/// Linux has no such sandbox, so the host draws it. The page may read files under:
/// - the app's web directory (the bundle's `public`, which iOS serves the app from);
/// - `files/` in the app's data directory and `files/` in its cache directory, the
///   counterparts of the container's Documents/Library and Caches/tmp: where a plugin puts a
///   file for the page to show.
/// Not the rest of the app's profile: that holds the host's own records — the cookie database
/// (HttpOnly cookies included), the owner-only secret file, the push token and permission
/// answer, WebKit's storage and HTTP cache — which on iOS live in the Keychain, WebKit's data
/// store and the system, never among the files a page can name. Nothing else of the user's.
/// Symbolic links are followed, and the file they lead to must be inside one of these too
/// (`contains`, asked again of the resolved path).
public struct CapacitorFiles: Sendable, Equatable {
    public static let prefix = "/_capacitor_file_"
    /// The directory, in the app's data and cache directories, whose files the page may read.
    public static let directoryName = "files"

    /// Absolute directories, without a trailing `/`; a directory may be listed under more
    /// than one spelling (as given, and with its symbolic links resolved).
    public let roots: [String]

    public init(roots: [String]) {
        var seen: [String] = []
        for root in roots {
            var trimmed = root
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            if trimmed.hasPrefix("/"), trimmed != "/", !seen.contains(trimmed) { seen.append(trimmed) }
        }
        self.roots = seen
    }

    /// The app's file directories, beside its profile: `<data>/files` and `<cache>/files`.
    public static func directories(dataDirectory: String, cacheDirectory: String) -> [String] {
        [dataDirectory + "/" + directoryName, cacheDirectory + "/" + directoryName]
    }

    /// Whether a request path of the app scheme names a local file (and is not one of `webDir`).
    public static func isFileRequest(_ requestPath: String) -> Bool {
        let path = decodedPath(requestPath)
        return path == prefix || path.hasPrefix(prefix + "/")
    }

    public enum Answer: Sendable, Equatable {
        /// Read this absolute path (then check the resolved one with `contains`).
        case file(String, mimeType: String)
        /// Refuse, saying why (for the page and the log).
        case forbidden(String)
    }

    /// What the scheme does for a `/_capacitor_file_…` request path.
    public func answer(forRequestPath requestPath: String) -> Answer {
        let decoded = decodedPath(requestPath)
        let rest = decoded.hasPrefix(Self.prefix) ? String(decoded.dropFirst(Self.prefix.count)) : decoded
        guard rest.hasPrefix("/"), !rest.contains("\0"), !rest.contains("\\") else {
            return .forbidden("\(Self.prefix) must be followed by an absolute file path (with no NUL or backslash)")
        }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.isEmpty else { return .forbidden("\(Self.prefix) must be followed by an absolute file path") }
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else {
            return .forbidden("the file path \"\(rest)\" is not a plain absolute path (no \"..\" or \".\")")
        }
        let path = "/" + segments.joined(separator: "/")
        guard contains(path) else { return .forbidden(outside(path)) }
        return .file(path, mimeType: CapacitorAssets.mimeType(forPath: path))
    }

    /// Whether an absolute path is inside one of the roots (the root itself is not a file).
    public func contains(_ path: String) -> Bool {
        roots.contains { path.hasPrefix($0 + "/") && path.count > $0.count + 1 }
    }

    /// Why a path is refused.
    public func outside(_ path: String) -> String {
        roots.isEmpty ? "this app serves no local files (\(path))"
            : "\(path) is outside the files this app may read: its web directory and its own files directories (\(roots.joined(separator: ", ")))"
    }

    private static func decodedPath(_ requestPath: String) -> String {
        var path = requestPath
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        return PercentEncoding.decode(path.utf8)
    }

    private func decodedPath(_ requestPath: String) -> String { Self.decodedPath(requestPath) }
}
