import HostCore

/// How the app scheme answers (contract §3): which file of `webDir` a request gets
/// (`CapacitorURL.assetPath`, with the client-routing fallback) or which local file a
/// `/_capacitor_file_` path names (`CapacitorFiles`), and with what content type. A `Range`
/// request is answered by `ByteRange`.
public enum CapacitorAssets {
    /// The most bytes read into memory for one answer (a bundle's biggest chunk is a few MiB; a
    /// larger range is cut to this, and a whole file is streamed from disk instead).
    public static let maxFileBytes = 256 << 20

    /// What the scheme handler does for a request path.
    public enum Answer: Sendable, Equatable {
        /// Serve this file, relative to `webDir`, with this content type.
        case file(String, mimeType: String, fallback: Bool)
        /// Serve this local file (an absolute path inside `CapacitorFiles`' roots) with this type.
        case localFile(String, mimeType: String)
        /// Refuse: the path leaves `webDir` or the app's files, or is not a path.
        case forbidden(String)
    }

    public static func answer(forRequestPath path: String, files: CapacitorFiles = CapacitorFiles(roots: [])) -> Answer {
        if CapacitorFiles.isFileRequest(path) {
            switch files.answer(forRequestPath: path) {
            case .file(let file, let mimeType): return .localFile(file, mimeType: mimeType)
            case .forbidden(let why): return .forbidden(why)
            }
        }
        guard let asset = CapacitorURL.assetPath(forRequestPath: path) else {
            return .forbidden("the path \"\(path)\" is not inside the app's web directory")
        }
        return .file(asset, mimeType: mimeType(forPath: asset), fallback: CapacitorURL.isRoutingFallback(requestPath: path))
    }

    /// The content type of a served file, by its extension (`MediaTypes`).
    public static func mimeType(forPath path: String) -> String { MediaTypes.mimeType(forPath: path) }

    /// Whether the type is text that should say its charset.
    public static func isText(_ mimeType: String) -> Bool { MediaTypes.isText(mimeType) }
}
