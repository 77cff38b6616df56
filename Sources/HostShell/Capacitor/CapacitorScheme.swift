import BridgeRuntime
import CGtk
import Glibc

/// Serves a Capacitor app's `webDir` on its app scheme (`capacitor://localhost`, contract §3):
/// WebKit's custom URI scheme handler on the default web context answers each request with a
/// file of `webDir` (`CapacitorAssets` decides which, with the client-routing fallback and the
/// content type), never one outside it — a symbolic link out of `webDir` is refused too. The
/// scheme is CORS-enabled (the app calls its server with cross-origin `fetch`) and not marked
/// secure, so plain-http servers on the LAN are not blocked as mixed content.
@MainActor
final class CapacitorScheme {
    /// One per scheme for the life of the process (WebKit registers a scheme once per context).
    private static var served: [String: CapacitorScheme] = [:]

    let scheme: String
    let host: String
    /// `webDir` resolved (no symbolic links), ending without `/`.
    let root: String
    /// Requests answered, and how many fell back to `index.html` or were refused (for `ctl state`).
    private(set) var answered = 0
    private(set) var fallbacks = 0
    private(set) var refused: [String] = []

    private init(scheme: String, host: String, root: String) { self.scheme = scheme; self.host = host; self.root = root }

    /// Serves `webDir` on `scheme://host`. Call before any page loads from it.
    static func serve(scheme: String, host: String, webDir: String) throws(UsageError) -> CapacitorScheme {
        guard let resolved = realpath(webDir, nil) else {
            throw UsageError("the web directory \(webDir) cannot be used: \(String(cString: strerror(errno)))")
        }
        let root = String(cString: resolved)
        free(resolved)
        guard g_file_test(root, G_FILE_TEST_IS_DIR) != 0 else { throw UsageError("the web directory \(webDir) is not a directory") }
        guard g_file_test(root + "/index.html", G_FILE_TEST_IS_REGULAR) != 0 else {
            throw UsageError("the web directory \(webDir) has no index.html: build the web app first (e.g. npm run build), or point --web-dir at its output")
        }
        if let existing = served[scheme] {
            guard existing.root == root, existing.host == host else { throw UsageError("the \(scheme): scheme already serves another app in this process") }
            return existing
        }
        let handler = CapacitorScheme(scheme: scheme, host: host, root: root)
        served[scheme] = handler
        let context = webkit_web_context_get_default()
        webkit_web_context_register_uri_scheme(context, scheme, { request, data in
            let handler = Unmanaged<CapacitorScheme>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { handler.answer(request!) }
        }, Unmanaged.passRetained(handler).toOpaque(), nil)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(webkit_web_context_get_security_manager(context), scheme)
        return handler
    }

    var json: JSONValue {
        ["origin": .string("\(scheme)://\(host)"), "webDir": .string(root), "answered": .number(Double(answered)),
         "fallbacks": .number(Double(fallbacks)), "refused": .array(refused.map(JSONValue.string))]
    }

    private func answer(_ request: OpaquePointer) {
        answered += 1
        let uri = webkit_uri_scheme_request_get_uri(request).map { String(cString: $0) } ?? ""
        let path = webkit_uri_scheme_request_get_path(request).map { String(cString: $0) } ?? "/"
        // The host of `scheme://host/path…`: between "//" and the next "/", "?" or "#".
        let afterScheme = uri.range(of: "://").map { uri[$0.upperBound...] } ?? ""
        let requestHost = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard requestHost.lowercased() == host else {
            return finish(request, status: 404, text: "This app is served at \(scheme)://\(host)/ only.", refusal: uri)
        }
        switch CapacitorAssets.answer(forRequestPath: path) {
        case .forbidden(let why):
            finish(request, status: 403, text: why, refusal: uri)
        case .file(let relative, let mimeType, let fallback):
            if fallback { fallbacks += 1 }
            let file = root + "/" + relative
            // The file as it really is: a link out of webDir is not part of the app.
            guard let real = realpath(file, nil) else { return finish(request, status: 404, text: "Not found: \(path)", refusal: nil) }
            let resolved = String(cString: real)
            free(real)
            guard resolved.hasPrefix(root + "/"), g_file_test(resolved, G_FILE_TEST_IS_REGULAR) != 0 else {
                return finish(request, status: 404, text: "Not found: \(path)", refusal: resolved.hasPrefix(root + "/") ? nil : uri)
            }
            var contents: UnsafeMutablePointer<gchar>? = nil
            var length: gsize = 0
            var error: UnsafeMutablePointer<GError>? = nil
            var status = stat()
            guard stat(resolved, &status) == 0, Int(status.st_size) <= CapacitorAssets.maxFileBytes,
                  g_file_get_contents(resolved, &contents, &length, &error) != 0 else {
                let why = error.map { String(cString: $0.pointee.message) } ?? "too large or unreadable"
                g_clear_error(&error)
                return finish(request, status: 500, text: "Cannot read \(path): \(why)", refusal: nil)
            }
            let stream = g_memory_input_stream_new_from_data(contents, gssize(length), g_free)
            respond(request, stream: stream, length: Int(length), status: 200, mimeType: mimeType)
        }
    }

    private func finish(_ request: OpaquePointer, status: Int, text: String, refusal: String?) {
        if let refusal {
            refused.append(refusal)
            if refused.count > 20 { refused.removeFirst() }
        }
        let bytes = Array(text.utf8)
        let copy = g_malloc(gsize(max(bytes.count, 1)))!
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let stream = g_memory_input_stream_new_from_data(copy, gssize(bytes.count), g_free)
        respond(request, stream: stream, length: bytes.count, status: status, mimeType: "text/plain")
    }

    private func respond(_ request: OpaquePointer, stream: UnsafeMutablePointer<GInputStream>?, length: Int, status: Int, mimeType: String) {
        let response = webkit_uri_scheme_response_new(stream, length)
        webkit_uri_scheme_response_set_status(response, guint(status), nil)
        webkit_uri_scheme_response_set_content_type(response, mimeType)
        let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)
        soup_message_headers_append(headers, "Content-Type", CapacitorAssets.isText(mimeType) ? mimeType + "; charset=utf-8" : mimeType)
        soup_message_headers_append(headers, "Cache-Control", "no-cache")
        webkit_uri_scheme_response_set_http_headers(response, headers)  // takes the headers
        webkit_uri_scheme_request_finish_with_response(request, response)
        unref(response)
        g_object_unref(stream)
    }
}
