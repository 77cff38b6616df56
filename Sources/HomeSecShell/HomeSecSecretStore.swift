import CGtk
import Glibc
import HomeSec
import HostCore
import ShellKit

/// A Capacitor app's HomeSecAuth entries in the platform secret store, as iOS's keychain keeps
/// them for the app: in the Secret Service (service `homesec`, the account, and the app's id),
/// or — where none answers, or with `--credential-store file` — in one owner-only file in the
/// app's data directory (`homesec-secrets.json`: `{"entries": {account: value}}`, written
/// atomically). The file follows the profile-file rule (`ProfileFile`): a link is read and
/// written through (kept), a link to nothing, a FIFO or anything but a file is refused, untouched.
/// A damaged file (one larger than the store ever writes among them) is never overwritten nor
/// kept aside: every call fails saying so, until a person repairs or removes it — these are a
/// person's secrets, and only that person decides to start over.
package final class HomeSecSecretStore: HomeSecSecrets, Sendable {
    static let fileName = "homesec-secrets.json"
    /// Largest file read: a few entries of at most a few KiB each.
    static let maxFileBytes = 1 << 20

    let kind: SecretStoreKind
    /// The app's key in the Secret Service (its id; its data directory when it has none).
    let app: String
    package let path: String

    init(kind: SecretStoreKind, app: String, dataDirectory: String) {
        self.kind = kind
        self.app = app
        self.path = dataDirectory + "/" + Self.fileName
    }

    private static var keyring: SecretServiceStore { SecretServiceStore(schema: cgtk_homesec_schema()) }

    private func attributes(_ account: String) -> [String: String] {
        ["service": HomeSecAuth.service, "app": app, "account": account]
    }

    package func read(_ account: String) throws(SecretStoreFailure) -> String? {
        switch kind {
        case .secretService: return try Self.keyring.lookup(attributes(account))
        case .file: return try entries()[account]
        }
    }

    package func write(_ account: String, _ value: String) throws(SecretStoreFailure) {
        switch kind {
        case .secretService:
            try Self.keyring.store(attributes(account), label: "HomeSec (\(app)): \(account)", secret: value)
        case .file:
            var all = try entries()
            all[account] = value
            try save(all)
        }
    }

    package func delete(_ account: String) throws(SecretStoreFailure) {
        switch kind {
        case .secretService: try Self.keyring.clear(attributes(account))
        case .file:
            var all = try entries()
            guard all.removeValue(forKey: account) != nil else { return }
            try save(all)
        }
    }

    /// `ctl erase`: every HomeSecAuth entry of the app, in the store chosen; what went.
    @MainActor static func eraseAll(appId: String, dataDirectory: String) -> [String] {
        let store = HomeSecSecretStore(kind: CapacitorSecretStores.kind, app: appId, dataDirectory: dataDirectory)
        let accounts = (try? store.accounts()) ?? []
        var removed = 0
        for account in accounts where (try? store.delete(account)) != nil { removed += 1 }
        return ["HomeSecAuth's secrets (\(removed) of \(accounts.count) entries)"]
    }

    package func accounts() throws(SecretStoreFailure) -> [String] {
        switch kind {
        case .secretService:
            return try Self.keyring.attribute("account", ofItemsMatching: ["service": HomeSecAuth.service, "app": app])
        case .file:
            return Array(try entries().keys)
        }
    }

    // MARK: the file

    /// The file's entries; none when there is no file.
    func entries() throws(SecretStoreFailure) -> [String: String] {
        let found: ProfileFile.Found
        do throws(UsageError) {
            found = try file.read()
        } catch {
            throw SecretStoreFailure("The HomeSec secret store could not be read: \(error.message)")
        }
        switch found {
        case .absent: return [:]
        case .damaged(let problem): throw damaged(problem)
        case .bytes(let bytes):
            switch Self.decode(bytes) {
            case .entries(let entries): return entries
            case .damaged(let problem): throw damaged(problem)
            }
        }
    }

    var file: ProfileFile { ProfileFile(path, what: "the HomeSec secret store", limit: Self.maxFileBytes) }

    private enum Decoded { case entries([String: String]), damaged(String) }

    /// The entries in the file's bytes, or why they are damaged.
    private static func decode(_ bytes: [UInt8]) -> Decoded {
        guard let text = String(validating: bytes, as: UTF8.self),
              let object = (try? JSONParser.parse(text, maxDepth: 3))?.objectValue,
              let stored = object["entries"]?.objectValue else { return .damaged("it is not the store's JSON") }
        var entries: [String: String] = [:]
        for member in stored.members {
            guard let value = member.value.stringValue else { return .damaged("the entry \"\(member.key)\" is not text") }
            entries[member.key] = value
        }
        return .entries(entries)
    }

    func damaged(_ why: String) -> SecretStoreFailure {
        SecretStoreFailure("The HomeSec secret store \(path) is damaged (\(why)); nothing was changed. Repair or remove the file, then try again.")
    }

    private func save(_ entries: [String: String]) throws(SecretStoreFailure) {
        let object = JSONObject(entries.keys.sorted().map { ($0, JSONValue.string(entries[$0]!)) })
        do throws(UsageError) {
            // Damaged meanwhile (read a moment ago as sound): kept aside rather than lost.
            try file.write(Array(JSONWriter.string(["entries": .object(object)]).utf8)) { bytes in
                if case .damaged(let problem) = Self.decode(bytes) { return problem }
                return nil
            }
        } catch {
            throw SecretStoreFailure(error.message)
        }
    }
}

/// Which store a Capacitor app's secrets go to, chosen once by the command
/// (`--credential-store auto|secret-service|file`; auto when it never chose).
@MainActor
package enum CapacitorSecretStores {
    private(set) static var chosen: (kind: SecretStoreKind, reason: String)?

    /// Chooses for `preference` and says why (for the start-up report); a bad word, or the
    /// Secret Service asked for where none answers, is a usage error.
    @discardableResult
    package static func choose(_ preference: String) throws(UsageError) -> String {
        let choice = try SecretStoreKind.choose(preference, files: "in the app's data directory", problem: problem)
        chosen = choice
        return choice.reason
    }

    static var kind: SecretStoreKind {
        if let chosen { return chosen.kind }
        let choice = try? SecretStoreKind.choose("auto", files: "in the app's data directory", problem: problem)
        chosen = choice
        return choice?.kind ?? .file
    }

    private static func problem() -> String? {
        SecretServiceStore(schema: cgtk_homesec_schema()).problem(probing: ["service": HomeSecAuth.service, "app": "hostshell-probe", "account": "probe"], attended: false)
    }
}
