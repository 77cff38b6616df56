import CapacitorContract
import Foundation
import Glibc
import HostCore
import Push
@testable import CapacitorShell
@testable import HomeSecShell
@testable import ShellKit
import Testing

/// Issue 29 item 8: the files a profile keeps (push.json, push-permission.json,
/// homesec-secrets.json, permissions.json) follow the server list's rule. A link is read and
/// written through (kept); a link to nothing or a FIFO is refused, untouched, without hanging; a
/// damaged file is kept aside under a name of its own (another on repeat) before anything new
/// is written, and the person is told (standard error and a `warning` event).
@Suite("Profile files: links, FIFOs and damage, as servers.json has them")
@MainActor
struct ProfileFileTests {
    final class Told { var lines: [String] = [] }

    static func directory() throws -> String {
        let dir = NSTemporaryDirectory() + "profile-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A push glue on `dir`, and what its environment's event stream says as warnings.
    static func glue(_ dir: String) -> (PushNotificationsGlue, Told) {
        let told = Told()
        let environment = AppEnvironment(rendering: nil)
        _ = environment.events.subscribe([.warning]) { told.lines.append($0) }
        let context = CapacitorGlueContext(app: CapacitorAppInfo(appId: "dev.hostshell.profilefile", appName: "Profile File"), dataDirectory: dir,
                                           attended: false, environment: environment, window: { nil }, post: { _ in })
        return (PushNotificationsGlue(context), told)
    }

    static func perform(_ glue: PushNotificationsGlue, _ action: String, _ arguments: JSONObject = [:]) -> HostOutcome? {
        var outcome: HostOutcome?
        glue.perform(HostRequest(ticket: 1, plugin: PushNotifications.pluginName, action: action, arguments: arguments)) { outcome = $0 }
        return outcome
    }

    static func kept(_ dir: String, _ name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(name + ".damaged-") }.sorted()
    }

    static func isFIFO(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    /// The store's failure message, or nil when `body` did not fail.
    static func failure(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return (error as? SecretStoreFailure)?.message ?? "\(error)" }
    }

    static func linkTarget(_ path: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: path) }

    static let record = PushRecord(token: PushToken(hex: String(repeating: "AB", count: 32))!, bundleId: "dev.hostshell.profilefile", environment: .production)

    @Test("push.json of 40 MB: kept aside whole under a unique name, told, then a new one written; again: a second name")
    func hugeRecord() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (glue, told) = Self.glue(dir)
        defer { glue.close() }
        for round in 1...2 {
            #expect(FileManager.default.createFile(atPath: glue.recordPath, contents: nil))
            #expect(truncate(glue.recordPath, 40 << 20) == 0)
            #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
            let kept = try Self.kept(dir, PushRecord.fileName)
            #expect(kept.count == round, "each damaged file under a name of its own: \(kept)")
            #expect(try kept.allSatisfy { try FileManager.default.attributesOfItem(atPath: dir + "/" + $0)[.size] as? Int == 40 << 20 }, "nothing lost")
            #expect(told.lines.count == round && told.lines.last?.contains("kept at") == true && told.lines.last?.contains("push.json") == true, "\(told.lines)")
            #expect(Self.perform(glue, "record.save", ["text": .string(Self.record.fileText)]) == .success([:]))
            #expect(PushRecord(fileText: try String(contentsOfFile: glue.recordPath, encoding: .utf8)) == Self.record)
            try FileManager.default.removeItem(atPath: glue.recordPath)
        }
    }

    @Test("push.json damaged: kept aside under unique names (twice in one second), never push.json.damaged")
    func damagedRecordTwice() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (glue, told) = Self.glue(dir)
        defer { glue.close() }
        for content in ["{\"token\": \"short\"", "{\"token\": \"other\""] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: glue.recordPath))
            #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
        }
        let kept = try Self.kept(dir, PushRecord.fileName)
        #expect(kept.count == 2 && !FileManager.default.fileExists(atPath: glue.recordPath + ".damaged"), "\(kept)")
        let contents = try Set(kept.map { try String(contentsOfFile: dir + "/" + $0, encoding: .utf8) })
        #expect(contents == ["{\"token\": \"short\"", "{\"token\": \"other\""])
        #expect(told.lines.count == 2)
    }

    @Test("a damaged record written over before any load is kept aside first")
    func damagedBeforeSave() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (glue, told) = Self.glue(dir)
        defer { glue.close() }
        try Data("not a record".utf8).write(to: URL(fileURLWithPath: glue.recordPath))
        #expect(Self.perform(glue, "record.save", ["text": .string(Self.record.fileText)]) == .success([:]))
        let kept = try Self.kept(dir, PushRecord.fileName)
        #expect(kept.count == 1 && (try? String(contentsOfFile: dir + "/" + kept[0], encoding: .utf8)) == "not a record")
        #expect(told.lines.count == 1)
    }

    @Test("push-permission.json damaged: kept aside and told, not silently prompt; the next answer is saved")
    func damagedPermission() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (glue, told) = Self.glue(dir)
        defer { glue.close() }
        try Data("{\"receive\": ".utf8).write(to: URL(fileURLWithPath: glue.permissionPath))
        #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
        let kept = try Self.kept(dir, PushNotificationsPlugin.permissionFileName)
        #expect(kept.count == 1 && (try? String(contentsOfFile: dir + "/" + kept[0], encoding: .utf8)) == "{\"receive\": ")
        #expect(told.lines.count == 1 && told.lines[0].contains("push-permission.json"), "\(told.lines)")
        _ = glue.permissions.controlAnswer(true)  // ctl permission grant, given ahead
        #expect(Self.perform(glue, "permission.ask", ["appName": "T"]) == .success(["receive": "granted"]))
        #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "granted"]))
    }

    @Test("FIFOs as push.json and push-permission.json: no hang, told, refused, left as they are")
    func fifos() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (glue, told) = Self.glue(dir)
        defer { glue.close() }
        #expect(mkfifo(glue.recordPath, 0o600) == 0 && mkfifo(glue.permissionPath, 0o600) == 0)
        #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
        #expect(told.lines.count == 2 && told.lines.allSatisfy { $0.contains("FIFO") }, "\(told.lines)")
        guard case .failure(let failure)? = Self.perform(glue, "record.save", ["text": .string(Self.record.fileText)]) else {
            Issue.record("a FIFO was written over"); return
        }
        #expect(failure.message.contains("FIFO"))
        _ = glue.permissions.controlAnswer(true)
        #expect(Self.perform(glue, "permission.ask", ["appName": "T"]) == .success(["receive": "granted"]), "the answer holds for the run")
        #expect(Self.isFIFO(glue.recordPath) && Self.isFIFO(glue.permissionPath), "left as they were")
        #expect(try Self.kept(dir, PushRecord.fileName).isEmpty)
    }

    @Test("push.json as a link: read and written through, the link kept; a link to nothing is refused and left")
    func links() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (glue, told) = Self.glue(dir)
        defer { glue.close() }
        let target = dir + "/elsewhere.json"
        try Data(Self.record.fileText.utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: glue.recordPath, withDestinationPath: target)
        #expect(try Self.perform(glue, "push.load")?.get().objectValue?["record"]?.stringValue.flatMap(PushRecord.init(fileText:)) == Self.record)
        let other = PushRecord(token: PushToken(hex: String(repeating: "CD", count: 32))!, bundleId: nil, environment: .sandbox)
        #expect(Self.perform(glue, "record.save", ["text": .string(other.fileText)]) == .success([:]))
        #expect(Self.linkTarget(glue.recordPath) == target, "the link is kept")
        #expect(PushRecord(fileText: try String(contentsOfFile: target, encoding: .utf8)) == other)

        try FileManager.default.removeItem(atPath: target)
        #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
        #expect(told.lines.last?.contains("symbolic link") == true, "\(told.lines)")
        guard case .failure? = Self.perform(glue, "record.save", ["text": .string(Self.record.fileText)]) else {
            Issue.record("a link to nothing was replaced"); return
        }
        #expect(Self.linkTarget(glue.recordPath) == target && !FileManager.default.fileExists(atPath: target), "the dangling link is left as it was")
    }

    @Test("homesec-secrets.json: a link to nothing is refused (never replaced); a link is written through; a FIFO refused at once; too large refused, untouched")
    func homeSecStore() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = HomeSecSecretStore(kind: .file, app: "x", dataDirectory: dir)
        let target = dir + "/secrets-elsewhere.json"
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: target)
        #expect(throws: SecretStoreFailure.self) { try store.write("server-base-url", "http://h") }
        #expect(Self.linkTarget(store.path) == target && !FileManager.default.fileExists(atPath: target), "the dangling link is left as it was")
        let dangling = Self.failure { _ = try store.read("server-base-url") }
        #expect(dangling?.contains("symbolic link") == true, "a dangling link read as an empty store: \(String(describing: dangling))")

        try Data(#"{"entries": {}}"#.utf8).write(to: URL(fileURLWithPath: target))
        try store.write("server-base-url", "http://h")
        #expect(Self.linkTarget(store.path) == target, "the link is kept")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("http://h"))

        try FileManager.default.removeItem(atPath: store.path)
        #expect(mkfifo(store.path, 0o600) == 0)
        let fifo = Self.failure { _ = try store.read("server-base-url") }
        #expect(fifo?.contains("FIFO") == true, "\(String(describing: fifo))")
        #expect(throws: SecretStoreFailure.self) { try store.write("server-base-url", "http://h") }
        #expect(Self.isFIFO(store.path))

        try FileManager.default.removeItem(atPath: store.path)
        #expect(FileManager.default.createFile(atPath: store.path, contents: nil) && truncate(store.path, 40 << 20) == 0)
        let huge = Self.failure { try store.write("server-base-url", "http://h") }
        #expect(huge?.contains("is damaged") == true, "a huge store was overwritten: \(String(describing: huge))")
        #expect(try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int == 40 << 20, "nothing lost")
    }

    @Test("permissions.json: damaged is kept aside (not silently forgotten); a FIFO does not hang the profile")
    func permissions() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("{\"camera\": ".utf8).write(to: URL(fileURLWithPath: dir + "/permissions.json"))
        _ = PermissionCenter.of(profileData: dir, attended: false)
        let kept = try Self.kept(dir, "permissions.json")
        #expect(kept.count == 1 && (try? String(contentsOfFile: dir + "/" + kept[0], encoding: .utf8)) == "{\"camera\": ")

        let fifoDir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: fifoDir) }
        #expect(mkfifo(fifoDir + "/permissions.json", 0o600) == 0)
        _ = PermissionCenter.of(profileData: fifoDir, attended: false)
        #expect(Self.isFIFO(fifoDir + "/permissions.json"))
    }
}
