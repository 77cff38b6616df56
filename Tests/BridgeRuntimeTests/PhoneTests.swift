@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Foundation
import Testing

@Suite("Phone: where a token's device listens, what crosses to it, the inbox of an app not running, simctl payload files")
struct PhoneTests {
    static let token = String(repeating: "AB", count: 32)
    static let payload: JSONObject = ["aps": ["alert": ["title": "Front door", "body": "Person detected"]], "route": "/events/7?from=notification"]

    @Test("an entry round-trips; damaged entries are none; socket paths are short and differ per token")
    func directory() {
        let entry = PhoneEntry(token: Self.token, appId: "com.example.homesec", topic: "com.example.homesec", environment: .sandbox,
                               socket: "/run/user/1000/hostshell/phones/p-1.sock")
        #expect(entry.token == Self.token.lowercased())
        #expect(PhoneEntry(fileText: entry.fileText) == entry)
        for damaged in ["", "{", "[]", #"{"token":"xyz","appId":"a","topic":"a","environment":"sandbox","socket":"/s"}"#,
                        #"{"token":"\#(Self.token)","appId":"a","topic":"a","environment":"moon","socket":"/s"}"#,
                        #"{"token":"\#(Self.token)","appId":"a","topic":"a","environment":"sandbox","socket":"relative"}"#] {
            #expect(PhoneEntry(fileText: damaged) == nil, "\(damaged)")
        }
        let dir = PhoneDirectory.directory(runtimeDirectory: "/run/user/1000")
        #expect(dir == "/run/user/1000/hostshell/phones")
        let socket = PhoneDirectory.socketPath(dir, token: Self.token)
        #expect(socket == PhoneDirectory.socketPath(dir, token: Self.token.lowercased()), "tokens are case-blind")
        #expect(socket != PhoneDirectory.socketPath(dir, token: String(repeating: "CD", count: 32)))
        #expect(socket.utf8.count < 107 - 40, "room for a long runtime directory")
        #expect(PhoneDirectory.entryPath(dir, token: Self.token).hasSuffix("/" + Self.token.lowercased() + ".json"))
        #expect(PhoneDirectory.token(ofEntryName: Self.token.lowercased() + ".json") == Self.token.lowercased())
        #expect(PhoneDirectory.token(ofEntryName: "p-1.sock") == nil && PhoneDirectory.token(ofEntryName: "zz.json") == nil)
        #expect(PhoneDirectory.refusal(of: entry, topic: "com.example.homesec", environment: .sandbox) == nil)
        #expect(PhoneDirectory.refusal(of: entry, topic: "com.example.homesec", environment: .production) == .badDeviceToken)
        #expect(PhoneDirectory.refusal(of: entry, topic: "com.other", environment: .sandbox) == .deviceTokenNotForTopic)
    }

    @Test("a push crosses as one line with the headers an app can tell apart; a payload that is not an object never crosses")
    func push() {
        let push = PhonePush(id: "5e1d2f10-0000-4000-8000-000000000001", token: Self.token, topic: "com.example.homesec",
                             environment: .production, pushType: "alert", priority: 5, collapseID: "door", payload: Self.payload)
        #expect(!push.line.contains("\n"))
        #expect(PhonePush(line: push.line) == push)
        let plain = PhonePush(id: "x", token: Self.token, topic: "t", environment: .sandbox, payload: ["aps": [:]])
        #expect(PhonePush(line: plain.line)?.collapseID == nil)
        for bad in ["", "null", "{}", #"{"id":"x","token":"no","topic":"t","environment":"sandbox","payload":{}}"#,
                    #"{"id":"x","token":"\#(Self.token)","topic":"t","environment":"sandbox","payload":[]}"#,
                    #"{"id":"x","token":"\#(Self.token)","topic":"t","environment":"sandbox","payload":{},"collapseId":3}"#] {
            #expect(PhonePush(line: bad) == nil, "\(bad)")
        }
        let accepted = AcceptedPush(token: Self.token, environment: .sandbox, topic: "com.example.homesec", bundleID: "com.example.homesec",
                                    pushType: .alert, priority: 10, collapseID: nil, expiration: nil, apnsID: "id-1",
                                    payload: Array(#"{"aps":{"alert":"Hi"}}"#.utf8), time: 0)
        #expect(PhonePush(accepted)?.payload == ["aps": ["alert": "Hi"]])
        #expect(PhonePush(accepted)?.id == "id-1")
        let text = AcceptedPush(token: Self.token, environment: .sandbox, topic: "t", bundleID: "t", pushType: .alert, priority: 10,
                                collapseID: nil, expiration: nil, apnsID: "id-2", payload: Array("hello".utf8), time: 0)
        #expect(PhonePush(text) == nil, "a device drops a payload that is not a JSON object")
    }

    @Test("acknowledgements round-trip and say what the record line says; anything unreadable is a refusal")
    func acks() {
        for ack in [PhoneAck.foreground, .background, .kept, .delivered, .refused("no such app")] {
            #expect(PhoneAck(line: ack.line) == ack)
        }
        #expect(PhoneAck.foreground.recordValue == .bool(true) && PhoneAck.background.recordValue == .bool(true))
        #expect(PhoneAck.kept.recordValue == .string("kept"))
        #expect(PhoneAck.refused("x").recordValue == .bool(false))
        #expect(PhoneAck(line: "garbage") == .refused("the device answered something that is not an acknowledgement"))
    }

    @Test("the inbox keeps 64 at most, oldest out; a same collapse id replaces; damaged lines are skipped, not fatal")
    func inbox() {
        var inbox = PhoneInbox()
        for n in 0..<70 {
            inbox.keep(PhonePush(id: "p\(n)", token: Self.token, topic: "t", environment: .sandbox, payload: ["aps": ["alert": .string("n\(n)")]]))
        }
        #expect(inbox.pushes.count == PhoneInbox.limit)
        #expect(inbox.pushes.first?.id == "p6" && inbox.pushes.last?.id == "p69")
        var collapsing = PhoneInbox()
        collapsing.keep(PhonePush(id: "a", token: Self.token, topic: "t", environment: .sandbox, collapseID: "door", payload: ["n": 1]))
        collapsing.keep(PhonePush(id: "b", token: Self.token, topic: "t", environment: .sandbox, payload: ["n": 2]))
        collapsing.keep(PhonePush(id: "c", token: Self.token, topic: "t", environment: .sandbox, collapseID: "door", payload: ["n": 3]))
        #expect(collapsing.pushes.map(\.id) == ["b", "c"])
        #expect(PhoneInbox(fileText: collapsing.fileText) == collapsing)
        let damaged = PhoneInbox(fileText: collapsing.fileText + "{\"id\": \"cut sho\n\u{0}\u{1}\n" + collapsing.pushes[0].line.prefix(20))
        #expect(damaged.pushes == collapsing.pushes && damaged.damagedLines == 3)
        #expect(PhoneInbox(fileText: "").pushes.isEmpty)
    }

    @Test("simctl payload files: the target bundle is read and taken out; clear errors for what simctl refuses")
    func simulatorFiles() throws {
        let file = try SimulatorPushFile(bytes: Array(#"{"Simulator Target Bundle":"com.example.homesec","aps":{"alert":"Hi"},"route":"/events/1"}"#.utf8))
        #expect(file.targetBundle == "com.example.homesec")
        #expect(file.payload == ["aps": ["alert": "Hi"], "route": "/events/1"])
        #expect(try SimulatorPushFile(bytes: Array(#"{"aps":{}}"#.utf8)).targetBundle == nil)
        func problem(_ text: String) -> String {
            do { _ = try SimulatorPushFile(bytes: Array(text.utf8), name: "x.apns"); return "" } catch { return error.message }
        }
        #expect(problem("").contains("is empty"))
        #expect(problem("{aps:").contains("is not JSON"))
        #expect(problem("[1]").contains("not a JSON object"))
        #expect(problem(#"{"alert":"Hi"}"#).contains("no \"aps\""))
        #expect(problem(#"{"aps":"Hi"}"#).contains("not a dictionary"))
        #expect(problem(#"{"aps":{},"Simulator Target Bundle":7}"#).contains("bundle id as a string"))
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
        #expect(problem(big).contains("at most 4096 bytes"))
    }

    @Test("the example file `hostshell push --help` names is one simctl takes, for the reference app")
    func exampleFile() throws {
        let bytes = try [UInt8](Data(contentsOf: Checkout.root.appendingPathComponent("fixtures/capacitor/push/motion.apns")))
        let file = try SimulatorPushFile(bytes: bytes, name: "motion.apns")
        #expect(file.targetBundle == "com.example.homesec")
        #expect(file.payload["route"] == "/events/clip-42?from=notification" && file.payload["aps"]?.objectValue?["alert"] != nil)
    }
}

@Suite("TokenHolders: who on this machine holds a push token")
struct TokenHoldersTests {
    static let a = String(repeating: "a1", count: 32), b = String(repeating: "b2", count: 32)

    @Test("a running device's entry wins over a profile; tokens match in any case; an app id stands in for a missing bundle id")
    func lookups() throws {
        let entry = PhoneEntry(token: Self.a, appId: "app.one", topic: "com.example.one", environment: .sandbox, socket: "p-1.sock")
        let both = TokenHolders.ProfileRecord(appId: "app.one", record: PushRecord(token: try #require(PushToken(hex: Self.a)), bundleId: "com.example.one", environment: .production))
        let onlyProfile = TokenHolders.ProfileRecord(appId: "app.two", record: PushRecord(token: try #require(PushToken(hex: Self.b)), bundleId: nil, environment: .sandbox))
        let holders = TokenHolders(entries: [entry], profiles: [both, onlyProfile])
        #expect(holders.device(holding: Self.a.uppercased()) == APNsDevice(bundleID: "com.example.one", environment: .sandbox), "the running device says")
        #expect(holders.entry(Self.a) == entry && holders.profile(Self.a) == both)
        #expect(holders.device(holding: Self.b) == APNsDevice(bundleID: "app.two", environment: .sandbox))
        #expect(holders.entry(Self.b) == nil)
        #expect(holders.device(holding: String(repeating: "c3", count: 32)) == nil)
        #expect(TokenHolders(entries: [], profiles: []).device(holding: Self.a) == nil)
    }

    @Test("two holders of one token: the first read is kept")
    func firstKept() throws {
        let one = PhoneEntry(token: Self.a, appId: "one", topic: "t.one", environment: .sandbox, socket: "1")
        let two = PhoneEntry(token: Self.a.uppercased(), appId: "two", topic: "t.two", environment: .sandbox, socket: "2")
        #expect(TokenHolders(entries: [one, two], profiles: []).entry(Self.a) == one)
    }
}

@Suite("NotificationShelf: what the desktop holds for an app until a person opens or dismisses it")
struct NotificationShelfTests {
    static func item(_ id: String) -> NotificationShelf.Item {
        NotificationShelf.Item(id: id, title: "T\(id)", body: "B", payload: ["aps": ["alert": "x"], "route": .string("/events/\(id)")], onDesktop: false)
    }

    @Test("activate hands back the whole payload once; dismiss and withdraw take items away; bounded, oldest first")
    func shelf() {
        var shelf = NotificationShelf()
        shelf.show(Self.item("1"))
        shelf.show(Self.item("2"))
        #expect(shelf.activate("1")?.payload["route"] == "/events/1")
        #expect(shelf.activate("1") == nil, "opened once")
        #expect(shelf.dismiss("2")?.id == "2" && shelf.items.isEmpty)
        #expect(shelf.history.map(\.outcome) == ["activated", "dismissed"])
        for n in 0..<70 { shelf.show(Self.item("n\(n)")) }
        #expect(shelf.items.count == NotificationShelf.limit && shelf.items.first?.id == "n6")
        shelf.withdraw(["n6", "nope"])
        #expect(shelf.items.first?.id == "n7")
        #expect(shelf.json["shown"]?.arrayValue?.count == 63)
    }
}
