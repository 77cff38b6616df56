/// Content types of served files, by extension: the app scheme and the fixture servers send the same.
public enum MediaTypes {
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
        // HLS: the playlist and its MPEG-TS segments, as Apple's servers send them.
        "m3u8": "application/vnd.apple.mpegurl", "ts": "video/mp2t", "m4s": "video/iso.segment",
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
