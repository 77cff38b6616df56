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

    /// Content types by extension, as a web server sends them (HTML and scripts as UTF-8 text).
    static let types: [String: String] = [
        "html": "text/html", "htm": "text/html", "js": "text/javascript", "mjs": "text/javascript", "cjs": "text/javascript",
        "css": "text/css", "json": "application/json", "map": "application/json", "webmanifest": "application/manifest+json",
        "txt": "text/plain", "xml": "application/xml", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "bmp": "image/bmp", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "flac": "audio/flac", "wav": "audio/wav", "ogg": "audio/ogg",
        "heic": "image/heic", "csv": "text/csv", "pdf": "application/pdf",
    ]

    /// The content type of a served file, by its extension (any case); unknown ones are bytes.
    public static func mimeType(forPath path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return types[name[name.index(after: dot)...].asciiLowercased()] ?? "application/octet-stream"
    }

    /// Whether the type is text that should say its charset.
    public static func isText(_ mimeType: String) -> Bool {
        mimeType.hasPrefix("text/") || mimeType == "application/json" || mimeType == "image/svg+xml"
            || mimeType == "application/manifest+json" || mimeType == "application/xml"
    }
}
