import CGtk
import Glibc
import HomeSec
import HostCore
import ShellKit

/// A Capacitor app's HomeSecAuth entries in the platform secret store, as iOS's keychain keeps
/// them for the app: in the Secret Service (service `homesec`, the account, and the app's id),
/// or — where none answers, or with `--credential-store file` — in one owner-only file in the
/// app's data directory (`homesec-secrets.json`: `{"entries": {account: value}}`, written
/// atomically). A damaged file is never overwritten: every call fails saying so, until a person
/// repairs or removes it.
package final class HomeSecSecretStore: HomeSecSecrets {
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
        guard access(path, F_OK) == 0 else { return [:] }
        let bytes: [UInt8]
        do throws(UsageError) {
            bytes = try FileReading.bytes(path, limit: Self.maxFileBytes)
        } catch {
            throw SecretStoreFailure("The HomeSec secret store could not be read: \(error.message).")
        }
        guard let text = String(validating: bytes, as: UTF8.self),
              let object = (try? JSONParser.parse(text, maxDepth: 3))?.objectValue,
              let stored = object["entries"]?.objectValue else {
            throw damaged("it is not the store's JSON")
        }
        var entries: [String: String] = [:]
        for member in stored.members {
            guard let value = member.value.stringValue else { throw damaged("the entry \"\(member.key)\" is not text") }
            entries[member.key] = value
        }
        return entries
    }

    private func damaged(_ why: String) -> SecretStoreFailure {
        SecretStoreFailure("The HomeSec secret store \(path) is damaged (\(why)); nothing was changed. Repair or remove the file, then try again.")
    }

    private func save(_ entries: [String: String]) throws(SecretStoreFailure) {
        let object = JSONObject(entries.keys.sorted().map { ($0, JSONValue.string(entries[$0]!)) })
        do throws(UsageError) {
            try AtomicFile.write(Array(JSONWriter.string(["entries": .object(object)]).utf8), to: path, what: "the HomeSec secret store")
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
        SecretServiceStore(schema: cgtk_homesec_schema()).problem(probing: ["service": HomeSecAuth.service, "app": "hostshell-probe", "account": "probe"])
    }
}
