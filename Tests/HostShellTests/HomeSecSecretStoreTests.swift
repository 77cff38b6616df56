import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
@testable import CapacitorShell
@testable import DevFixtures
@testable import HomeSecShell
@testable import HostShell
@testable import PushShell
@testable import ShellKit
@testable import StudioShell
import Testing

/// The HomeSec plugins' glue without a page: the owner-only file store (permissions, atomic
/// replacement, a damaged file refused and left as it was), the real Secret Service where
/// scripts/test runs one (scripts/with-keyring), and PushNotifications' files and questions.
@Suite("HomeSec plugins' glue: the secret stores and the push profile's files")
struct HomeSecSecretStoreTests {
    /// A fresh app data directory (not created: the store makes it, owner-only).
    static func directory() -> String { NSTemporaryDirectory() + "homesec-glue-\(UUID().uuidString)/apps/x" }

    /// Removes what `directory()` made, from its top folder down.
    static func remove(_ dir: String) {
        let top = dir.components(separatedBy: "/apps/x").first ?? dir
        try? FileManager.default.removeItem(atPath: top)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func inode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
    }

    /// A unique app id: the test session's keyring is shared by every suite.
    static func appId() -> String { "dev.hostshell.glue\(UInt32.random(in: .min ... .max))" }

    @Test("file store: owner-only file in an owner-only directory, replaced whole (new inode, no temporary left), entries round-trip")
    func fileStore() throws {
        let dir = Self.directory()
        defer { Self.remove(dir) }
        let store = HomeSecSecretStore(kind: .file, app: "x", dataDirectory: dir)
        #expect(try store.read("server-base-url") == nil, "no file: no entry")
        #expect(try store.accounts().isEmpty)
        try store.delete("nothing")  // deleting what is not there is no failure
        #expect(!FileManager.default.fileExists(atPath: store.path), "nothing written for a delete of nothing")

        try store.write("server-base-url", "http://127.0.0.10:8000")
        #expect(try Self.mode(store.path) == 0o600)
        #expect(try Self.mode(dir) == 0o700)
        let first = try Self.inode(store.path)
        try store.write("api-token:http://127.0.0.10:8000", "tok\"en\n\u{1F512}")
        #expect(try Self.inode(store.path) != first, "a write replaces the file by rename, never in place")
        #expect(try store.read("api-token:http://127.0.0.10:8000") == "tok\"en\n\u{1F512}")
        #expect(try store.accounts().sorted() == ["api-token:http://127.0.0.10:8000", "server-base-url"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0 != HomeSecSecretStore.fileName }
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
        try store.delete("server-base-url")
        #expect(try store.read("server-base-url") == nil)
        #expect(try Self.mode(store.path) == 0o600)
    }

    @Test("file store: a damaged file fails every call with a clear error and is left exactly as it was",
          arguments: ["{not json", "[]", #"{"entries": {"server-base-url": 7}}"#, #"{"other": {}}"#, "\u{FF}\u{FE}"])
    func damagedFile(_ content: String) throws {
        let dir = Self.directory()
        defer { Self.remove(dir) }
        let store = HomeSecSecretStore(kind: .file, app: "x", dataDirectory: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let bytes = content == "\u{FF}\u{FE}" ? Data([0xFF, 0xFE, 0x00]) : Data(content.utf8)
        try bytes.write(to: URL(fileURLWithPath: store.path))
        for attempt in [{ _ = try store.read("server-base-url") }, { try store.write("server-base-url", "http://h") },
                        { try store.delete("server-base-url") }, { _ = try store.accounts() }] as [() throws -> Void] {
            do {
                try attempt()
                Issue.record("a damaged store was used")
            } catch let failure as SecretStoreFailure {
                #expect(failure.message.contains("is damaged") && failure.message.contains(store.path) && failure.message.contains("nothing was changed"), "\(failure.message)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == bytes, "nothing lost")
        // The page sees the store's words with HomeSecAuth's code.
        let answer = HomeSecAuth.call("getServerBaseUrl", options: [:], store: store)
        guard case .reject(let message)? = answer else { Issue.record("not rejected: \(String(describing: answer))"); return }
        #expect(message.contains("is damaged"))
        #expect(HomeSecAuth.entryNames(store).objectValue?["error"] != nil, "ctl state says the entries cannot be read")
    }

    @Test("HomeSecAuth's rules on the real file store: per-URL token, a changed URL drops the old token, clear clears both")
    func rulesOnFile() throws {
        let dir = Self.directory()
        defer { Self.remove(dir) }
        let store = HomeSecSecretStore(kind: .file, app: "x", dataDirectory: dir)
        try Self.exerciseRules(store)
    }

    static func exerciseRules(_ store: HomeSecSecretStore) throws {
        func call(_ method: String, _ options: JSONObject = [:]) -> HomeSecAuth.Answer? { HomeSecAuth.call(method, options: options, store: store) }
        #expect(call("setApiToken", ["value": "t"]) == .reject("Set the HomeSec server URL before storing an API token."))
        #expect(call("setServerBaseUrl", ["value": " HTTP://Home.local:8000/ "]) == .resolve(nil))
        #expect(call("getServerBaseUrl") == .resolve(["value": "http://Home.local:8000"]))
        #expect(call("setApiToken", ["value": "secret-1"]) == .resolve(nil))
        #expect(call("setAuthDisabledReady", ["value": true]) == .resolve(nil))
        #expect(try store.accounts().sorted() == ["api-token:http://Home.local:8000", "auth-disabled-ready:http://Home.local:8000", "server-base-url"])
        #expect(call("setServerBaseUrl", ["value": "https://other.example"]) == .resolve(nil))
        #expect(call("getApiToken") == .resolve(["value": .null]))
        #expect(call("getAuthDisabledReady") == .resolve(["value": false]))
        #expect(try store.read("api-token:http://Home.local:8000") == nil, "the old URL's token is gone from the store")
        #expect(call("setApiToken", ["value": "secret-2"]) == .resolve(nil))
        #expect(call("getApiToken") == .resolve(["value": "secret-2"]))
        #expect(call("setServerBaseUrl", ["value": "ftp://x"]) == .reject("Invalid HomeSec server URL: ftp://x"))
        #expect(call("clearServerBaseUrl") == .resolve(nil))
        #expect(try store.accounts().isEmpty)
    }

    @Test("Secret Service (scripts/with-keyring): service homesec, keyed per app and account; apps never see each other's entries",
          .enabled(if: ProcessInfo.processInfo.environment["GNOME_KEYRING_CONTROL"] != nil, "needs the test keyring: scripts/test starts one"))
    @MainActor
    func secretService() throws {
        #expect(try CapacitorSecretStores.choose("secret-service").contains("Secret Service"))
        let (one, two) = (Self.appId(), Self.appId())
        defer { for app in [one, two] { _ = try? Shell.run("/usr/bin/secret-tool", ["clear", "service", "homesec", "app", app]) } }
        let dir = Self.directory()
        let store = HomeSecSecretStore(kind: .secretService, app: one, dataDirectory: dir)
        let other = HomeSecSecretStore(kind: .secretService, app: two, dataDirectory: dir)
        try Self.exerciseRules(store)
        try store.write("server-base-url", "http://127.0.0.2")
        try store.write("api-token:http://127.0.0.2", "tok-a")
        try other.write("server-base-url", "http://127.0.0.3")
        #expect(try store.read("api-token:http://127.0.0.2") == "tok-a")
        #expect(try other.read("api-token:http://127.0.0.2") == nil)
        #expect(try store.accounts().sorted() == ["api-token:http://127.0.0.2", "server-base-url"])
        #expect(try other.accounts() == ["server-base-url"])
        let lookup = try Shell.run("/usr/bin/secret-tool", ["lookup", "service", "homesec", "app", one, "account", "api-token:http://127.0.0.2"])
        #expect(lookup.trimmingCharacters(in: .newlines) == "tok-a", "the keyring holds it under service homesec")
        #expect(!FileManager.default.fileExists(atPath: dir), "nothing written to files")
        try store.delete("api-token:http://127.0.0.2")
        #expect(try store.read("api-token:http://127.0.0.2") == nil)
    }

    @Test("--credential-store: file always; a bad word says what it takes")
    @MainActor
    func choice() throws {
        #expect(try CapacitorSecretStores.choose("file").contains("owner-only files"))
        #expect(CapacitorSecretStores.kind == .file)
        #expect(throws: UsageError.self) { try CapacitorSecretStores.choose("keychain") }
        _ = try CapacitorSecretStores.choose("auto")
    }
}
