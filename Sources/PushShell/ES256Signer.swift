import CGtk
import CHTTP2
import HostCore
import ShellKit

/// Signs provider tokens as a sender does, with OpenSSL's libcrypto: ES256 over P-256 with the
/// team's private key (Apple's .p8, PKCS#8 PEM), the DER signature turned into JWS's raw r‖s.
/// Also HMAC-SHA256, for the Hermes gateway's capabilities.
package final class ES256Signer {
    private let key: OpaquePointer  // EVP_PKEY*
    let keyID: String
    let teamID: String

    package convenience init(keyFile path: String, keyID: String, teamID: String) throws(UsageError) {
        let bytes: [UInt8]
        do throws(UsageError) { bytes = try FileReading.bytes(path, limit: 64 * 1024) } catch { throw UsageError("--key-file \(path): \(error.message)") }
        try self.init(pem: bytes, keyID: keyID, teamID: teamID, source: "--key-file \(path)")
    }

    /// From the PEM text itself (an environment variable's value, a file read elsewhere);
    /// `source` names it in errors.
    package init(pem bytes: [UInt8], keyID: String, teamID: String, source: String) throws(UsageError) {
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let key else { throw UsageError("\(source): not a PEM private key (Apple's AuthKey_KEYID.p8 is one)") }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw UsageError("\(source): not a P-256 EC key; APNs keys are ES256")
        }
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    deinit { EVP_PKEY_free(key) }

    /// Hex SHA-256 of the key's public half (DER SubjectPublicKeyInfo): names the key in the
    /// provider-token cache without holding anything secret.
    package lazy var publicKeyFingerprint: String = {
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &der)
        defer { if let der { CRYPTO_free(der, #fileID, #line) }; ERR_clear_error() }
        guard length > 0, let der else { return "" }
        var digest = [UInt8](repeating: 0, count: 32)
        var size: UInt32 = 0
        guard EVP_Digest(der, Int(length), &digest, &size, EVP_sha256(), nil) == 1 else { return "" }
        return Self.hex(Array(digest.prefix(Int(size))))
    }()

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// A provider token issued at `issuedAt` (seconds).
    package func providerToken(issuedAt: Int) -> String? {
        let header = Base64URL.encode(JSONWriter.bytes(["alg": "ES256", "kid": .string(keyID)]))
        let claims = Base64URL.encode(JSONWriter.bytes(["iss": .string(teamID), "iat": .number(Double(issuedAt))]))
        let input = Array((header + "." + claims).utf8)
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
              EVP_DigestSign(context, nil, &length, input, input.count) == 1 else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, input, input.count) == 1 else { return nil }
        guard let raw = Self.raw(Array(der.prefix(length))) else { return nil }
        return header + "." + claims + "." + Base64URL.encode(raw)
    }

    /// DER `ECDSA-Sig-Value` → r‖s, 32 bytes each, through libcrypto's decoder.
    private static func raw(_ der: [UInt8]) -> [UInt8]? {
        let value: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let value else { return nil }
        defer { ECDSA_SIG_free(value) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(value, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32) == 32 && BN_bn2binpad(s, buffer.baseAddress! + 32, 32) == 32
        }
        return ok ? out : nil
    }

    /// Lower-case hex HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256Hex(key: [UInt8], message: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let bytes = Array(message.utf8)
        _ = HMAC(EVP_sha256(), key, Int32(key.count), bytes, bytes.count, &digest, &length)
        return digest.prefix(Int(length)).map { byte in
            let digits = Array("0123456789abcdef")
            return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
        }.joined()
    }
}
