import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// A deterministic generator, so tokens made in tests are known.
struct CountingGenerator: RandomNumberGenerator {
    var state: UInt64 = 0
    mutating func next() -> UInt64 { state &+= 0x0101_0101_0101_0101; return state }
}

@Suite("PushNotifications: permission, a stable rotatable token, listeners' events, delivery")
struct PushNotificationsTests {
    typealias P = PushNotifications

    static let tokenA = PushToken(bytes: Array(repeating: 0xAB, count: 32))!
    static let tokenB = PushToken(bytes: Array(0..<32))!

    func machine(record: PushRecord? = nil, options: [String] = []) -> P {
        P(record: record, bundleId: "com.levneiman.homesec", environment: .sandbox, presentationOptions: options)
    }

    @Test("a token is 32 bytes as 64 upper-case hex digits, read back in either case")
    func tokenFormat() {
        #expect(Self.tokenB.hex == "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F")
        #expect(PushToken(hex: Self.tokenB.hex.lowercased()) == Self.tokenB)
        #expect(PushToken(hex: String(Self.tokenB.hex.dropLast())) == nil)
        #expect(PushToken(hex: String(Self.tokenB.hex.dropLast()) + "G") == nil)
        #expect(PushToken(bytes: [1, 2]) == nil)
        var generator = CountingGenerator()
        let made = PushToken.random(using: &generator)
        #expect(made.bytes.count == 32 && made.hex.count == 64)
        #expect(made.hex.allSatisfy { "0123456789ABCDEF".contains($0) })
        var system = SystemRandomNumberGenerator()
        #expect(PushToken.random(using: &system) != PushToken.random(using: &system))
    }

    @Test("the record file round-trips; a damaged one is no record")
    func recordFile() {
        let record = PushRecord(token: Self.tokenA, bundleId: "a.b", environment: .production)
        #expect(PushRecord(fileText: record.fileText) == record)
        let bare = PushRecord(token: Self.tokenA, bundleId: nil, environment: .sandbox)
        #expect(PushRecord(fileText: bare.fileText) == bare)
        for damaged in ["", "{", "[]", "{\"token\":\"AB\",\"environment\":\"sandbox\"}",
                        "{\"token\":\"\(Self.tokenA.hex)\",\"environment\":\"staging\"}",
                        "{\"token\":\"\(Self.tokenA.hex)\",\"environment\":\"sandbox\",\"bundleId\":7}"] {
            #expect(PushRecord(fileText: damaged) == nil, "\(damaged)")
        }
    }

    @Test("checkPermissions reports the profile's answer; requestPermissions asks once for all waiting calls")
    func permissions() {
        var m = machine()
        #expect(m.reduce(.call(1, method: "checkPermissions", options: [:], permission: .prompt)) == [.resolve(1, ["receive": "prompt"])])
        #expect(m.reduce(.call(2, method: "checkPermissions", options: [:], permission: .denied)) == [.resolve(2, ["receive": "denied"])])
        #expect(m.reduce(.call(3, method: "requestPermissions", options: [:], permission: .prompt)) == [.askPermission])
        #expect(m.reduce(.call(4, method: "requestPermissions", options: [:], permission: .prompt)) == [])
        #expect(m.waitingForPermission == [3, 4])
        #expect(m.reduce(.permissionAnswered(granted: true)) == [.resolve(3, ["receive": "granted"]), .resolve(4, ["receive": "granted"])])
        #expect(m.reduce(.permissionAnswered(granted: true)) == [], "a second answer has no one to answer")
        #expect(m.reduce(.call(5, method: "requestPermissions", options: [:], permission: .granted)) == [.resolve(5, ["receive": "granted"])],
                "an answer already given is not asked again")
        _ = m.reduce(.call(6, method: "requestPermissions", options: [:], permission: .prompt))
        #expect(m.reduce(.permissionAnswered(granted: false)) == [.resolve(6, ["receive": "denied"])])
    }

    @Test("first register: resolves at once, makes a token, keeps it, then fires registration")
    func firstRegister() {
        var m = machine()
        #expect(m.reduce(.call(1, method: "register", options: [:], permission: .granted)) == [.resolve(1, nil), .makeToken])
        let record = PushRecord(token: Self.tokenA, bundleId: "com.levneiman.homesec", environment: .sandbox)
        #expect(m.reduce(.tokenMade(Self.tokenA)) == [.saveRecord(record)])
        #expect(m.reduce(.recordSaved) == [.notify(event: "registration", data: ["value": .string(Self.tokenA.hex)], retained: false)])
        #expect(m.token == Self.tokenA && m.recorded == record)
        #expect(m.reduce(.tokenMade(Self.tokenB)) == [], "a token nobody asked for is ignored")
        // Registering again: the same token, nothing written.
        #expect(m.reduce(.call(2, method: "register", options: [:], permission: .granted)) ==
                [.resolve(2, nil), .notify(event: "registration", data: ["value": .string(Self.tokenA.hex)], retained: false)])
    }

    @Test("a profile's token is stable across starts; a changed bundle or environment rewrites the record, same token")
    func stableToken() {
        let record = PushRecord(token: Self.tokenA, bundleId: "com.levneiman.homesec", environment: .sandbox)
        var m = machine(record: record)
        #expect(m.reduce(.call(1, method: "register", options: [:], permission: .granted)) ==
                [.resolve(1, nil), .notify(event: "registration", data: ["value": .string(Self.tokenA.hex)], retained: false)])
        var production = P(record: record, bundleId: "com.levneiman.homesec", environment: .production)
        let moved = PushRecord(token: Self.tokenA, bundleId: "com.levneiman.homesec", environment: .production)
        #expect(production.reduce(.call(1, method: "register", options: [:], permission: .granted)) == [.resolve(1, nil), .saveRecord(moved)])
        #expect(production.reduce(.recordSaved) == [.notify(event: "registration", data: ["value": .string(Self.tokenA.hex)], retained: false)])
    }

    @Test("a record that cannot be written: registrationError with why, and no token handed out")
    func saveFails() {
        var m = machine()
        _ = m.reduce(.call(1, method: "register", options: [:], permission: .granted))
        _ = m.reduce(.tokenMade(Self.tokenA))
        #expect(m.reduce(.recordFailed("disk full")) == [.notify(event: "registrationError", data: ["error": "disk full"], retained: false)])
        #expect(m.reduce(.call(2, method: "getDeliveredNotifications", options: [:], permission: .granted)) ==
                [.reject(2, message: P.notRegisteredYet, code: nil)])
        // The next register tries to keep it again.
        #expect(m.reduce(.call(3, method: "register", options: [:], permission: .granted)) ==
                [.resolve(3, nil), .saveRecord(PushRecord(token: Self.tokenA, bundleId: "com.levneiman.homesec", environment: .sandbox))])
    }

    @Test("rotation: a new token is kept; registration fires again only for an app that registered")
    func rotation() {
        let record = PushRecord(token: Self.tokenA, bundleId: "com.levneiman.homesec", environment: .sandbox)
        var quiet = machine(record: record)
        #expect(quiet.reduce(.rotate) == [.makeToken])
        #expect(quiet.reduce(.tokenMade(Self.tokenB)) == [.saveRecord(PushRecord(token: Self.tokenB, bundleId: "com.levneiman.homesec", environment: .sandbox))])
        #expect(quiet.reduce(.recordSaved) == [])
        #expect(quiet.token == Self.tokenB)

        var m = machine(record: record)
        _ = m.reduce(.call(1, method: "register", options: [:], permission: .granted))
        #expect(m.reduce(.rotate) == [.makeToken])
        _ = m.reduce(.tokenMade(Self.tokenB))
        #expect(m.reduce(.recordSaved) == [.notify(event: "registration", data: ["value": .string(Self.tokenB.hex)], retained: false)])
        _ = m.reduce(.call(2, method: "unregister", options: [:], permission: .granted))
        #expect(m.reduce(.rotate) == [.makeToken])
        _ = m.reduce(.tokenMade(Self.tokenA))
        #expect(m.reduce(.recordSaved) == [], "after unregister the new token waits for register")
    }

    @Test("register while a token is being made: one token, reported once")
    func registerDuringRotation() {
        var m = machine()
        #expect(m.reduce(.rotate) == [.makeToken])
        #expect(m.reduce(.call(1, method: "register", options: [:], permission: .granted)) == [.resolve(1, nil)])
        _ = m.reduce(.tokenMade(Self.tokenA))
        #expect(m.reduce(.recordSaved) == [.notify(event: "registration", data: ["value": .string(Self.tokenA.hex)], retained: false)])
    }

    static let payload: JSONObject = ["aps": ["alert": ["title": "Front door", "subtitle": "Motion", "body": "Person detected"], "badge": 3],
                                      "route": "/events/42?from=notification", "event_id": 42]

    @Test("foreground: pushNotificationReceived with the notification, no banner unless presentationOptions asks")
    func foreground() {
        var m = machine()
        let n = P.Notification(id: "n1", payload: Self.payload)
        #expect(n.title == "Front door" && n.subtitle == "Motion" && n.body == "Person detected" && n.badge == 3)
        #expect(m.reduce(.deliver(id: "n1", payload: Self.payload, foreground: true)) ==
                [.notify(event: "pushNotificationReceived", data: n.json, retained: false)])
        #expect(m.delivered.isEmpty)
        var alerting = machine(options: ["badge", "sound", "alert"])
        #expect(alerting.reduce(.deliver(id: "n1", payload: Self.payload, foreground: true)) ==
                [.notify(event: "pushNotificationReceived", data: n.json, retained: false), .show(n)])
        #expect(alerting.delivered == [n])
    }

    @Test("background: a desktop notification and no event; activating it performs the action with the whole payload, retained")
    func backgroundAndTap() {
        var m = machine()
        let n = P.Notification(id: "n1", payload: Self.payload)
        #expect(m.reduce(.deliver(id: "n1", payload: Self.payload, foreground: false)) == [.show(n)])
        let effects = m.reduce(.activate(id: "n1", payload: Self.payload, actionId: "tap", inputValue: nil))
        #expect(effects == [.notify(event: "pushNotificationActionPerformed", data: ["actionId": "tap", "notification": n.json], retained: true)])
        guard case .notify(_, let data, _)? = effects.first else { Issue.record("no event"); return }
        #expect(data.objectValue?["notification"]?.objectValue?["data"] == .object(Self.payload), "data is the whole payload")
        #expect(data.objectValue?["notification"]?.objectValue?["data"]?.objectValue?["route"] == "/events/42?from=notification")
        #expect(m.delivered.isEmpty)
        // An action with text input carries it.
        #expect(m.reduce(.activate(id: "n2", payload: ["aps": ["alert": "Hi"]], actionId: "reply", inputValue: "ok")) ==
                [.notify(event: "pushNotificationActionPerformed",
                         data: ["actionId": "reply", "inputValue": "ok", "notification": P.Notification(id: "n2", payload: ["aps": ["alert": "Hi"]]).json],
                         retained: true)])
    }

    @Test("a payload with a text alert, none, or odd fields: body from the text, empty texts, badge 1")
    func payloadShapes() {
        let text = P.Notification(id: "x", payload: ["aps": ["alert": "Hello"]])
        #expect(text.body == "Hello" && text.title == "" && text.badge == 1)
        let none = P.Notification(id: "x", payload: ["route": "/live"])
        #expect(none.body == "" && none.title == "" && none.subtitle == "" && none.badge == 1)
        let odd = P.Notification(id: "x", payload: ["aps": ["alert": ["title": 5], "badge": 1.5]])
        #expect(odd.title == "" && odd.badge == 1)
    }

    @Test("notification centre methods: rejected before a token was given, then list and remove")
    func deliveredList() {
        var m = machine()
        _ = m.reduce(.deliver(id: "n1", payload: Self.payload, foreground: false))
        #expect(m.reduce(.call(1, method: "getDeliveredNotifications", options: [:], permission: .granted)) == [.reject(1, message: P.notRegisteredYet, code: nil)])
        _ = m.reduce(.call(2, method: "register", options: [:], permission: .granted))
        _ = m.reduce(.tokenMade(Self.tokenA))
        _ = m.reduce(.recordSaved)
        _ = m.reduce(.deliver(id: "n2", payload: ["aps": ["alert": "B"]], foreground: false))
        let n1 = P.Notification(id: "n1", payload: Self.payload)
        let n2 = P.Notification(id: "n2", payload: ["aps": ["alert": "B"]])
        #expect(m.reduce(.call(3, method: "getDeliveredNotifications", options: [:], permission: .granted)) == [.resolve(3, ["notifications": [n1.json, n2.json]])])
        #expect(m.reduce(.call(4, method: "removeDeliveredNotifications", options: [:], permission: .granted)) == [.reject(4, message: P.missingNotifications, code: nil)])
        #expect(m.reduce(.call(5, method: "removeDeliveredNotifications", options: ["notifications": [["id": "n1"], ["id": "zz"]]], permission: .granted)) ==
                [.withdraw(ids: ["n1"]), .resolve(5, nil)])
        #expect(m.reduce(.call(6, method: "removeAllDeliveredNotifications", options: [:], permission: .granted)) == [.withdraw(ids: ["n2"]), .resolve(6, nil)])
        #expect(m.delivered.isEmpty)
    }

    @Test("Android's channel methods are UNIMPLEMENTED on iOS, with iOS's words")
    func channels() {
        var m = machine()
        for method in ["createChannel", "listChannels", "deleteChannel"] {
            #expect(m.reduce(.call(1, method: method, options: [:], permission: .granted)) == [.reject(1, message: "Not available on iOS", code: "UNIMPLEMENTED")])
        }
        #expect(m.reduce(.call(1, method: "nope", options: [:], permission: .granted)) ==
                [.reject(1, message: "PushNotifications.nope() is not implemented on ios", code: "UNIMPLEMENTED")])
    }

    @Test("the delivered list keeps the newest")
    func deliveredLimit() {
        var m = machine()
        for index in 0...P.keptDelivered { _ = m.reduce(.deliver(id: "n\(index)", payload: [:], foreground: false)) }
        #expect(m.delivered.count == P.keptDelivered)
        #expect(m.delivered.first?.id == "n1")
    }

    @Test("state shows the token, environment and bundle, never a payload's data")
    func state() {
        var m = machine(record: PushRecord(token: Self.tokenA, bundleId: "com.levneiman.homesec", environment: .sandbox))
        _ = m.reduce(.deliver(id: "n1", payload: Self.payload, foreground: false))
        let json = m.json
        #expect(json.objectValue?["token"] == .string(Self.tokenA.hex))
        #expect(json.objectValue?["environment"] == "sandbox")
        #expect(json.objectValue?["delivered"] == [["id": "n1", "title": "Front door", "body": "Person detected"]])
        #expect(!JSONWriter.string(json).contains("events/42"))
    }
}
