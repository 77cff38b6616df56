/// How the loopback fixture servers (`serve --reference`, `serve --homesec`) serve a web app's
/// files: the file for a request path — never outside the root (no segment may start with a
/// dot, compared on bytes as the file system reads them), and an extension-less path is a route
/// of the app's client-side router, so it gets `index.html` — and its content type, as the app
/// scheme sends it (text with its charset).
public enum StaticFiles {
    /// The file under `root` for `requestPath` (which starts with "/"), or nil when it would leave `root`.
    public static func file(root: String, requestPath: String) -> String? {
        let segments = requestPath.utf8.split(separator: UInt8(ascii: "/"))
        guard !segments.contains(where: { $0.first == UInt8(ascii: ".") }) else { return nil }
        return segments.last?.contains(UInt8(ascii: ".")) == true ? root + requestPath : root + "/index.html"
    }

    /// The Content-Type to send with `file`.
    public static func contentType(_ file: String) -> String {
        let type = MediaTypes.mimeType(forPath: file)
        return MediaTypes.isText(type) ? type + "; charset=utf-8" : type
    }
}
