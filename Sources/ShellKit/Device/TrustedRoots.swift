import CGtk
import HostCore

/// The private roots an app trusts for its servers (`--trust-root-cert`, `ctl trust-root-cert`):
/// a GLib TLS database holding those roots alone. A server certificate the system refuses is let
/// through — for its host, in the app's network session, and for HostShell's own requests — only
/// when its chain leads to one of them and names that host (`RootTrust.decide`). Nothing else is
/// relaxed: the system's roots still decide every other certificate, and another app (another
/// process) never sees these roots.
@MainActor
package final class TrustedRoots {
    /// The roots of the app this process runs (one app per process). WebKit's and libsoup's
    /// certificate handlers have no path back to the app's environment; this is the one place
    /// they find them.
    package private(set) static var ofThisApp: TrustedRoots?

    private var pems: [String] = []
    private var database: UnsafeMutablePointer<GTlsDatabase>?
    /// Hosts whose certificate was let through in a WebKit session (WebKit cannot take that back).
    package private(set) var allowedHosts: [String] = []

    package init() { Self.ofThisApp = self }

    package var count: Int { pems.reduce(0) { $0 + RootTrust.certificateCount($1) } }

    /// Adds the roots in the PEM file at `path`; a message saying what is wrong otherwise.
    package func add(file path: String) -> String? {
        let bytes: [UInt8]
        do throws(UsageError) { bytes = try FileReading.bytes(path, limit: RootTrust.maxFileBytes) } catch { return error.message }
        let text = String(decoding: bytes, as: UTF8.self)
        if let problem = RootTrust.fileProblem(text, path: path) { return problem }
        let combined = (pems + [text]).joined(separator: "\n")
        guard let made = Self.database(combined) else {
            return "\(path) could not be read as certificates by GnuTLS: check it with openssl x509 -in \(path) -noout -text"
        }
        if let database { g_object_unref(UnsafeMutableRawPointer(database)) }
        database = made
        pems.append(text)
        return nil
    }

    /// Trusts no private root from now on (hosts already let through in a WebKit session stay
    /// so until the app restarts: WebKitGTK has no call to take an allowed certificate back).
    package func clear() {
        if let database { g_object_unref(UnsafeMutableRawPointer(database)) }
        database = nil
        pems = []
    }

    /// Whether `certificate`, presented by `host`, is let through.
    package func decide(_ certificate: UnsafeMutablePointer<GTlsCertificate>, host: String) -> RootTrust.Decision {
        guard let database, !host.isEmpty else { return RootTrust.decide(host: host, trustedRoots: 0, verification: []) }
        let identity = g_network_address_new(host, 443)
        defer { g_object_unref(UnsafeMutableRawPointer(identity)) }
        var error: UnsafeMutablePointer<GError>?
        let flags = g_tls_database_verify_chain(database, certificate, "1.3.6.1.5.5.7.3.1", identity, nil,
                                                G_TLS_DATABASE_VERIFY_NONE, nil, &error)
        let failed = error != nil
        g_clear_error(&error)
        return RootTrust.decide(host: host, trustedRoots: count,
                                verification: failed ? .genericError : RootTrust.Flags(rawValue: flags.rawValue))
    }

    /// WebKit's "load-failed-with-tls-errors" on `page`: a certificate that leads to one of the
    /// roots is allowed for its host in the page's network session and the load is made again.
    func recover(_ page: WebPage, uri: String, certificate: UnsafeMutablePointer<GTlsCertificate>) -> Bool {
        let host = Self.host(of: uri)
        guard case .allow = decide(certificate, host: host) else { return false }
        guard let session = webkit_web_view_get_network_session(page.view) else { return false }
        allow(certificate, host: host, in: session)
        page.load(uri)
        return true
    }

    /// Before a page loads `uri` on a host not let through yet: the certificate its server
    /// presents is fetched (a TLS handshake, no request) and, when these roots vouch for it,
    /// allowed for the host in the page's network session first, so WebKit's own check passes.
    /// `recover` alone is not enough: a busy WebKit reports a certificate it refused as a
    /// cancelled load, with no certificate to decide on. `done` runs once, on the main thread.
    func prepare(_ uri: String, for page: WebPage, done: @escaping @MainActor () -> Void) {
        let host = Self.host(of: uri)
        guard RootTrust.checksBeforeLoading(uri, host: host, trustedRoots: count, allowedHosts: allowedHosts),
              let session = webkit_web_view_get_network_session(page.view), let message = soup_message_new("HEAD", uri) else { return done() }
        let soup = soup_session_new()!
        soup_session_set_timeout(soup, UInt32(RootTrust.handshakeSeconds))
        g_object_ref(UnsafeMutableRawPointer(session))
        acceptTrustedRoots(message)
        soup_session_preconnect_async(soup, message, G_PRIORITY_DEFAULT, nil, AsyncReply.callback, AsyncReply.data { [weak self] _, result in
            _ = soup_session_preconnect_finish(soup, result, nil)
            if let self, let certificate = soup_message_get_tls_peer_certificate(message), case .allow = self.decide(certificate, host: host) {
                self.allow(certificate, host: host, in: session)
            }
            g_object_unref(UnsafeMutableRawPointer(message))
            g_object_unref(UnsafeMutableRawPointer(soup))
            g_object_unref(UnsafeMutableRawPointer(session))
            done()
        })
    }

    private func allow(_ certificate: UnsafeMutablePointer<GTlsCertificate>, host: String, in session: NetworkSessionPointer) {
        webkit_network_session_allow_tls_certificate_for_host(session, certificate, host)
        if !allowedHosts.contains(host) { allowedHosts.append(host) }
    }

    /// `ctl state`'s `trustedRoots`.
    package var json: JSONValue {
        ["count": .number(Double(count)), "allowedHosts": .array(allowedHosts.map(JSONValue.string))]
    }

    static func host(of uri: String) -> String {
        guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, nil) else { return "" }
        defer { g_uri_unref(parsed) }
        return g_uri_get_host(parsed).map { String(cString: $0) } ?? ""
    }

    /// A TLS database of the roots in `pem` alone.
    private static func database(_ pem: String) -> UnsafeMutablePointer<GTlsDatabase>? {
        var name: UnsafeMutablePointer<gchar>?
        let fd = g_file_open_tmp("hostshell-roots-XXXXXX.pem", &name, nil)
        guard fd >= 0, let name else { return nil }
        defer { unlink(name); g_free(name) }
        let written = pem.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        guard written == pem.utf8.count else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let database = g_tls_file_database_new(name, &error)
        g_clear_error(&error)
        return database.map { UnsafeMutablePointer<GTlsDatabase>(OpaquePointer($0)) }
    }
}

/// "load-failed-with-tls-errors": `body` true when the certificate was let through (the load is
/// made again), false leaves WebKit's failure to the page's owner.
@MainActor @discardableResult
func onTLSErrors(_ view: WebViewPointer, _ body: @escaping @MainActor (_ uri: String, _ certificate: UnsafeMutablePointer<GTlsCertificate>) -> Bool)
    -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(view), cgtk_connect_tls_errors(view, { _, uri, certificate, _, data in
        let body = Callback<@MainActor (String, UnsafeMutablePointer<GTlsCertificate>) -> Bool>.body(data)
        guard let uri, let certificate else { return 0 }
        return MainActor.assumeIsolated { body(String(cString: uri), certificate) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A libsoup request of HostShell's own (sign-in, identity) takes a certificate the system
/// refuses when the app's roots vouch for it, for the message's host.
@MainActor
package func acceptTrustedRoots(_ message: OpaquePointer) {
    guard let roots = TrustedRoots.ofThisApp, roots.count > 0 else { return }
    let host = soup_message_get_uri(message).flatMap { g_uri_get_host($0) }.map { String(cString: $0) } ?? ""
    _ = cgtk_connect_accept_certificate(message, { _, certificate, _, data in
        let host = Callback<String>.body(data)
        guard let certificate else { return 0 }
        return MainActor.assumeIsolated { TrustedRoots.ofThisApp?.decide(certificate, host: host) == .allow } ? 1 : 0
    }, Callback.retained(host), CallbackRelease.closureNotify)
}
