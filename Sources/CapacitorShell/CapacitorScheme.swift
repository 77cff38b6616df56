import CGtk
import CapacitorContract
import Glibc
import HostCore
import ShellKit

/// Serves a Capacitor app's `webDir` on its app scheme (`capacitor://localhost`, contract §3):
/// WebKit's custom URI scheme handler on the default web context answers each request with a
/// file of `webDir` (`CapacitorAssets` decides which, with the client-routing fallback and the
/// content type), never one outside it — a symbolic link out of `webDir` is refused too. A
/// `/_capacitor_file_/PATH` request (`convertFileSrc`) gets the local file at PATH when
/// `CapacitorFiles` allows it: inside `webDir` or the app's own `files/` directories, which
/// stand in for iOS's sandbox (its comment says why those). `Range` requests get their slice
/// (`ByteRange`). The scheme is CORS-enabled (the app calls its server with cross-origin
/// `fetch`) and not marked secure, so plain-http servers on the LAN are not blocked as mixed
/// content.
@MainActor
package final class CapacitorScheme {
    /// The apps served per scheme. WebKit registers a scheme once per context, so one handler
    /// per scheme answers for every app of the process, each request going to the app whose
    /// network session made it (`serve(session:)`): apps of a fleet share `capacitor://localhost`.
    private static var served: [String: [CapacitorScheme]] = [:]
    /// The network sessions of the apps this one serves.
    private var sessions: [NetworkSessionPointer] = []

    let scheme: String
    package let host: String
    /// `webDir` resolved (no symbolic links), ending without `/`.
    let root: String
    /// The local files a `/_capacitor_file_` request may read.
    let files: CapacitorFiles
    /// Requests answered, how many fell back to `index.html`, asked for local files, or were refused (for `ctl state`).
    private(set) var answered = 0
    private(set) var fallbacks = 0
    private(set) var localFiles = 0
    private(set) var refused: [String] = []

    private init(scheme: String, host: String, root: String, files: CapacitorFiles) {
        self.scheme = scheme; self.host = host; self.root = root; self.files = files
    }

    /// Serves `webDir` on `scheme://host`, and the app's local files in `fileDirectories`
    /// (made, owner-only, if missing). Call before any page loads from it.
    package static func serve(scheme: String, host: String, webDir: String, fileDirectories: [String]) throws(UsageError) -> CapacitorScheme {
        guard let root = resolved(webDir) else {
            throw UsageError("the web directory \(webDir) cannot be used: \(String(cString: strerror(errno)))")
        }
        guard g_file_test(root, G_FILE_TEST_IS_DIR) != 0 else { throw UsageError("the web directory \(webDir) is not a directory") }
        guard g_file_test(root + "/index.html", G_FILE_TEST_IS_REGULAR) != 0 else {
            throw UsageError("the web directory \(webDir) has no index.html: build the web app first (e.g. npm run build), or point --web-dir at its output")
        }
        var roots = [root]
        for directory in fileDirectories {
            g_mkdir_with_parents(directory, 0o700)
            // Both spellings: a plugin may hand the page either.
            roots += [directory] + (resolved(directory).map { [$0] } ?? [])
        }
        let files = CapacitorFiles(roots: roots)
        let handler = CapacitorScheme(scheme: scheme, host: host, root: root, files: files)
        guard served[scheme] == nil else {
            served[scheme]?.append(handler)
            return handler
        }
        served[scheme] = [handler]
        let context = webkit_web_context_get_default()
        // The context holds the closure for the life of the process: a scheme is registered once
        // per process, and the request finds its app.
        let serve: @MainActor (OpaquePointer) -> Void = { request in
            guard let handler = Self.handler(scheme: scheme, for: request) else {
                return Self.refuse(request, text: "No app of this process is served here.")
            }
            handler.answer(request)
        }
        webkit_web_context_register_uri_scheme(context, scheme, { request, data in
            guard let request else { return }
            let serve = Callback<@MainActor (OpaquePointer) -> Void>.body(data)
            MainActor.assumeIsolated { serve(request) }
        }, Callback.retained(serve), CallbackRelease.destroyNotify)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(webkit_web_context_get_security_manager(context), scheme)
        return handler
    }

    /// The launch's app scheme, serving its `webDir` and its own files; nil with a dev server.
    package static func serve(_ launch: CapacitorLaunch) throws(UsageError) -> CapacitorScheme? {
        guard let webDir = launch.webDir else { return nil }
        return try serve(scheme: launch.origin.scheme, host: launch.origin.host, webDir: webDir,
                         fileDirectories: CapacitorFiles.directories(dataDirectory: launch.dataDirectory, cacheDirectory: launch.cacheDirectory))
    }

    /// Answers the requests of pages in `session` (the app's network session).
    package func serve(session: NetworkSessionPointer) {
        sessions.append(session)
    }

    /// Stops answering for this app (it closed); the scheme stays registered for the others.
    package func release() {
        Self.served[scheme]?.removeAll { $0 === self }
    }

    /// The app a request is for: the one whose network session made it; the only app of the
    /// scheme when none claimed the session (a run of one app, a WebDriver session).
    private static func handler(scheme: String, for request: OpaquePointer) -> CapacitorScheme? {
        let handlers = served[scheme] ?? []
        if let view = webkit_uri_scheme_request_get_web_view(request), let session = webkit_web_view_get_network_session(view),
           let owner = handlers.first(where: { $0.sessions.contains(session) }) {
            return owner
        }
        return handlers.count == 1 ? handlers[0] : nil
    }

    private static func refuse(_ request: OpaquePointer, text: String) {
        let error = g_error_new_literal(g_quark_from_static_string("hostshell-capacitor-scheme"), 404, text)
        webkit_uri_scheme_request_finish_error(request, error)
        g_error_free(error)
    }

    /// The path with its symbolic links resolved, or nil (errno says why) when it is not there.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    var json: JSONValue {
        ["origin": .string("\(scheme)://\(host)"), "webDir": .string(root), "answered": .number(Double(answered)),
         "fallbacks": .number(Double(fallbacks)), "localFiles": .number(Double(localFiles)),
         "fileRoots": .array(files.roots.map(JSONValue.string)), "refused": .array(refused.map(JSONValue.string))]
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
        if CapacitorFiles.isFileRequest(path) { localFiles += 1 }
        switch CapacitorAssets.answer(forRequestPath: path, files: files) {
        case .forbidden(let why):
            finish(request, status: 403, text: why, refusal: uri)
        case .file(let relative, let mimeType, let fallback):
            if fallback { fallbacks += 1 }
            // The file as it really is: a link out of webDir is not part of the app.
            guard let resolved = Self.resolved(root + "/" + relative) else { return finish(request, status: 404, text: "Not found: \(path)", refusal: nil) }
            guard resolved.hasPrefix(root + "/") else { return finish(request, status: 404, text: "Not found: \(path)", refusal: uri) }
            send(resolved, mimeType: mimeType, to: request, shownAs: path)
        case .localFile(let file, let mimeType):
            guard let resolved = Self.resolved(file) else {
                return finish(request, status: 404, text: "No file at \(file): \(String(cString: strerror(errno)))", refusal: nil)
            }
            // A link is followed only to a file this app may read.
            guard files.contains(resolved) else { return finish(request, status: 403, text: files.outside(resolved), refusal: uri) }
            send(resolved, mimeType: mimeType, to: request, shownAs: file)
        }
    }

    /// Sends a regular file: whole (streamed from disk), or the slice a `Range` header asks for.
    private func send(_ file: String, mimeType: String, to request: OpaquePointer, shownAs name: String) {
        var status = stat()
        guard stat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return finish(request, status: 404, text: "Not found: \(name)", refusal: nil)
        }
        let size = Int(status.st_size)
        let header = webkit_uri_scheme_request_get_http_headers(request).flatMap { soup_message_headers_get_one($0, "Range") }
        let range = ByteRange.resolve(header.map { String(cString: $0) }, size: size).limited(to: CapacitorAssets.maxFileBytes)
        var headers = [("Accept-Ranges", "bytes")]
        if let contentRange = range.contentRange(size: size) { headers.append(("Content-Range", contentRange)) }
        switch range {
        case .whole:
            let gfile = g_file_new_for_path(file)
            defer { g_object_unref(UnsafeMutableRawPointer(gfile)) }
            var error: UnsafeMutablePointer<GError>? = nil
            guard let stream = g_file_read(gfile, nil, &error) else {
                let why = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
                g_clear_error(&error)
                return finish(request, status: 500, text: "Cannot read \(name): \(why)", refusal: nil)
            }
            let input = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self)
            respond(request, stream: input, length: size, status: 200, mimeType: mimeType, headers: headers)
        case .partial(let first, _):
            let length = range.length ?? 0
            let bytes = g_malloc(gsize(max(length, 1)))!
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            var read = 0
            while descriptor >= 0, read < length {
                let got = pread(descriptor, bytes + read, length - read, off_t(first + read))
                if got <= 0 { break }
                read += got
            }
            if descriptor >= 0 { close(descriptor) }
            guard read == length else {
                g_free(bytes)
                return finish(request, status: 500, text: "Cannot read \(name): \(String(cString: strerror(errno)))", refusal: nil)
            }
            let stream = g_memory_input_stream_new_from_data(bytes, gssize(length), g_free)
            respond(request, stream: stream, length: length, status: 206, mimeType: mimeType, headers: headers)
        case .unsatisfiable:
            let stream = g_memory_input_stream_new()
            respond(request, stream: stream, length: 0, status: 416, mimeType: mimeType, headers: headers)
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

    private func respond(_ request: OpaquePointer, stream: UnsafeMutablePointer<GInputStream>?, length: Int, status: Int, mimeType: String,
                         headers extra: [(String, String)] = []) {
        let response = webkit_uri_scheme_response_new(stream, length)
        webkit_uri_scheme_response_set_status(response, guint(status), nil)
        webkit_uri_scheme_response_set_content_type(response, mimeType)
        let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)
        soup_message_headers_append(headers, "Content-Type", CapacitorAssets.isText(mimeType) ? mimeType + "; charset=utf-8" : mimeType)
        soup_message_headers_append(headers, "Cache-Control", "no-cache")
        for (name, value) in extra { soup_message_headers_append(headers, name, value) }
        webkit_uri_scheme_response_set_http_headers(response, headers)  // takes the headers
        webkit_uri_scheme_request_finish_with_response(request, response)
        unref(response)
        g_object_unref(stream)
    }
}
