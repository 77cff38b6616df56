import BridgeRuntime
import Testing

@Suite("Desktop conventions: app actions, remembered window size, error screens")
struct DesktopRulesTests {
    @Test("every action has a title and a section; no key is bound twice; the menu and shortcuts come from the table")
    func actionsTable() {
        let keys = AppAction.allCases.flatMap(\.accelerators)
        #expect(Set(keys).count == keys.count, "a key bound twice: \(keys)")
        for required in ["<Control>q", "<Control>w", "<Control>r", "F5", "<Control>n", "<Control>question"] {
            #expect(keys.contains(required), "\(required)")
        }
        #expect(AppAction.primaryMenu.flatMap { $0 } == [.newWindow, .shortcuts, .about])
        let listed = AppAction.shortcutSections.flatMap(\.actions)
        #expect(Set(listed) == Set(AppAction.allCases.filter { !$0.accelerators.isEmpty }))
        #expect(AppAction.shortcutSections.map(\.title) == ["General", "Navigation"])
        #expect(AppAction.available(kiosk: true).isEmpty && AppAction.available(kiosk: false) == AppAction.allCases)
        #expect(AppAction(rawValue: "close-window") == .closeWindow && AppAction.names.contains("about"))
    }

    @Test("a remembered size is used unless a device was asked for; a damaged or absurd file is ignored")
    func rememberedSize() {
        let saved = RememberedWindowSize(width: 900, height: 700, maximized: true)
        #expect(RememberedWindowSize.parse(saved.fileText) == saved)
        #expect(RememberedWindowSize.starting(remembered: saved, device: .desktop, deviceAsked: false) == saved)
        #expect(RememberedWindowSize.starting(remembered: saved, device: .phone, deviceAsked: true) == RememberedWindowSize(width: 390, height: 844))
        #expect(RememberedWindowSize.starting(remembered: nil, device: .desktop, deviceAsked: false) == RememberedWindowSize(width: 1280, height: 800))
        for bad in ["", "{", "[]", #"{"width":0,"height":700}"#, #"{"width":900,"height":99999}"#, #"{"width":"900","height":700}"#, #"{"width":900.5,"height":700}"#] {
            #expect(RememberedWindowSize.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("over an error screen the chrome selects nothing and has no back bar; over the page it is as the page said")
    func errorScreenSelection() {
        let chrome = NativeChrome(layout: .none, selectedDestinationId: "media", backBar: BackBar(title: "Lobby", backLabel: "Screens"))
        let error = Screen.error(ScreenError(.unreachable, title: "t", detail: "d", icon: "network-offline-symbolic"))
        #expect(chrome.shown(over: error).selectedDestinationId == nil && chrome.shown(over: error).backBar == nil)
        #expect(chrome.shown(over: .page) == chrome && chrome.shown(over: .loading("…")) == chrome)
    }

    @Test("ctl action NAME: a request with the action's name")
    func actionRequest() throws {
        let line = try ControlRequest.line(fromArguments: ["action", "about"])
        #expect(try ControlRequest.decode(line).get().command == .action(name: "about"))
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["action"]) }
    }
}
