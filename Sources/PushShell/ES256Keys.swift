import CGtk
import CHTTP2
import HostCore
import Push
import ShellKit

/// The team's APNs signing keys' public halves (`--key KEYID=public.pem`), checking ES256
/// signatures with OpenSSL's libcrypto: ECDSA over P-256 with SHA-256, the JWS raw r‖s
/// signature turned into the DER `ECDSA-Sig-Value` libcrypto verifies.
package final class ES256Keys: SignatureCheck, @unchecked Sendable {
    private var keys: [String: OpaquePointer] = [:]  // EVP_PKEY*, owned
    /// Per key, a verify context set up once (EVP_PKEY_verify_init): each check then only
    /// hashes the input and verifies the digest.
    private var contexts: [String: OpaquePointer] = [:]  // EVP_PKEY_CTX*, owned

    deinit {
        for context in contexts.values { EVP_PKEY_CTX_free(context) }
        for key in keys.values { EVP_PKEY_free(key) }
    }

    var keyIDs: Set<String> { Set(keys.keys) }

    /// Reads a PEM public key (SubjectPublicKeyInfo; a private key's file is refused) on P-256.
    func add(keyID: String, pemFile path: String) throws(UsageError) {
        let bytes: [UInt8]
        do throws(UsageError) { bytes = try FileReading.bytes(path, limit: 64 * 1024) } catch { throw UsageError("--key \(keyID)=\(path): \(error.message)") }
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let key else {
            throw UsageError("--key \(keyID)=\(path): not a PEM public key; make one from the .p8 with: openssl pkey -in AuthKey_\(keyID).p8 -pubout -out \(keyID).pem")
        }
        var group = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC,
              EVP_PKEY_get_utf8_string_param(key, "group", &group, group.count, &length) == 1,
              String(cString: group) == "prime256v1" else {
            EVP_PKEY_free(key)
            throw UsageError("--key \(keyID)=\(path): not a P-256 (prime256v1) EC key; APNs keys are ES256")
        }
        guard let context = EVP_PKEY_CTX_new(key, nil), EVP_PKEY_verify_init(context) == 1 else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw UsageError("--key \(keyID)=\(path): libcrypto cannot verify with this key")
        }
        if let old = contexts[keyID] { EVP_PKEY_CTX_free(old) }
        if let old = keys[keyID] { EVP_PKEY_free(old) }
        keys[keyID] = key
        contexts[keyID] = context
    }

    package func verify(keyID: String, input: [UInt8], signature: [UInt8]) -> Bool {
        guard let context = contexts[keyID], signature.count == 64, let der = Self.der(signature) else { return false }
        defer { ERR_clear_error() }
        var digest = [UInt8](repeating: 0, count: 32)
        guard SHA256(input, input.count, &digest) != nil else { return false }
        return EVP_PKEY_verify(context, der, der.count, digest, digest.count) == 1
    }

    /// r‖s (32 bytes each) as DER, through libcrypto's own encoder.
    private static func der(_ raw: [UInt8]) -> [UInt8]? {
        guard let value = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(value) }
        let r = BN_bin2bn(raw, 32, nil), s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(value, r, s) == 1 else { BN_free(r); BN_free(s); return nil }
        let length = i2d_ECDSA_SIG(value, nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(value, &cursor)
        }
        return written == length ? out : nil
    }
}
