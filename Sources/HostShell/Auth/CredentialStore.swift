import BridgeRuntime
import CGtk
import Glibc

/// Where the app's credentials live: the Secret Service (the desktop keyring, over D-Bus) when
/// one answers, or — the explicit fallback for headless machines — a 0600 file in each server's
/// profile directory. Chosen once at start-up and reported; `--credential-store` overrides.
@MainActor
final class CredentialStore {
    enum Kind: String {
        case secretService = "secret-service"
        case file
    }

    let kind: Kind
    /// Why this store was chosen, for the start-up report.
    let reason: String

    private init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// `preference`: "auto" (the Secret Service if it answers, else the file), "secret-service"
    /// (fail clearly if it does not answer), or "file".
    static func choose(_ preference: String) throws(UsageError) -> CredentialStore {
        switch preference {
        case "file":
            return CredentialStore(kind: .file, reason: "in owner-only files in each server's profile (--credential-store file)")
        case "secret-service", "auto":
            if let problem = secretServiceProblem() {
                if preference == "secret-service" {
                    throw UsageError("--credential-store secret-service: no Secret Service answers (\(problem)). Unlock your keyring, or use --credential-store file.")
                }
                return CredentialStore(kind: .file, reason: "in owner-only files in each server's profile, because no Secret Service answers (\(problem))")
            }
            return CredentialStore(kind: .secretService, reason: "in the Secret Service (your keyring)")
        default:
            throw UsageError("--credential-store takes auto, secret-service or file")
        }
    }

    /// Nil when the Secret Service answers a lookup; else what went wrong.
    static func secretServiceProblem() -> String? {
        var error: UnsafeMutablePointer<GError>?
        let probe = secret_password_lookupv_sync(cgtk_credential_schema(), attributes(for: "hostshell-probe"), nil, &error)
        if let probe { secret_password_free(probe) }
        guard let error else { return nil }
        let message = String(cString: error.pointee.message)
        g_error_free(error)
        return message
    }

    private static func attributes(for server: String) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(table, g_strdup("server"), g_strdup(server))
        return table
    }

    static func filePath(for server: String) -> String {
        ServerStoreFile.profileDirectories(for: server).data + "/credential.json"
    }

    // MARK: reading and writing

    /// The saved credential, or nil. A damaged file is reported and moved aside, never used.
    func load(_ server: String) -> Credential? {
        let text: String
        switch kind {
        case .secretService:
            var error: UnsafeMutablePointer<GError>?
            let table = Self.attributes(for: server)
            defer { g_hash_table_unref(table) }
            guard let secret = secret_password_lookupv_sync(cgtk_credential_schema(), table, nil, &error) else {
                if let error {
                    printError("hostshell: warning: reading the credential for \(server) from the keyring failed: \(String(cString: error.pointee.message))")
                    g_error_free(error)
                }
                return nil
            }
            text = String(cString: secret)
            secret_password_free(secret)
        case .file:
            let path = Self.filePath(for: server)
            guard access(path, F_OK) == 0, let bytes = try? FileReading.bytes(path, limit: Credential.maxStoredBytes) else { return nil }
            text = String(decoding: bytes, as: UTF8.self)
        }
        guard let credential = Credential(storedForm: text) else {
            printError("hostshell: warning: the saved credential for \(server) is damaged; sign in again")
            if kind == .file { rename(Self.filePath(for: server), Self.filePath(for: server) + ".damaged") }
            return nil
        }
        return credential
    }

    func save(_ credential: Credential, for server: String, label: String) throws(UsageError) {
        let text = JSONWriter.string(credential.json)
        switch kind {
        case .secretService:
            var error: UnsafeMutablePointer<GError>?
            let table = Self.attributes(for: server)
            defer { g_hash_table_unref(table) }
            let ok = secret_password_storev_sync(cgtk_credential_schema(), table, nil, "HostShell: \(label)", text, nil, &error)
            if ok == 0 {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                if let error { g_error_free(error) }
                throw UsageError("could not save the credential in the keyring: \(reason)")
            }
        case .file:
            try AtomicFile.write(Array(text.utf8), to: Self.filePath(for: server), what: "the credential")
        }
    }

    /// Forgets the server's credential (sign-out, removal). Also clears the other store's copy,
    /// so switching stores never leaves a credential behind.
    static func delete(_ server: String) {
        let table = attributes(for: server)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        _ = secret_password_clearv_sync(cgtk_credential_schema(), table, nil, &error)
        if let error { g_error_free(error) }
        unlink(filePath(for: server))
    }
}
