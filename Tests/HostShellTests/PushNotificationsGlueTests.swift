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

/// PushNotifications' glue without a page: the profile's files (push.json, the remembered
/// permission), tokens from the system's random source, and the permission question waiting for
/// `ctl permission` when no one can be asked.
@Suite("PushNotifications' glue: the push profile's files and the permission question")
@MainActor
struct PushNotificationsGlueTests {
    final class Posted { var events: [PluginHostEvent] = [] }

    static func glue(_ dir: String, posted: Posted = Posted()) -> PushNotificationsGlue {
        let context = CapacitorGlueContext(app: CapacitorAppInfo(appId: "dev.hostshell.pushglue", appName: "Push Glue"), dataDirectory: dir,
                                           attended: false, environment: AppEnvironment(rendering: nil), window: { nil }, post: { posted.events.append($0) })
        return PushNotificationsGlue(context)
    }

    /// Performs one request and returns its outcome (nil: not answered yet).
    static func perform(_ glue: PushNotificationsGlue, _ action: String, _ arguments: JSONObject = [:]) -> HostOutcome? {
        var outcome: HostOutcome?
        glue.perform(HostRequest(ticket: 1, plugin: PushNotifications.pluginName, action: action, arguments: arguments)) { outcome = $0 }
        return outcome
    }

    @Test("tokens are 32 random bytes in upper-case hex; the record is written owner-only and read back at the next start")
    func tokenAndRecord() throws {
        let dir = NSTemporaryDirectory() + "push-glue-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let glue = Self.glue(dir)
        defer { glue.close() }
        #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
        let one = try #require(try Self.perform(glue, "token.make")?.get().objectValue?["token"]?.stringValue)
        let two = try #require(try Self.perform(glue, "token.make")?.get().objectValue?["token"]?.stringValue)
        #expect(one.count == 64 && one == one.uppercased() && PushToken(hex: one) != nil && one != two)
        let record = PushRecord(token: PushToken(hex: one)!, bundleId: "dev.hostshell.pushglue", environment: .production)
        #expect(Self.perform(glue, "record.save", ["text": .string(record.fileText)]) == .success([:]))
        #expect(try HomeSecSecretStoreTests.mode(glue.recordPath) == 0o600)
        let loaded = try #require(try Self.perform(glue, "push.load")?.get().objectValue?["record"]?.stringValue)
        #expect(PushRecord(fileText: loaded) == record)
        let onDisk = try String(contentsOfFile: glue.recordPath, encoding: .utf8)
        #expect(onDisk.contains(one) && onDisk.contains("\"environment\":\"production\"") && onDisk.contains("dev.hostshell.pushglue"))
    }

    @Test("a damaged record is kept aside, never overwritten; the app then starts without a token")
    func damagedRecord() throws {
        let dir = NSTemporaryDirectory() + "push-glue-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let glue = Self.glue(dir)
        defer { glue.close() }
        try Data("{\"token\": \"short\"".utf8).write(to: URL(fileURLWithPath: glue.recordPath))
        #expect(Self.perform(glue, "push.load") == .success(["record": .null, "permission": "prompt"]))
        let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix(PushRecord.fileName + ".damaged-") })
        #expect(try String(contentsOfFile: dir + "/" + kept, encoding: .utf8) == "{\"token\": \"short\"")
        #expect(!FileManager.default.fileExists(atPath: glue.recordPath))
    }

    @Test("unattended: the question waits for ctl permission; the answer is remembered for the app (and a damaged memory asks again)")
    func permissionWaits() throws {
        let dir = NSTemporaryDirectory() + "push-glue-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let glue = Self.glue(dir)
        defer { glue.close() }
        func ask() -> () -> HostOutcome? {
            var asked: HostOutcome?
            glue.perform(HostRequest(ticket: 2, plugin: PushNotifications.pluginName, action: "permission.ask", arguments: ["appName": "Push Glue"])) { asked = $0 }
            return { asked }
        }
        let first = ask()
        #expect(first() == nil, "no one to ask: it waits")
        #expect(glue.permissions.machine.open?.byApp == true, "the open question, in the permission center (ctl state's permissions.pending)")
        #expect(glue.permissions.controlAnswer(true) == "notifications granted")
        #expect(first() == .success(["receive": "granted"]), "ctl permission settles the waiting question")
        #expect(try HomeSecSecretStoreTests.mode(glue.permissionPath) == 0o600)
        #expect(Self.perform(Self.glue(dir), "push.load") == .success(["record": .null, "permission": "granted"]), "remembered for the app")
        // An answer given ahead is the next question's: no wait.
        #expect(glue.permissions.controlAnswer(false) == "no question is open: the next one will be denied")
        #expect(ask()() == .success(["receive": "denied"]))
        #expect(Self.perform(Self.glue(dir), "push.load") == .success(["record": .null, "permission": "denied"]))
        try Data("{\"receive\": ".utf8).write(to: URL(fileURLWithPath: glue.permissionPath))
        #expect(Self.perform(Self.glue(dir), "push.load") == .success(["record": .null, "permission": "prompt"]))
    }

    @Test("deliverPush and activateNotification post the push side's host events with the whole payload")
    func entryPoints() throws {
        let posted = Posted()
        let glue = Self.glue(NSTemporaryDirectory() + "push-glue-\(UUID().uuidString)", posted: posted)
        defer { glue.close() }
        #expect(PushNotificationsGlue.glue(forApp: "dev.hostshell.pushglue") === glue)
        let payload: JSONObject = ["aps": ["alert": ["title": "Motion", "body": "Front door"]], "route": "/events/7?from=notification"]
        glue.deliverPush(payload, id: "n1")
        glue.activateNotification(payload, id: "n1")
        #expect(posted.events == [PushNotificationsPlugin.delivered(id: "n1", payload: payload),
                                  PushNotificationsPlugin.activated(id: "n1", payload: payload, actionId: "tap")])
        #expect(Self.perform(glue, "notification.show", ["id": "n1", "title": "Motion"]) == .success(["shown": false]),
                "no GApplication to show it with: said so, not pretended")
    }
}
