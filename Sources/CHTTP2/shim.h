/* Push's transport, apart from GTK and WebKit: HTTP/2 framing (nghttp2), TLS with ALPN and
 * ES256 (OpenSSL). Only what Swift cannot call itself, as static inline helpers prefixed ch2_. */
#pragma once
#include <nghttp2/nghttp2.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/hmac.h>

/* SSL_CTX_set_mode is a macro over SSL_CTX_ctrl: writes on a non-blocking socket may be partial
 * and may continue from a moved buffer. */
static inline void ch2_ssl_ctx_setup(SSL_CTX *ctx) {
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);  /* also a macro over SSL_CTX_ctrl */
}

