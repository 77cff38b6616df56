import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Adaptive layout: the window's width decides tabs or sidebar, and a change keeps what is open")
struct AdaptiveLayoutTests {
    @Test("widths: narrower than 600 px is compact, 600 px and wider regular", arguments: [
        (1, SizeClass.compact), (390, .compact), (599, .compact), (600, .regular), (700, .regular), (1024, .regular), (3840, .regular),
    ])
    func widths(width: Int, expected: SizeClass) {
        #expect(SizeClass.of(width: width) == expected)
    }

    @Test("each device starts in the class of its window: phone compact, tablet and desktop regular")
    func devices() {
        #expect(DeviceProfile.phone.sizeClass == .compact)
        #expect(DeviceProfile.tablet.sizeClass == .regular)
        #expect(DeviceProfile.desktop.sizeClass == .regular)
        #expect(SizeClass.compact.sheetStyle == .bottomSheet)
        #expect(SizeClass.regular.sheetStyle == .panel)
    }

    @Test("the machine relays out only when the class changes, and ignores a window not laid out")
    func machine() {
        var layout = AdaptiveLayout(starting: .desktop)
        #expect(layout.sizeClass == .regular)
        #expect(layout.reduce(width: 0).isEmpty)
        #expect(layout.width == nil)
        #expect(layout.reduce(width: 1280).isEmpty, "already regular")
        #expect(layout.reduce(width: 700).isEmpty)
        #expect(layout.reduce(width: 599) == [.relayout(.compact)])
        #expect(layout.reduce(width: 390).isEmpty)
        #expect(layout.width == 390)
        #expect(layout.reduce(width: 600) == [.relayout(.regular)])
        var phone = AdaptiveLayout(starting: .phone)
        #expect(phone.reduce(width: 1024) == [.relayout(.regular)])
    }

    @Test("a desktop window dragged narrow shows tabs and back: the selection and back bar are kept")
    func sessionKeepsSelection() {
        var session = PageSessionTests.negotiated(.desktop)
        PageSessionTests.post(&session, PageSessionTests.catalogText)
        PageSessionTests.post(&session, envelope("navigation/state", ["activeDestinationId": "screens", "path": "/screens"]))
        PageSessionTests.post(&session, envelope("navigation/chrome", ["title": "Lobby", "back": ["label": "Screens"]]))
        guard case .sidebar = session.nativeChrome.layout else { Issue.record("desktop starts with a sidebar"); return }

        let narrow = session.reduce(.sizeClassChanged(.compact))
        guard case .chromeChanged(let chrome) = narrow.last, case .tabs(let tabs, _) = chrome.layout else {
            Issue.record("no tabs after the change: \(narrow)"); return
        }
        #expect(narrow.count == 1, "only the chrome is drawn again: nothing is sent to Studio")
        #expect(tabs.map(\.id) == ["overview", "screens", "media", "layouts"])
        #expect(chrome.selectedDestinationId == "screens")
        #expect(chrome.backBar == BackBar(title: "Lobby", backLabel: "Screens"))
        #expect(session.profile == .desktop, "the reported device stays what --device said")
        #expect(session.sizeClass == .compact)

        // A tap while compact is still pending when the window widens again: it is kept too.
        _ = session.reduce(.tapDestination("media"))
        let wide = session.reduce(.sizeClassChanged(.regular))
        guard case .chromeChanged(let back) = wide.last, case .sidebar = back.layout else { Issue.record("no sidebar: \(wide)"); return }
        #expect(back.selectedDestinationId == "media")
        #expect(session.reduce(.sizeClassChanged(.regular)).isEmpty, "the same class again changes nothing")
    }

    @Test("without a catalog there is no native navigation in either class")
    func noCatalog() {
        var session = PageSessionTests.negotiated(.phone)
        #expect(session.reduce(.sizeClassChanged(.regular)).isEmpty)
        #expect(session.nativeChrome.layout == .none)
    }
}
