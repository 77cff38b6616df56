import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// The provider token a sender on this machine sends now: the one it made earlier — kept in
/// memory, and on disk (`ProviderTokenCache`, one owner-only file per team and key under
/// `$XDG_CACHE_HOME/hostshell/provider-tokens/`) so a restarted Hermes gateway or a later
/// `hostshell apns token` sends the same token — while it is valid, else a new one, kept in turn.
/// Apple refuses a new token for a key within 20 minutes of the last; a sender that signed a
/// fresh one at each start would have its pushes refused after every restart.
package final class ProviderTokenStore {
    package static let defaultDirectory = String(cString: g_get_user_cache_dir()) + "/hostshell/provider-tokens"

    private let signer: ES256Signer
    /// Nil: kept in memory only.
    package let path: String?
    private var kept: ProviderTokenCache?

    package init(signer: ES256Signer, directory: String? = ProviderTokenStore.defaultDirectory) {
        self.signer = signer
        path = directory.map { $0 + "/" + ProviderTokenCache.fileName(teamID: signer.teamID, keyID: signer.keyID) }
    }

    /// The token to send at `now`, or nil when libcrypto cannot sign. `fresh` says whether it
    /// was made now (rather than reused).
    package func token(now: Double) -> (text: String, fresh: Bool)? {
        let fingerprint = signer.publicKeyFingerprint
        if let text = kept?.reusable(teamID: signer.teamID, keyID: signer.keyID, keyFingerprint: fingerprint, now: now) {
            return (text, false)
        }
        if let text = readFile()?.reusable(teamID: signer.teamID, keyID: signer.keyID, keyFingerprint: fingerprint, now: now) {
            kept = ProviderTokenCache(token: text, keyFingerprint: fingerprint)
            return (text, false)
        }
        return newToken(now: now).map { ($0, true) }
    }

    /// A token signed now, kept in memory and on disk.
    package func newToken(now: Double) -> String? {
        let fingerprint = signer.publicKeyFingerprint
        guard let text = signer.providerToken(issuedAt: Int(now)) else { return nil }
        let made = ProviderTokenCache(token: text, keyFingerprint: fingerprint)
        kept = made
        if let path {
            do throws(UsageError) {
                try AtomicFile.write(Array(made.fileText.utf8), to: path, what: "the provider token cache")
            } catch {
                printError("hostshell: warning: the provider token is not kept for a restart: \(error.message)")
            }
        }
        return text
    }

    private func readFile() -> ProviderTokenCache? {
        guard let path, access(path, F_OK) == 0,
              let bytes = try? FileReading.bytes(path, limit: ProviderTokenCache.maxFileBytes) else { return nil }
        return ProviderTokenCache(fileText: String(decoding: bytes, as: UTF8.self))
    }
}
