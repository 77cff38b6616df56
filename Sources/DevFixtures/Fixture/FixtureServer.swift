import CGtk
import Glibc
import HostCore
import ShellKit

/// The reference Studio's server: an in-process libsoup server on a free loopback port that
/// serves `fixtures/studio/` (any extension-less path is the single-page app's index) and answers
/// `GET /api/v1/system/identity`. It runs on the GLib main context, like everything else.
@MainActor
package final class FixtureServer {
    let root: String
    let installationId: String
    let organizationName: String
    private let server: UnsafeMutablePointer<SoupServer>
    package private(set) var port: Int = 0
    /// Injected failures for tests: a request path answered with this HTTP status instead.
    var failures: [String: UInt32] = [:]
    /// The sign-in side: approve page, token exchange and refresh, sessions.
    let auth = ReferenceAuth()
    /// The media library and resumable uploads.
    let uploads = ReferenceUploads()
    /// Requests for Studio's own pages and files that carried an Authorization header: the
    /// app's credential must never travel with them.
    private(set) var studioRequestsWithAuthorization = 0
    /// Every request but the test routes': proves when nothing contacted the server.
    private(set) var requestCount = 0

    /// Set by `useTLS`: the server speaks HTTPS with that certificate.
    private(set) var secure = false

    package var origin: Origin { Origin(scheme: secure ? "https" : "http", host: "127.0.0.1", port: port)! }
    var baseURL: String { origin.description }

    package init(root: String, installationId: String = "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e",
         organizationName: String = "Reference Studio") {
        self.root = root
        self.installationId = installationId
        self.organizationName = organizationName
        server = cgtk_soup_server_new()!
        SoupServing.handle(server) { [weak self] message, path in self?.respond(message, path: path) }
    }

    /// Serves HTTPS with the certificate and key in `directory` (`cert.pem`, `key.pem`); for
    /// tests of how HostShell refuses a certificate nobody trusts.
    func useTLS(_ directory: String) throws(UsageError) {
        var error: UnsafeMutablePointer<GError>? = nil
        // Read as every path HostShell is given is (regular files only, without blocking), then parsed.
        let pem = try FileReading.bytes(directory + "/cert.pem", limit: 1 << 20) + Array("\n".utf8) + FileReading.bytes(directory + "/key.pem", limit: 1 << 20)
        let text = String(decoding: pem, as: UTF8.self)
        guard let certificate = g_tls_certificate_new_from_pem(text, -1, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw UsageError("cannot read the TLS certificate in \(directory): \(reason)")
        }
        soup_server_set_tls_certificate(server, certificate)
        g_object_unref(UnsafeMutableRawPointer(certificate))
        secure = true
    }

    /// Listens on 127.0.0.1 at `port`, or at a port the system picks.
    package func start(port requested: Int = 0) throws(UsageError) {
        var error: UnsafeMutablePointer<GError>? = nil
        let options = SoupServerListenOptions(SOUP_SERVER_LISTEN_IPV4_ONLY.rawValue | (secure ? SOUP_SERVER_LISTEN_HTTPS.rawValue : 0))
        guard soup_server_listen_local(server, guint(requested), options, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw UsageError("cannot start the reference Studio's server: \(reason)")
        }
        let uris = soup_server_get_uris(server)
        if let first = uris?.pointee.data { port = Int(g_uri_get_port(OpaquePointer(first))) }
        g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) })
    }

    func stop() { soup_server_disconnect(server) }

    private func respond(_ message: OpaquePointer, path: String) {
        if path == "/__test/requests" {
            reply(message, status: 200, type: "application/json", body: JSONWriter.bytes(["count": .number(Double(requestCount))]))
            return
        }
        if path == "/__test/redirect" {
            // A redirect to wherever `to` says: a same-origin start that ends elsewhere.
            let query = soup_server_message_get_uri(message).flatMap { g_uri_get_query($0) }.map { String(cString: $0) } ?? ""
            let to = FormEncoding.items(query).first { $0.name == "to" }?.value ?? "/"
            if let headers = soup_server_message_get_response_headers(message) { soup_message_headers_append(headers, "Location", to) }
            reply(message, status: 302, type: "text/plain; charset=utf-8", body: Array("moved\n".utf8))
            return
        }
        if path == "/__test/stall" {
            // A document that never comes: a navigation to it starts and never commits (tests of
            // what a navigation's start does). Held until the page goes elsewhere or the server stops.
            soup_server_message_pause(message)
            return
        }
        if path == "/__test/attachment" {
            // A file the browser could show, sent as an attachment: a download all the same.
            if let headers = soup_server_message_get_response_headers(message) {
                soup_message_headers_append(headers, "Content-Disposition", #"attachment; filename="report.txt""#)
            }
            reply(message, status: 200, type: "text/plain; charset=utf-8", body: Array("the report\n".utf8))
            return
        }
        if path == "/__test/corpus/studio-bridge.json" {
            // The contract's corpus, for the live fuzzer's page (fixtures/studio/__test/fuzz.js).
            let corpus = locateBundled("fixtures/contracts/studio-bridge", marker: "messages-v1.json")
                .flatMap { try? FileReading.bytes($0 + "/messages-v1.json", limit: 8 << 20) }
            reply(message, status: corpus == nil ? 404 : 200, type: "application/json", body: corpus ?? Array("no corpus".utf8))
            return
        }
        if !path.hasPrefix("/__test/") { requestCount += 1 }
        if let status = failures[path] {
            reply(message, status: status, type: "text/html; charset=utf-8",
                  body: Array("<!doctype html><title>Error \(status)</title><h1>Injected failure \(status)</h1>".utf8))
            return
        }
        if handleAuth(message, path: path) { return }
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        if handleUploads(message, path: path, method: method) { return }
        if path == "/api/v1/system/identity" {
            let body: JSONValue = ["data": ["product": "tilecast", "apiVersion": "v1",
                                            "installationId": .string(installationId),
                                            "organizationName": .string(organizationName)]]
            reply(message, status: 200, type: "application/json", body: JSONWriter.bytes(body))
            return
        }
        if requestHeader(message, "Authorization") != nil { studioRequestsWithAuthorization += 1 }
        guard let file = staticFile(for: path), let bytes = try? FileReading.bytes(file, limit: 8 << 20) else {
            reply(message, status: 404, type: "text/plain", body: Array("not found".utf8))
            return
        }
        reply(message, status: 200, type: StaticFiles.contentType(file), body: bytes)
    }

    /// The file for a request path (`StaticFiles`): never outside `root`; extension-less paths are app routes.
    private func staticFile(for path: String) -> String? { StaticFiles.file(root: root, requestPath: path) }

    func reply(_ message: OpaquePointer, status: UInt32, type: String, body: [UInt8]) {
        let msg = message
        soup_server_message_set_status(msg, status, nil)
        body.withUnsafeBufferPointer { buffer in
            soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, gsize(buffer.count))
        }
    }

    /// `fixtures/studio` found from the executable's location — in the checkout (the build
    /// directory sits in it) or where `scripts/install` put it (`PREFIX/share/hostshell/`) — or
    /// `$HOSTSHELL_STUDIO_DIR`.
    package nonisolated static func locateReferenceStudio() -> String? {
        if let dir = getenv("HOSTSHELL_STUDIO_DIR") { return String(cString: dir) }
        return locateBundled("fixtures/studio", marker: "index.html")
    }
}
