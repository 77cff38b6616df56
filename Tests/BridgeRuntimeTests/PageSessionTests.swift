import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Page session: negotiation, native navigation, back bar")
struct PageSessionTests {
    static let catalogText = envelope("navigation/catalog", ["groups": [
        ["id": "home", "items": [["id": "overview", "title": "Overview", "icon": "home", "mobilePlacement": "primary"]]],
        ["id": "fleet", "title": "Fleet", "items": [
            ["id": "screens", "title": "Screens", "icon": "screens", "mobilePlacement": "primary"],
            ["id": "groups", "title": "Groups", "icon": "groups"]]],
        ["id": "content", "title": "Content", "items": [
            ["id": "media", "title": "Media", "icon": "media", "mobilePlacement": "primary"],
            ["id": "layouts", "title": "Layouts", "icon": "layouts", "mobilePlacement": "primary"],
            ["id": "playlists", "title": "Playlists", "icon": "playlists", "mobilePlacement": "primary"]]],
    ]])

    /// Feeds the page a message as the glue does: decode, then reduce.
    @discardableResult
    static func post(_ session: inout PageSession, _ text: String) -> [PageEffect] {
        switch StudioMessageDecoder.decode(text, context: session.context) {
        case .success(let inbound): return session.reduce(.received(inbound))
        case .failure(let failure): return session.reduce(.rejected(failure))
        }
    }

    static func negotiated(_ profile: DeviceProfile = .phone) -> PageSession {
        var session = PageSession(context: .main, profile: profile, available: [.nativeNavigation])
        _ = session.reduce(.documentCommitted)
        post(&session, envelope("config/get", id: "c1"))
        post(&session, envelope("frontend/ready", ["capabilities": ["deepLinks": true]]))
        return session
    }

    @Test("config/get is answered with the context and the capabilities offered to it")
    func handshake() throws {
        var session = PageSession(context: .main, profile: .phone, available: [.nativeNavigation, .systemShare, .deepLinks])
        let effects = Self.post(&session, envelope("config/get", id: "c1"))
        guard case .reply(let reply) = effects.first, case .success(let id, let payload) = reply else {
            Issue.record("no reply: \(effects)"); return
        }
        #expect(id == "c1")
        let reading = try ConfigReply.read(payload)
        #expect(reading.context == .main)
        #expect(reading.capabilities.enabled == [.nativeNavigation, .systemShare, .deepLinks])
        #expect(session.negotiated)

        var sheet = PageSession(context: .presentation, profile: .phone, available: [.nativeNavigation, .systemShare, .deepLinks])
        guard case .reply(.success(_, let p2)) = Self.post(&sheet, envelope("config/get")).first else { return }
        #expect(try ConfigReply.read(p2).capabilities.enabled == [.systemShare], "main-only capabilities withheld")
    }

    @Test("frontend/ready records Studio's capabilities; nothing is sent before it")
    func readyGatesSending() {
        var session = PageSession(context: .main, profile: .phone, available: [.nativeNavigation])
        Self.post(&session, envelope("config/get"))
        Self.post(&session, Self.catalogText)
        #expect(session.reduce(.tapDestination("screens")).isEmpty, "no frontend/ready yet")
        Self.post(&session, envelope("frontend/ready", ["capabilities": ["deepLinks": true, "nativeAlerts": "yes"]]))
        #expect(session.studioCapabilities.enabled == [.deepLinks])
        #expect(session.reduce(.tapDestination("screens")).first == .send(.navigationRequest(destinationId: "screens")))
    }

    @Test("phone: the first four primary destinations are tabs, the rest under More")
    func phoneTabs() {
        var session = Self.negotiated(.phone)
        let effects = Self.post(&session, Self.catalogText)
        guard case .chromeChanged(let chrome) = effects.last, case .tabs(let tabs, let more) = chrome.layout else {
            Issue.record("no tabs: \(effects)"); return
        }
        #expect(tabs.map(\.id) == ["overview", "screens", "media", "layouts"])
        #expect(more.map(\.id) == ["groups", "playlists"])
    }

    @Test("tablet and desktop: a sidebar grouped like the catalog, with group titles")
    func sidebar() {
        for profile in [DeviceProfile.tablet, .desktop] {
            var session = Self.negotiated(profile)
            Self.post(&session, Self.catalogText)
            guard case .sidebar(let groups) = session.nativeChrome.layout else { Issue.record("no sidebar"); continue }
            #expect(groups.map(\.title) == [nil, "Fleet", "Content"])
            #expect(groups.map { $0.items.count } == [1, 2, 3])
        }
    }

    @Test("a tap selects at once, sends navigation/request, and settles or rolls back on navigation/state")
    func optimisticSelection() {
        var session = Self.negotiated()
        Self.post(&session, Self.catalogText)
        Self.post(&session, envelope("navigation/state", ["activeDestinationId": "overview"]))
        let tap = session.reduce(.tapDestination("media"))
        #expect(tap.contains(.send(.navigationRequest(destinationId: "media"))))
        #expect(session.nativeChrome.selectedDestinationId == "media", "selected at once")
        // Studio kept the page (an unsaved-changes prompt): the selection rolls back.
        Self.post(&session, envelope("navigation/state", ["activeDestinationId": "overview"]))
        #expect(session.nativeChrome.selectedDestinationId == "overview")
        // A tap that Studio follows settles on the new destination.
        _ = session.reduce(.tapDestination("screens"))
        Self.post(&session, envelope("navigation/state", ["activeDestinationId": "screens", "path": "/screens"]))
        #expect(session.nativeChrome.selectedDestinationId == "screens")
        // A receiver that refuses rolls back immediately.
        _ = session.reduce(.tapDestination("media"))
        _ = session.reduce(.delivered(.navigationRequest(destinationId: "media"), accepted: false))
        #expect(session.nativeChrome.selectedDestinationId == "screens")
        // Unknown destinations are not requested.
        #expect(session.reduce(.tapDestination("nope")).isEmpty)
    }

    @Test("the back bar comes from navigation/chrome and sends navigation/back; top level has none")
    func backBar() {
        var session = Self.negotiated()
        Self.post(&session, Self.catalogText)
        #expect(session.nativeChrome.backBar == nil)
        #expect(session.reduce(.tapBack).isEmpty)
        Self.post(&session, envelope("navigation/chrome", ["title": "Lobby", "back": ["label": "Screens"]]))
        #expect(session.nativeChrome.backBar == BackBar(title: "Lobby", backLabel: "Screens"))
        #expect(session.reduce(.tapBack) == [.send(.navigationBack)])
        Self.post(&session, envelope("navigation/chrome", ["title": "Screens"]))
        #expect(session.nativeChrome.backBar == nil)
        // A malformed chrome is refused and changes nothing.
        Self.post(&session, envelope("navigation/chrome", ["title": "Lobby", "back": ["label": "S"]]))
        let effects = Self.post(&session, envelope("navigation/chrome", ["back": ["label": "X", "path": "/"]]))
        #expect(effects.first == .reply(.failure(id: nil, code: .malformed)))
        #expect(session.nativeChrome.backBar?.backLabel == "S")
    }

    @Test("withdrawing the catalog resets tabs, selection and back bar; a malformed catalog drops it too")
    func withdraw() {
        var session = Self.negotiated()
        Self.post(&session, Self.catalogText)
        Self.post(&session, envelope("navigation/chrome", ["title": "Lobby", "back": ["label": "Screens"]]))
        Self.post(&session, envelope("navigation/catalog", ["groups": []]))
        #expect(session.nativeChrome == NativeChrome())
        Self.post(&session, Self.catalogText)
        #expect(session.nativeChrome.layout != .none)
        #expect(session.nativeChrome.backBar == nil, "chrome was reset with the catalog")
        Self.post(&session, envelope("navigation/catalog", ["groups": [["id": "x", "items": []]]]))
        #expect(session.nativeChrome.layout == .none)
    }

    @Test("every document negotiates again; without config/get there is no native chrome (fallback)")
    func renegotiation() {
        var session = Self.negotiated()
        Self.post(&session, Self.catalogText)
        let effects = session.reduce(.documentCommitted)
        #expect(effects == [.chromeChanged(NativeChrome())])
        #expect(!session.negotiated && !session.frontendReady)
        // The new document sends a catalog without negotiating: the host still draws nothing.
        Self.post(&session, Self.catalogText)
        #expect(session.nativeChrome.layout == .none)
        Self.post(&session, envelope("config/get"))
        #expect(session.nativeChrome.layout != .none, "the catalog counts once the document negotiated")
    }

    @Test("capabilities the host does not offer yet are unavailable; withdrawals are ignored with ok")
    func notYetOffered() {
        var session = Self.negotiated()
        let share = Self.post(&session, envelope("system/share", ["text": "hi"], id: "s1"))
        #expect(share == [.reply(.failure(id: "s1", code: .unavailable))])
        #expect(Self.post(&session, envelope("alert/cancel", ["alertId": "a"])) == [.reply(.ok(nil))])
        guard case .reply(.success(_, let payload)) = Self.post(&session, envelope("system/media-intake-status")).first else { return }
        #expect(payload["available"] == .bool(false))
    }

    @Test("icon tokens map to symbolic icons with a generic fallback")
    func icons() {
        #expect(IconTokens.symbolicName(for: "home") == "go-home-symbolic")
        #expect(IconTokens.symbolicName(for: "door-calendar") == IconTokens.generic)
    }
}

@Suite("Loading: crash limit, navigation targets (the reveal rule: LoadingMachineTests)")
struct LoadingPolicyTests {
    @Test("a load that did not come: replaced, stopped by policy, cut off, or failed")
    func loadEnds() {
        func end(engine: Bool = false, network: Bool = false, policy: Bool = false, replaced: Bool = false) -> LoadEnd {
            LoadEnd.of(engineCancelled: engine, networkCancelled: network, policy: policy, replaced: replaced, reason: "why")
        }
        #expect(end(engine: true) == .replaced, "WebKit's own cancellation, whatever followed")
        #expect(end(network: true, replaced: true) == .replaced, "the network layer's, with a navigation since")
        #expect(end(network: true) == .cutOff("why"), "the network layer's with nothing after it: a failure")
        #expect(end(policy: true) == .policy)
        #expect(end(policy: true, replaced: true) == .policy)
        #expect(end() == .failed("why") && end(replaced: true) == .failed("why"), "a real failure stays one")
    }

    @Test("more than two web-process deaths within 30 s stop the reloads")
    func crashes() {
        var limiter = CrashLimiter()
        let first = limiter.recordDeath(at: 0), second = limiter.recordDeath(at: 10), third = limiter.recordDeath(at: 20)
        #expect(first && second)
        #expect(!third, "the third death within 30 s shows the error screen")
        var spaced = CrashLimiter()
        let answers = [0.0, 20, 40].map { spaced.recordDeath(at: $0) }
        #expect(answers == [true, true, true], "old deaths age out")
    }

    @Test("a person's links to other origins open in the browser; the server's own stay; odd schemes are refused")
    func targets() throws {
        let origin = try #require(Origin(url: "https://studio.example.org"))
        let context = NavigationPolicy.Context(serverOrigin: origin, handsOut: true)
        func clicked(_ url: String) -> NavigationPolicy.Action {
            var pageGuard = NavigationGuard(context)
            let action = pageGuard.decide(.init(stage: .action, url: url, userGesture: true, trigger: .linkClicked))
            guard action.action == .load else { return action.action }
            return pageGuard.decide(.init(stage: .response(mainFrame: true), url: url)).action
        }
        #expect(clicked("https://studio.example.org/screens") == .load)
        #expect(clicked("https://STUDIO.example.org:443/x") == .load)
        #expect(clicked("https://docs.example.org/") == .openExternally)
        #expect(clicked("http://studio.example.org/") == .openExternally)
        #expect(clicked("mailto:help@example.org") == .openExternally)
        #expect(clicked("file:///etc/passwd") == .refuse)
        #expect(clicked("javascript:alert(1)") == .refuse)
    }
}
