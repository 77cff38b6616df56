import CGtk
import CHTTP2
import HostCore

/// OpenSSL's server context for the stand-in's TLS: the certificate and key given, TLS 1.2 or
/// later, and ALPN that accepts only `h2` (Apple's provider API speaks nothing else).
package final class TLSServerContext {
    let context: OpaquePointer  // SSL_CTX*

    init(certificate: String, key: String) throws(UsageError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw UsageError("TLS: OpenSSL cannot make a context") }
        self.context = context
        ch2_ssl_ctx_setup(context)  // and TLS 1.2 or later
        defer { ERR_clear_error() }
        guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
            throw UsageError("--tls: \(certificate) is not a readable PEM certificate")
        }
        guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw UsageError("--tls: \(key) is not the PEM private key of \(certificate)")
        }
        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, offered, offeredLength, _ in
            // nghttp2 picks "h2" from the client's list; anything else ends the handshake.
            var chosen: UnsafeMutablePointer<UInt8>?
            var length: UInt8 = 0
            guard let offered, nghttp2_select_next_protocol(&chosen, &length, offered, offeredLength) == 1 else {
                return SSL_TLSEXT_ERR_ALERT_FATAL
            }
            out?.pointee = UnsafePointer(chosen)
            outLength?.pointee = length
            return SSL_TLSEXT_ERR_OK
        }, nil)
    }

    deinit { SSL_CTX_free(context) }  // also when init throws: every stored property is set by then

    /// A server-side TLS session on a connected socket.
    package func session(fd: Int32) -> OpaquePointer? {
        guard let ssl = SSL_new(context) else { return nil }
        SSL_set_fd(ssl, fd)
        SSL_set_accept_state(ssl)
        return ssl
    }
}
