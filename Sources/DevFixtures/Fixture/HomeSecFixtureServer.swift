import CGtk
import Glibc
import HomeSec
import HostCore
import Push
import ShellKit

/// The HomeSec-like reference server on libsoup: every request goes to `HomeSecServer`
/// (BridgeRuntime), which decides the answer; this only moves bytes and headers, and serves the
/// files of a web app directory when one is given (extension-less paths get its `index.html`,
/// as HomeSec's server serves its UI).
@MainActor
package final class HomeSecFixtureServer {
    var rules: HomeSecServer
    /// The notifier's client to APNs (nil without `--apns-…`): see `HomeSecFixtureServer+Notify`.
    var apnsClient: APNsProviderClient?
    let webDirectory: String?
    /// Injected failures for tests: a path answered with this status and a body that is not JSON.
    var failures: [String: UInt32] = [:]
    private let server: UnsafeMutablePointer<SoupServer>
    package private(set) var port = 0

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(options: HomeSecServer.Options, webDirectory: String? = nil) {
        rules = HomeSecServer(options: options)
        self.webDirectory = webDirectory
        server = cgtk_soup_server_new()!
        SoupServing.handle(server) { [weak self] message, path in self?.respond(message, path: path) }
        SoupBounds(bodyBytes: HomeSecServer.requestBodyBytes, lingerMs: APNsLimits.lingerMs, lingerBytes: APNsLimits.lingerBytes,
                   refusal: ["detail": .string("Request body too large"), "error_code": "PAYLOAD_TOO_LARGE"]).apply(to: server)
    }

    /// Listens on 127.0.0.1 at `port`, or at one the system picks.
    package func start(port requested: Int = 0) throws(UsageError) {
        var error: UnsafeMutablePointer<GError>? = nil
        guard soup_server_listen_local(server, guint(requested), SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw UsageError("cannot start the HomeSec reference server: \(reason)")
        }
        let uris = soup_server_get_uris(server)
        if let first = uris?.pointee.data { port = Int(g_uri_get_port(OpaquePointer(first))) }
        g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) })
    }

    func stop() { soup_server_disconnect(server) }

    private func respond(_ message: OpaquePointer, path: String) {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        if let status = failures[path], method != "OPTIONS" {
            // With the server's CORS headers, so a page of another origin can read the failure.
            let body = Array("<!doctype html><title>Error \(status)</title><h1>Injected failure \(status)</h1>".utf8)
            let origin = Self.headers(message).last { $0.name.lowercased() == "origin" }?.value
            send(message, status: status, type: "text/html; charset=utf-8", body: body,
                 headers: origin.map { rules.cors.simpleHeaders(origin: $0, hasCookie: false) } ?? [])
            return
        }
        let query = soup_server_message_get_uri(message).flatMap { g_uri_get_query($0) }.map { String(cString: $0) } ?? ""
        let request = HomeSecRequest(method: method, path: path, query: query, headers: Self.headers(message), body: Self.body(message))
        var generator = SystemRandomNumberGenerator()
        let entropy = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let response = rules.respond(request, now: wallClockSeconds(), entropy: entropy)
        startRaisedRuns()
        guard response.servesFile else {
            send(message, status: UInt32(response.status), type: response.contentType, body: response.body, headers: response.headers)
            return
        }
        guard let file = webFile(for: path), let bytes = try? FileReading.bytes(file, limit: 16 << 20) else {
            let body = JSONWriter.bytes(["detail": "Not Found", "error_code": "NOT_FOUND"])
            send(message, status: 404, type: "application/json", body: body, headers: response.headers)
            return
        }
        send(message, status: 200, type: StaticFiles.contentType(file), body: bytes, headers: response.headers)
    }

    /// A file of the web app for a request path (`StaticFiles`): never outside it; extension-less paths are routes.
    private func webFile(for path: String) -> String? {
        webDirectory.flatMap { StaticFiles.file(root: $0, requestPath: path) }
    }

    private func send(_ message: OpaquePointer, status: UInt32, type: String, body: [UInt8], headers: [(name: String, value: String)]) {
        let response = soup_server_message_get_response_headers(message)
        for header in headers { soup_message_headers_append(response, header.name, header.value) }
        soup_server_message_set_status(message, status, nil)
        body.withUnsafeBufferPointer { buffer in
            soup_server_message_set_response(message, type, SOUP_MEMORY_COPY,
                                             buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, gsize(buffer.count))
        }
    }

    /// Every request header, in order.
    private static func headers(_ message: OpaquePointer) -> [(name: String, value: String)] { SoupServing.headers(message) }

    private static func body(_ message: OpaquePointer) -> [UInt8] {
        guard let body = soup_server_message_get_request_body(message), body.pointee.length > 0,
              let data = body.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(body.pointee.length)))
    }
}
