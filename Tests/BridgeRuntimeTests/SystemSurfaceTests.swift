@testable import CapacitorContract
@testable import HostCore
@testable import Push
import Testing

/// Issue 28 items 1–4, the pure rules: system surfaces over a Capacitor app, a notification
/// opened in the background, answers given ahead to an app's own question, collapse ids.
@Suite("AppLifecycle and friends: system surfaces, notifications opened, answers ahead, collapse ids")
struct SystemSurfaceTests {
    static let response = PluginHostEvent.custom("push.activate", ["id": "n1"])

    /// Runs `events` through the machine and its `.post`s through an App plugin; what the page
    /// would get, in order (`response` for the notification's event), and `focus` for `.returnFocus`.
    static func run(_ machine: inout AppLifecycle, _ app: inout AppPlugin, _ events: [AppLifecycle.Event]) -> [String] {
        var seen: [String] = []
        for event in events {
            for effect in machine.reduce(event) {
                switch effect {
                case .returnFocus: seen.append("focus")
                case .post(Self.response): seen.append("response")
                case .post(let hostEvent):
                    for case .emit(let name, let data) in app.hostEvent(hostEvent) ?? [] {
                        seen.append(name == "appStateChange" ? "appStateChange:\(data["isActive"] == true)" : name)
                    }
                }
            }
        }
        return seen
    }

    static func fresh() -> (AppLifecycle, AppPlugin) { (AppLifecycle(), AppPlugin(CapacitorAppInfo(appId: "t", appName: "T"))) }

    @Test("iOS's transitions between its three states, in its order", arguments: [
        (AppState.active, AppState.inactive, [AppState.Transition.willResignActive]),
        (.active, .background, [.willResignActive, .didEnterBackground]),
        (.inactive, .active, [.didBecomeActive]),
        (.inactive, .background, [.didEnterBackground]),
        (.background, .inactive, [.willEnterForeground]),
        (.background, .active, [.willEnterForeground, .didBecomeActive]),
        (.active, .active, []),
    ])
    func transitions(from: AppState, to: AppState, expected: [AppState.Transition]) {
        #expect(from.transitions(to: to) == expected)
    }

    @Test("a surface resigns active; the last one closed makes the app active again and gives back the focus")
    func surfaces() {
        var (machine, app) = Self.fresh()
        #expect(Self.run(&machine, &app, [.surfaceShown("permission-1")]) == ["appStateChange:false"])
        #expect(app.appState == .inactive && machine.surfaces == ["permission-1"])
        #expect(Self.run(&machine, &app, [.surfaceShown("share"), .surfaceShown("share")]).isEmpty, "already inactive; one id once")
        #expect(Self.run(&machine, &app, [.surfaceClosed("permission-1")]).isEmpty, "the share sheet is still up")
        #expect(Self.run(&machine, &app, [.surfaceClosed("share")]) == ["appStateChange:true", "focus"])
        #expect(Self.run(&machine, &app, [.surfaceClosed("share")]).isEmpty, "closed once")
        // The window lost the focus to the dialog meanwhile: the system gives it back all the same.
        #expect(Self.run(&machine, &app, [.surfaceShown("p2"), .window(.blur), .surfaceClosed("p2")]) == ["appStateChange:false", "appStateChange:true", "focus"])
        #expect(app.appState == .active && machine.focused && machine.focusReturns == 2)
    }

    @Test("backgrounded while a surface is up: closing it leaves the app in the background; shown again, it is active")
    func backgroundedMeanwhile() {
        var (machine, app) = Self.fresh()
        #expect(Self.run(&machine, &app, [.surfaceShown("p"), .control(.background), .surfaceClosed("p")]) == ["appStateChange:false", "pause"])
        #expect(app.appState == .background)
        #expect(Self.run(&machine, &app, [.control(.foreground)]) == ["resume", "appStateChange:true"])
    }

    @Test("ctl lifecycle takes over from the window; surfaces count either way; a replay stops the window too")
    func sources() {
        var (machine, app) = Self.fresh()
        #expect(Self.run(&machine, &app, [.window(.blur)]) == ["appStateChange:false"])
        #expect(Self.run(&machine, &app, [.control(.focus), .window(.blur), .window(.background)]) == ["appStateChange:true"])
        #expect(machine.source == .control)
        #expect(Self.run(&machine, &app, [.surfaceShown("p")]) == ["appStateChange:false"])
        var replay = AppLifecycle()
        _ = replay.reduce(.drivenBy(.replay))
        #expect(replay.reduce(.window(.background)).isEmpty && replay.state == .active)
    }

    @Test("a notification opened in the background: resume (willEnterForeground), the response, appStateChange true (didBecomeActive)")
    func notificationOpened() {
        var (machine, app) = Self.fresh()
        _ = Self.run(&machine, &app, [.control(.background)])
        #expect(Self.run(&machine, &app, [.notificationOpened(response: Self.response)]) == ["resume", "response", "appStateChange:true", "focus"])
        // In front already: only the response (and the window raised).
        #expect(Self.run(&machine, &app, [.notificationOpened(response: Self.response)]) == ["response", "focus"])
        // Inactive (the focus elsewhere): the response, then active.
        #expect(Self.run(&machine, &app, [.control(.blur), .notificationOpened(response: Self.response)])
                == ["appStateChange:false", "response", "appStateChange:true", "focus"])
        // A surface still up: brought to the front but not active until it closes.
        _ = Self.run(&machine, &app, [.surfaceShown("p"), .control(.background)])
        #expect(Self.run(&machine, &app, [.notificationOpened(response: Self.response)]) == ["resume", "response", "focus"])
        #expect(Self.run(&machine, &app, [.surfaceClosed("p")]) == ["appStateChange:true", "focus"])
    }

    @Test("the push plugin follows the app state: a push while inactive is still in the foreground")
    func pushPluginFollows() {
        var plugin = PushNotificationsPlugin(CapacitorAppInfo(appId: "t", appName: "T"))
        _ = plugin.hostEvent(.appState(.inactive))
        #expect(plugin.inForeground && !plugin.isActive)
        _ = plugin.hostEvent(.appState(.background))
        #expect(!plugin.inForeground)
    }

    // MARK: item 2

    @Test("an app's own question: an answer given ahead settles it at once, not remembered for the profile")
    func appQuestionAnsweredAhead() {
        var machine = PermissionMachine(attended: true, remembered: [.notifications: false])
        #expect(machine.reduce(.controlAnswered(grant: true)).isEmpty && machine.controlAnswers == [true])
        #expect(machine.reduce(.appAsked(id: 1, kinds: [.notifications])) == [.answer(id: 1, grant: true)], "no prompt, no save")
        #expect(machine.remembered == [.notifications: false] && machine.answered.last?.how == .control)
        // Not answered from the profile's memory either: the app keeps its own answer.
        let question = PermissionMachine.Question(id: 2, kinds: [.notifications], byApp: true)
        #expect(machine.reduce(.appAsked(id: 2, kinds: [.notifications])) == [.prompt(question)])
        #expect(StatePredicate.value(at: "pending.asker", in: machine.json) == "app")
        #expect(machine.reduce(.personAnswered(id: 2, grant: true)) == [.answer(id: 2, grant: true)])
        #expect(machine.json.objectValue?["pending"] == .null)
    }

    @Test("unattended, an app's question waits for ctl permission (no prompt); a page's is denied at once")
    func appQuestionUnattended() {
        var machine = PermissionMachine(attended: false)
        #expect(machine.reduce(.appAsked(id: 1, kinds: [.notifications])).isEmpty)
        #expect(machine.open?.id == 1 && machine.prompted == nil)
        #expect(machine.reduce(.asked(id: 2, kinds: [.camera])) == [.answer(id: 2, grant: false)])
        #expect(machine.reduce(.controlAnswered(grant: false)) == [.answer(id: 1, grant: false)], "no prompt to close, nothing saved")
        #expect(machine.remembered.isEmpty)
    }

    // MARK: item 4

    @Test("the shelf: a collapse id replaces the one shown with it; none, nothing replaced")
    func shelfCollapse() {
        var shelf = NotificationShelf()
        func item(_ id: String, _ collapse: String?) -> NotificationShelf.Item {
            NotificationShelf.Item(id: id, title: id, body: "", payload: [:], onDesktop: false, collapseID: collapse)
        }
        #expect(shelf.show(item("a", "door")).isEmpty)
        #expect(shelf.show(item("b", nil)).isEmpty)
        #expect(shelf.show(item("c", nil)).isEmpty, "no collapse id: nothing replaced")
        #expect(shelf.show(item("d", "door")) == ["a"])
        #expect(shelf.items.map(\.id) == ["b", "c", "d"])
        #expect(shelf.history.map(\.outcome) == ["replaced"])
    }

    @Test("PushNotifications: the delivered list holds the newer of two pushes with one collapse id")
    func pushCollapse() {
        var machine = PushNotifications(record: nil, bundleId: "t", environment: .sandbox)
        _ = machine.reduce(.deliver(id: "n1", payload: ["aps": ["alert": "one"]], foreground: false, collapseID: "door"))
        _ = machine.reduce(.deliver(id: "n2", payload: ["aps": ["alert": "two"]], foreground: false))
        let effects = machine.reduce(.deliver(id: "n3", payload: ["aps": ["alert": "three"]], foreground: false, collapseID: "door"))
        #expect(machine.delivered.map(\.id) == ["n2", "n3"])
        #expect(effects == [.show(PushNotifications.Notification(id: "n3", payload: ["aps": ["alert": "three"]], collapseID: "door"))])
    }

    @Test("Hermes' device: a push with the collapse id of a shown one replaces it")
    func hermesCollapse() {
        var client = HermesClient(server: "http://127.0.0.1:9")
        let push = HermesClientTests.push("s1")
        _ = client.receive(push, collapseID: "s1")
        _ = client.receive(HermesClientTests.push("s2"), collapseID: "s2")
        guard case .shown(let newer) = client.receive(push, collapseID: "s1") else { Issue.record("not shown"); return }
        #expect(client.notifications.map(\.sessionID) == ["s2", "s1"] && client.notifications.last == newer)
        _ = client.receive(push)
        #expect(client.notifications.count == 3, "no collapse id: kept beside")
    }
}
