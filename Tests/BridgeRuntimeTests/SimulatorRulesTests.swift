import CapacitorContract
import HostCore
import Push
import Testing

/// Issue 30 item 4 (first half): the simulator controls' rules — privacy kinds and what each
/// question then gets, the content-size table, route interpolation, and `ctl`'s words.
@Suite("Simulator controls: privacy kinds, text sizes, location routes, ctl words")
struct SimulatorRulesTests {
    typealias M = PermissionMachine

    @Test("privacy kinds map onto WebKit's requests and Capacitor's aliases; all names every kind")
    func kinds() {
        #expect(PrivacyKind.location.permission == .geolocation)
        #expect(PrivacyKind(.geolocation) == .location)
        #expect(PrivacyKind(.clipboard) == .clipboard)
        #expect(PrivacyKind(.screen) == nil, "screen capture has no privacy switch: the prompt decides")
        #expect(PrivacyKind(capacitorAlias: "receive") == .notifications)
        #expect(PrivacyKind(capacitorAlias: "coarseLocation") == .location)
        #expect(PrivacyKind(capacitorAlias: "photos") == .photos)
        #expect(PrivacyKind(capacitorAlias: "contacts") == nil)
        #expect(PrivacyKind.named("all") == PrivacyKind.allCases)
        #expect(PrivacyKind.named("camera") == [.camera])
        #expect(PrivacyKind.named("contacts") == nil)
        #expect(PrivacyState.json([.geolocation: true, .camera: false]) == [
            "camera": "denied", "microphone": "ask", "location": "granted", "notifications": "ask",
            "photos": "ask", "clipboard": "ask", "motion": "ask"])
    }

    @Test("grant answers without a prompt, revoke denies without one, reset asks again; each is saved")
    func privacyAnswers() {
        var machine = M(attended: true)
        #expect(machine.reduce(.privacy(kinds: [.camera], answer: true)) == [.save([.camera: true])])
        #expect(machine.reduce(.asked(id: 1, kinds: [.camera])) == [.answer(id: 1, grant: true)])
        #expect(machine.reduce(.privacy(kinds: [.camera], answer: false)) == [.save([.camera: false])])
        #expect(machine.reduce(.asked(id: 2, kinds: [.camera])) == [.answer(id: 2, grant: false)])
        #expect(machine.reduce(.privacy(kinds: [.camera], answer: nil)) == [.save([:])])
        #expect(machine.reduce(.asked(id: 3, kinds: [.camera])) == [.prompt(.init(id: 3, kinds: [.camera]))])
        #expect(machine.queryState(.camera) == .prompt)
    }

    @Test("a privacy change settles the open prompt and the questions behind it, the app's own too")
    func privacySettlesWaiting() {
        var machine = M(attended: true)
        _ = machine.reduce(.asked(id: 1, kinds: [.geolocation]))
        _ = machine.reduce(.appAsked(id: 2, kinds: [.notifications]))
        _ = machine.reduce(.asked(id: 3, kinds: [.camera]))
        let effects = machine.reduce(.privacy(kinds: [.geolocation, .notifications], answer: true))
        #expect(effects == [.save([.geolocation: true, .notifications: true]), .closePrompt(id: 1),
                            .answer(id: 1, grant: true), .answer(id: 2, grant: true), .prompt(.init(id: 3, kinds: [.camera]))])
        #expect(machine.answered.map(\.how) == [.privacy, .privacy])
        // Unattended: nothing is prompted, the app's question waits until the privacy answer.
        var kiosk = M(attended: false)
        #expect(kiosk.reduce(.appAsked(id: 1, kinds: [.notifications])) == [])
        #expect(kiosk.reduce(.privacy(kinds: [.notifications], answer: false)) == [.save([.notifications: false]), .answer(id: 1, grant: false)])
        // A reset settles nothing.
        _ = kiosk.reduce(.appAsked(id: 2, kinds: [.notifications]))
        #expect(kiosk.reduce(.privacy(kinds: [.notifications], answer: nil)) == [.save([:])])
        #expect(kiosk.waiting.count == 1)
    }

    @Test("photos and motion are kept in the profile's file like the others")
    func fileKeepsNewKinds() {
        let text = PermissionMachine.file([.photos: true, .motion: false])
        #expect(PermissionMachine.parse(text) == [.photos: true, .motion: false])
    }

    @Test("content-size categories: iOS body sizes, 17 pt at large, text zoom as the ratio", arguments: [
        ("extra-small", 14), ("small", 15), ("medium", 16), ("large", 17), ("extra-large", 19), ("extra-extra-large", 21),
        ("extra-extra-extra-large", 23), ("accessibility-medium", 28), ("accessibility-large", 33),
        ("accessibility-extra-large", 40), ("accessibility-extra-extra-large", 47), ("accessibility-extra-extra-extra-large", 53),
    ])
    func contentSizes(name: String, points: Int) throws {
        let category = try #require(ContentSizeCategory(word: name))
        #expect(category.bodyPoints == points)
        #expect(category.textZoom == Double(points) / 17)
    }

    @Test("content-size words: simctl's names and UIKit's short ones")
    func contentSizeWords() {
        #expect(ContentSizeCategory(word: "AX5") == .accessibilityExtraExtraExtraLarge)
        #expect(ContentSizeCategory(word: "xl") == .extraLarge)
        #expect(ContentSizeCategory(word: "Large") == .large)
        #expect(ContentSizeCategory(word: "huge") == nil)
        #expect(ContentSizeCategory.standard.textZoom == 1)
    }

    @Test("coordinates: parsed in range, great-circle distance and bearing")
    func coordinates() throws {
        #expect(Coordinate(text: "48.8584, 2.2945") == Coordinate(latitude: 48.8584, longitude: 2.2945))
        #expect(Coordinate(text: "91,0") == nil)
        #expect(Coordinate(text: "0,181") == nil)
        #expect(Coordinate(text: "nan,0") == nil)
        #expect(Coordinate(text: "1,2,3") == nil)
        // One degree of latitude is ~111.2 km on the mean sphere; due north is bearing 0, east 90.
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(abs(origin.distance(to: Coordinate(latitude: 1, longitude: 0)) - 111_195) < 1)
        #expect(abs(origin.bearing(to: Coordinate(latitude: 1, longitude: 0))) < 1e-9)
        #expect(abs(origin.bearing(to: Coordinate(latitude: 0, longitude: 1)) - 90) < 1e-9)
        // Paris → New York: ~5837 km.
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522), newYork = Coordinate(latitude: 40.7128, longitude: -74.0060)
        #expect(abs(paris.distance(to: newYork) / 1000 - 5837) < 5)
        // The halfway point is equally far from both ends, on the great circle (north of both).
        let half = paris.interpolated(to: newYork, fraction: 0.5)
        #expect(abs(half.distance(to: paris) - half.distance(to: newYork)) < 1)
        #expect(half.latitude > 50)
    }

    @Test("a route: positions along its segments at its speed, then stays on its last point")
    func route() throws {
        let a = Coordinate(latitude: 0, longitude: 0), b = Coordinate(latitude: 0.001, longitude: 0), c = Coordinate(latitude: 0.001, longitude: 0.001)
        let route = try #require(LocationRoute(points: [a, b, c], speed: 10))
        let leg = a.distance(to: b)  // ~111.2 m
        #expect(abs(route.length - leg - b.distance(to: c)) < 1e-6)
        let start = route.fix(after: 0)
        #expect(start.coordinate == a && start.heading == 0 && !start.arrived)
        let mid = route.fix(after: leg / 20)  // half the first leg
        #expect(abs(mid.coordinate.latitude - 0.0005) < 1e-7 && abs(mid.travelled - leg / 2) < 1e-6)
        let second = route.fix(after: leg / 10 + 1)  // 10 m into the second leg, heading east
        #expect(abs(second.heading - 90) < 0.01 && abs(second.coordinate.distance(to: b) - 10) < 0.01)
        let end = route.fix(after: 1000)
        #expect(end.coordinate == c && end.arrived && end.travelled == route.length)
        #expect(LocationRoute(points: [a], speed: 1) == nil)
        #expect(LocationRoute(points: [a, b], speed: 0) == nil)
    }

    @Test("the location machine: set reports once, a route steps each second on its timer until it arrives, clear stops it")
    func locationMachine() throws {
        var machine = SimulatedLocation()
        let point = Coordinate(latitude: 1, longitude: 2)
        #expect(machine.reduce(.clear) == [], "nothing to clear")
        #expect(machine.reduce(.set(point, accuracy: 5)) == [.position(.init(coordinate: point, accuracy: 5))])
        let a = Coordinate(latitude: 0, longitude: 0), b = Coordinate(latitude: 0.0002, longitude: 0)  // ~22 m
        let route = try #require(LocationRoute(points: [a, b], speed: 10))
        let started = machine.reduce(.route(route, accuracy: 5))
        #expect(started == [.position(.init(coordinate: a, accuracy: 5, heading: 0, speed: 10)), .timer(.start(.step, after: 1))])
        #expect(machine.reduce(.timerFired(.step)).count == 2, "10 m on, and the next step")
        #expect(machine.reduce(.timerFired(.step)).count == 2, "20 m on, and the next step")
        let last = machine.reduce(.timerFired(.step))
        #expect(last == [.position(.init(coordinate: b, accuracy: 5, heading: 0, speed: 0))], "arrived: no more steps")
        #expect(machine.arrived && machine.json.objectValue?["route"]?.objectValue?["arrived"] == true)
        #expect(machine.reduce(.timerFired(.step)) == [], "a stale fire is ignored")
        _ = machine.reduce(.route(route, accuracy: 5))
        #expect(machine.reduce(.clear) == [.timer(.cancel(.step)), .unavailable])
        #expect(machine.json.objectValue?["mode"] == "none")
        #expect(machine.updates == 6)
    }

    @Test("ctl words become requests and requests decode; bad words say what to do")
    func words() throws {
        func line(_ words: String...) throws -> ControlCommand {
            let text = try ControlRequest.line(fromArguments: words, workingDirectory: "/home/me")
            return try ControlRequest.decode(text).get().command
        }
        #expect(try line("privacy", "grant", "camera", "location") == .simulator(.privacy(.grant, kinds: [.camera, .location])))
        #expect(try line("privacy", "reset", "all") == .simulator(.privacy(.reset, kinds: PrivacyKind.allCases)))
        #expect(try line("appearance", "dark") == .simulator(.appearance(.dark)))
        #expect(try line("contrast", "on") == .simulator(.contrast(true)))
        #expect(try line("text-size", "AX1") == .simulator(.textSize(.accessibilityMedium)))
        #expect(try line("location", "set", "-33.8568,151.2153", "--accuracy", "20")
                == .simulator(.location(.set(Coordinate(latitude: -33.8568, longitude: 151.2153), accuracy: 20))))
        #expect(try line("location", "clear") == .simulator(.location(.clear)))
        let route = try #require(LocationRoute(points: [Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 2, longitude: 2)], speed: 3))
        #expect(try line("location", "route", "--speed", "3", "1,1", "2,2") == .simulator(.location(.route(route, accuracy: 5))))
        #expect(try line("pasteboard", "get") == .simulator(.pasteboard(.get)))
        #expect(try line("pasteboard", "set", "hello") == .simulator(.pasteboard(.set(text: "hello"))))
        #expect(try line("pasteboard", "set", "--file", "notes.txt") == .simulator(.pasteboard(.setFile(path: "/home/me/notes.txt"))))

        func refusal(_ words: String...) -> String {
            do { _ = try ControlRequest.line(fromArguments: words); return "" } catch { return error.message }
        }
        #expect(refusal("privacy", "grant", "camra").contains("did you mean camera?"))
        #expect(refusal("privacy", "allow", "camera").contains("grant, revoke or reset"))
        #expect(refusal("appearance").contains("light, dark or auto"))
        #expect(refusal("location", "set", "100,0").contains("LAT,LON"))
        #expect(refusal("location", "route", "1,1", "2,2").contains("--speed"))
        #expect(refusal("location", "route", "--speed", "3", "1,1").contains("two or more"))
        #expect(refusal("pasteboard", "set", "a", "b").contains("quote it"))
        // A request made by hand is checked as well.
        #expect(throws: ControlFailure.self) { try ControlRequest.decode(#"{"command":"text-size","category":"huge"}"#).get() }
        #expect(throws: ControlFailure.self) { try ControlRequest.decode(#"{"command":"location","action":"set","point":[0]}"#).get() }
        #expect(throws: ControlFailure.self) { try ControlRequest.decode(#"{"command":"privacy","change":"grant","kinds":[]}"#).get() }
    }

    @Test("ctl --help lists every simulator control")
    func help() {
        let names = ControlRequest.coreCommands.map(\.name)
        for name in SimulatorCommand.names { #expect(names.contains(name)) }
        #expect(ControlCommand.names.contains("pasteboard"))
    }

    @Test("PushNotifications takes the privacy setting as the app's answer, keeps it, and answers waiting requests")
    func pushNotificationsPrivacy() {
        var plugin = PushNotificationsPlugin(CapacitorAppInfo(appId: "com.example.app", appName: "Example"))
        let effects = plugin.hostEvent(.custom(PushNotificationsPlugin.privacyEvent, ["notifications": "granted"]))
        #expect(effects == [.ask(action: "permission.store", arguments: ["receive": "granted"], call: nil)])
        #expect(plugin.permission == .granted)
        _ = plugin.hostEvent(.custom(PushNotificationsPlugin.privacyEvent, ["notifications": "prompt"]))
        #expect(plugin.permission == .prompt)
        #expect(plugin.hostEvent(.custom(PushNotificationsPlugin.privacyEvent, ["notifications": "maybe"])) == nil)
        #expect(PushNotificationsPlugin.permission(fileText: PushNotificationsPlugin.permissionFile(.denied)) == .denied)
    }
}
