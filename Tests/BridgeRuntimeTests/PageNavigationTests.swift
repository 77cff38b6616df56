import HostCore
import StudioContract
import Testing

@Suite("Page navigation, alone: catalog, selection and roll-back, back bar, size class")
struct PageNavigationTests {
    static let catalog = NavigationCatalog(groups: [
        DestinationGroup(id: "home", items: [Destination(id: "overview", title: "Overview", icon: "home", placement: .primary)]),
        DestinationGroup(id: "fleet", title: "Fleet", items: [Destination(id: "screens", title: "Screens", icon: "screens", placement: .primary),
                                                             Destination(id: "groups", title: "Groups", icon: "groups")]),
    ])

    static func withCatalog(_ context: HostContext = .main, _ sizeClass: SizeClass = .compact) -> PageNavigation {
        var navigation = PageNavigation(context: context, sizeClass: sizeClass)
        #expect(navigation.reduce(.catalog(catalog, id: "c")) == [.reply(.ok("c"))])
        return navigation
    }

    @Test("the chrome is drawn only for a negotiated main page with a catalog")
    func chromeNeedsNegotiationAndMain() {
        let main = Self.withCatalog()
        #expect(main.nativeChrome(negotiated: false) == NativeChrome())
        guard case .tabs(let tabs, let more) = main.nativeChrome(negotiated: true).layout else { Issue.record("no tabs"); return }
        #expect(tabs.map(\.id) == ["overview", "screens"] && more.map(\.id) == ["groups"])
        #expect(Self.withCatalog(.presentation).nativeChrome(negotiated: true) == NativeChrome(), "a sheet page draws none")
        #expect(main.hasDestinations && !PageNavigation(context: .main, sizeClass: .compact).hasDestinations)
    }

    @Test("a tap selects at once when Studio is ready; a refusal rolls it back; navigation/state settles it")
    func optimisticSelection() {
        var navigation = Self.withCatalog()
        #expect(navigation.reduce(.tapDestination("screens", studioReady: false)).isEmpty, "Studio not ready")
        #expect(navigation.reduce(.tapDestination("nope", studioReady: true)).isEmpty, "not in the catalog")
        #expect(navigation.reduce(.tapDestination("screens", studioReady: true)) == [.send(.navigationRequest(destinationId: "screens"))])
        #expect(navigation.nativeChrome(negotiated: true).selectedDestinationId == "screens")
        _ = navigation.reduce(.requestRefused(destinationId: "groups"))
        #expect(navigation.pendingDestinationId == "screens", "another destination's refusal changes nothing")
        _ = navigation.reduce(.requestRefused(destinationId: "screens"))
        #expect(navigation.pendingDestinationId == nil)
        _ = navigation.reduce(.tapDestination("groups", studioReady: true))
        #expect(navigation.reduce(.state(NavigationState(activeDestinationId: "overview"), id: "s")) == [.reply(.ok("s"))])
        #expect(navigation.nativeChrome(negotiated: true).selectedDestinationId == "overview", "Studio's answer wins")
    }

    @Test("the back bar comes from navigation/chrome; a malformed catalog drops it all on main only; a new catalog keeps known ids")
    func backBarAndWithdrawal() {
        var navigation = Self.withCatalog()
        #expect(navigation.reduce(.tapBack(studioReady: true)).isEmpty, "top level: no back bar")
        _ = navigation.reduce(.chrome(NavigationChrome(title: "Lobby", backLabel: "Screens"), id: nil))
        #expect(navigation.nativeChrome(negotiated: true).backBar == BackBar(title: "Lobby", backLabel: "Screens"))
        #expect(navigation.reduce(.tapBack(studioReady: false)).isEmpty)
        #expect(navigation.reduce(.tapBack(studioReady: true)) == [.send(.navigationBack)])
        _ = navigation.reduce(.state(NavigationState(activeDestinationId: "groups"), id: nil))
        _ = navigation.reduce(.catalog(NavigationCatalog(groups: [Self.catalog.groups[0]]), id: nil))
        #expect(navigation.activeDestinationId == nil, "the active destination left the catalog")
        var sheet = Self.withCatalog(.presentation)
        _ = sheet.reduce(.catalogMalformed)
        #expect(sheet.catalog != nil)
        _ = navigation.reduce(.catalogMalformed)
        #expect(navigation.catalog == nil && navigation.chrome == nil)
    }

    @Test("a size-class change redraws tabs as a sidebar and keeps the selection and back bar")
    func sizeClass() {
        var navigation = Self.withCatalog()
        _ = navigation.reduce(.tapDestination("groups", studioReady: true))
        _ = navigation.reduce(.chrome(NavigationChrome(title: "Lobby", backLabel: "Screens"), id: nil))
        #expect(navigation.reduce(.sizeClassChanged(.regular)).isEmpty)
        let chrome = navigation.nativeChrome(negotiated: true)
        guard case .sidebar(let groups) = chrome.layout else { Issue.record("no sidebar"); return }
        #expect(groups.map(\.title) == [nil, "Fleet"])
        #expect(chrome.selectedDestinationId == "groups" && chrome.backBar?.backLabel == "Screens")
        _ = navigation.reduce(.documentGone)
        #expect(navigation.nativeChrome(negotiated: true) == NativeChrome() && navigation.sizeClass == .regular)
    }
}
