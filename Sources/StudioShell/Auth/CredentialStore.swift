import CGtk
import Glibc
import HostCore
import ShellKit
import StudioContract

/// Where the app's credentials live: the Secret Service (the desktop keyring, over D-Bus) when
/// one answers, or — the explicit fallback for headless machines — a 0600 file in each server's
/// profile directory. Chosen once at start-up and reported; `--credential-store` overrides.
@MainActor
package final class CredentialStore {
    package typealias Kind = SecretStoreKind

    let kind: Kind
    /// Why this store was chosen, for the start-up report.
    let reason: String
    /// A throw-away profile's home: the file store's credentials go under it (`withProfileRoot`).
    private var profileRoot: String?

    private init(kind: Kind, reason: String, profileRoot: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.profileRoot = profileRoot
    }

    /// The store for an app on a throw-away profile (a fleet's `--throw-away`): the file in that
    /// profile. The Secret Service's entries are the server id's, shared by every profile of it,
    /// so asking for it is refused.
    package static func forThrowAwayProfile(_ root: String, preference: String) throws(UsageError) -> CredentialStore {
        guard preference != "secret-service" else {
            throw UsageError("a throw-away profile keeps its credential in its own file: the Secret Service's entries are the server's, shared with every profile of it")
        }
        return CredentialStore(kind: .file, reason: "in the throw-away profile's owner-only file", profileRoot: root)
    }

    /// `preference`: "auto" (the Secret Service if it answers, else the file), "secret-service"
    /// (fail clearly if it does not answer), or "file".
    package static func choose(_ preference: String) throws(UsageError) -> CredentialStore {
        let choice = try SecretStoreKind.choose(preference, files: "in each server's profile", problem: secretServiceProblem)
        return CredentialStore(kind: choice.kind, reason: choice.reason)
    }

    /// Nil when the Secret Service answers a lookup and would not prompt; else what went wrong.
    /// A keyring that would prompt (no default collection yet, or locked) counts: HostShell
    /// cannot tell whether anybody watches its display (`xvfb-run` sets DISPLAY too), and a
    /// prompt nobody answers holds the app for good, so `auto` uses the file store and says why.
    package static func secretServiceProblem() -> String? {
        keyring.problem(probing: attributes(for: "hostshell-probe"), attended: false)
    }

    private static var keyring: SecretServiceStore { SecretServiceStore(schema: cgtk_credential_schema()) }

    private static func attributes(for server: String) -> [String: String] { ["server": server] }

    func filePath(for server: String) -> String {
        ServerStoreFile.profileDirectories(for: server, root: profileRoot).data + "/credential.json"
    }

    // MARK: reading and writing

    /// The saved credential, or nil. A damaged file is reported and moved aside, never used.
    package func load(_ server: String) -> Credential? {
        let text: String
        switch kind {
        case .secretService:
            do throws(SecretStoreFailure) {
                guard let secret = try Self.keyring.lookup(Self.attributes(for: server)) else { return nil }
                text = secret
            } catch {
                printError("hostshell: warning: \(error.message) (the credential for \(server))")
                return nil
            }
        case .file:
            let path = filePath(for: server)
            guard access(path, F_OK) == 0, let bytes = try? FileReading.bytes(path, limit: Credential.maxStoredBytes) else { return nil }
            text = String(decoding: bytes, as: UTF8.self)
        }
        guard let credential = Credential(storedForm: text) else {
            printError("hostshell: warning: the saved credential for \(server) is damaged; sign in again")
            if kind == .file { rename(filePath(for: server), filePath(for: server) + ".damaged") }
            return nil
        }
        return credential
    }

    /// Keyring writes under way (each may wait on the keyring's prompt), and what waits for
    /// them: a deletion never overtakes a write it follows.
    private var writing = 0
    private var afterWrites: [() -> Void] = []

    /// Saves the credential; `failed` hears what went wrong. The Secret Service's write is
    /// asynchronous: the keyring may prompt (its default collection created, or unlocked) and
    /// the app keeps drawing and answering meanwhile (issue 32 item 1).
    func save(_ credential: Credential, for server: String, label: String, failed: @escaping @MainActor (UsageError) -> Void) {
        let text = JSONWriter.string(credential.json)
        switch kind {
        case .secretService:
            writing += 1
            Self.keyring.store(Self.attributes(for: server), label: "HostShell: \(label)", secret: text) { [self] failure in
                if let failure { failed(UsageError("could not save the credential: \(failure.message)")) }
                writing -= 1
                if writing == 0 {
                    let waiting = afterWrites
                    afterWrites = []
                    for work in waiting { work() }
                }
            }
        case .file:
            do throws(UsageError) {
                try AtomicFile.write(Array(text.utf8), to: filePath(for: server), what: "the credential")
            } catch { failed(error) }
        }
    }

    /// `delete`, once the keyring writes under way have ended.
    func deleteAfterWrites(_ server: String) {
        // A throw-away profile's store forgets its own file only: the keyring's entry and the
        // user's file are the saved server's, not this profile's.
        let forget: () -> Void = if let root = profileRoot {
            { unlink(ServerStoreFile.profileDirectories(for: server, root: root).data + "/credential.json") }
        } else {
            { Self.delete(server) }
        }
        if writing == 0 { forget() } else { afterWrites.append(forget) }
    }

    /// Forgets the server's credential (sign-out, removal). Also clears the other store's copy,
    /// so switching stores never leaves a credential behind.
    static func delete(_ server: String) {
        try? keyring.clear(attributes(for: server))
        unlink(ServerStoreFile.profileDirectories(for: server).data + "/credential.json")
    }
}
