import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Page session: action menus")
struct ActionMenuSessionTests {
    static func session() -> PageSession {
        var session = PageSession(context: .main, profile: .desktop, available: [.nativeActionMenus])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativeActionMenus": true]]))
        return session
    }

    static func menu(_ id: String, extra: JSONObject = [:]) -> JSONValue {
        var object: JSONObject = ["menuId": .string(id), "label": "Row actions", "groups": [
            ["items": [["id": "rename", "label": "Rename"], ["id": "locked", "label": "Locked", "disabled": true]]],
            ["items": [["id": "delete", "label": "Delete", "role": "destructive"]]]]]
        for member in extra.members { object[member.key] = member.value }
        return .object(object)
    }

    @Test("the newest arm replaces the armed menu; a choice clears it; dismissal reports once per shown menu")
    func armAndChoose() {
        var session = Self.session()
        #expect(PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1"))).contains(.menusChanged))
        PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m2")))
        #expect(session.armedMenu?.menuId == "m2")
        #expect(session.reduce(.menuOpenRequested(menuId: "m1", source: .armed)).isEmpty, "m1 was replaced: stale")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "delete")).isEmpty, "not open: a choice is never reported")
        #expect(session.reduce(.menuOpenRequested(menuId: "m2", source: .armed)).contains { if case .showMenu(let m) = $0 { m.menuId == "m2" } else { false } })
        #expect(session.reduce(.menuChosen(menuId: "m1", actionId: "rename")).isEmpty, "not the open menu")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "locked")).isEmpty, "disabled")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "nope")).isEmpty, "not an item")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "delete"))
            == [.hideMenu, .menusChanged, .send(.actionMenuAction(menuId: "m2", actionId: "delete"))])
        #expect(session.openMenu == nil && session.armedMenu == nil, "choosing clears the shown and the armed menu")
        #expect(session.reduce(.menuOpenRequested(menuId: "m2", source: .armed)).isEmpty, "the same menu does not open again")
        #expect(session.reduce(.menuDismissed(menuId: "m2")).isEmpty, "chosen: not also dismissed")
        PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m2")))
        _ = session.reduce(.menuOpenRequested(menuId: "m2", source: .armed))
        #expect(session.reduce(.menuDismissed(menuId: "m2")) == [.hideMenu, .menusChanged, .send(.actionMenuDismissed(menuId: "m2"))])
        #expect(session.reduce(.menuDismissed(menuId: "m2")).isEmpty, "once per shown menu")
        PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m2")))
        _ = session.reduce(.menuOpenRequested(menuId: "m2", source: .armed))
        let disarmed = PageSessionTests.post(&session, envelope("action-menu/disarm", ["menuId": "m2"]))
        #expect(!disarmed.contains(.hideMenu), "a disarm after the long press leaves the shown menu alone (§6)")
        #expect(session.armedMenu == nil && session.openMenu?.menuId == "m2")
    }

    @Test("arm and register-trigger are unavailable before frontend/ready said nativeActionMenus (§6)")
    func gatedOnStudio() {
        var session = PageSession(context: .main, profile: .desktop, available: [.nativeActionMenus])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        let rect: JSONValue = ["x": 0.1, "y": 0.2, "width": 0.3, "height": 0.1]
        #expect(PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1"), id: "a")) == [.reply(.failure(id: "a", code: .unavailable))])
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativeAlerts": true]]))
        #expect(PageSessionTests.post(&session, envelope("action-menu/register-trigger", Self.menu("t", extra: ["rect": rect]), id: "r"))
            == [.reply(.failure(id: "r", code: .unavailable))])
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativeActionMenus": true]]))
        #expect(PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1"), id: "a")).first == .reply(.ok("a")))
    }

    @Test("config/get offers nativeActionMenuAnchors on both pages, and nativeActionMenus on the sheet page too (§6)")
    func anchorsOffered() {
        let available: Set<HostCapability> = [.nativeActionMenus, .nativeActionMenuAnchors, .deepLinks]
        for context in [HostContext.main, .presentation] {
            let json = ConfigReply(context: context, capabilities: .offered(to: context, available: available)).payload
            let capabilities = json["capabilities"]?.objectValue
            #expect(capabilities?["nativeActionMenuAnchors"] == .bool(true), "\(context)")
            #expect(capabilities?["nativeActionMenus"] == .bool(true), "\(context)")
        }
        // Not offered, it is left out: the reply is what a host of §1–§5 sends, byte for byte.
        let old = ConfigReply(context: .main, capabilities: HostCapabilities([.nativeActionMenus])).payload
        #expect(old["capabilities"]?.objectValue?["nativeActionMenuAnchors"] == nil)
    }

    @Test("an alert, a share panel, a QR scan or a sheet coming up closes the open menu, reported dismissed, before it shows")
    func newSurfaceClosesTheMenu() {
        var session = PageSession(context: .main, profile: .desktop,
                                  available: [.nativeActionMenus, .nativeAlerts, .systemShare, .systemQrScanner, .nativePresentations])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativeActionMenus": true, "nativeAlerts": true, "nativePresentations": true]]))
        _ = session.reduce(.presentationAvailable(true))
        PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1")))
        let surfaces: [(String, JSONValue)] = [
            ("alert/present", ["alertId": "a1", "title": "Sure?", "actions": [["id": "ok", "label": "OK"]]]),
            ("system/share", ["url": "https://example.org/page"]),
            ("system/scan-qr", ["requestId": "scan-1"]),
            ("presentation/open", ["presentationId": "p1", "path": "/__native/modal/x", "title": "Sheet"]),
        ]
        for (type, payload) in surfaces {
            PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1")))
            _ = session.reduce(.menuOpenRequested(menuId: "m1", source: .armed))
            #expect(session.openMenu?.menuId == "m1")
            let effects = PageSessionTests.post(&session, envelope(type, payload))
            #expect(Array(effects.prefix(3)).contains(.hideMenu), "\(type): \(effects)")
            #expect(effects.contains(.send(.actionMenuDismissed(menuId: "m1"))), "\(type): \(effects)")
            #expect(session.openMenu == nil, "\(type)")
        }
        // The other page's surface arrives as an event.
        PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1")))
        _ = session.reduce(.menuOpenRequested(menuId: "m1", source: .armed))
        #expect(session.reduce(.surfaceShown) == [.hideMenu, .menusChanged, .send(.actionMenuDismissed(menuId: "m1"))])
        #expect(session.reduce(.surfaceShown).isEmpty, "nothing open: nothing to close")
    }

    @Test("triggers register and unregister by menu id; a new document clears them; the legacy present is unavailable")
    func triggers() {
        var session = Self.session()
        let rect: JSONValue = ["x": 0.1, "y": 0.2, "width": 0.3, "height": 0.1]
        PageSessionTests.post(&session, envelope("action-menu/register-trigger", Self.menu("row-1", extra: ["rect": rect])))
        PageSessionTests.post(&session, envelope("action-menu/register-trigger", Self.menu("row-2", extra: ["rect": rect])))
        #expect(Set(session.triggers.keys) == ["row-1", "row-2"])
        _ = session.reduce(.menuOpenRequested(menuId: "row-2", source: .trigger))
        let other = session.reduce(.menuOpenRequested(menuId: "row-1", source: .trigger))
        #expect(other.first == .hideMenu && !other.contains(.send(.actionMenuDismissed(menuId: "row-2"))), "opening another closes the first; a trigger never reports dismissed")
        PageSessionTests.post(&session, envelope("action-menu/unregister-trigger", ["menuId": "row-1"]))
        #expect(session.openMenu == nil)
        #expect(session.reduce(.menuChosen(menuId: "row-1", actionId: "rename")).isEmpty)
        #expect(session.reduce(.documentCommitted).contains(.menusChanged))
        #expect(session.triggers.isEmpty)
        var fresh = Self.session()
        #expect(PageSessionTests.post(&fresh, envelope("action-menu/present", Self.menu("m"), id: "p"))
            == [.reply(.failure(id: "p", code: .unavailable))])
    }
}

@Suite("Page session: presentations")
struct PresentationSessionTests {
    static func main(ready: Bool = true) -> PageSession {
        var session = PageSession(context: .main, profile: .phone, available: [.nativePresentations])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativePresentations": true]]))
        _ = session.reduce(.presentationAvailable(ready))
        return session
    }

    static let open = envelope("presentation/open", ["presentationId": "p1", "path": "/__native/modal/a", "title": "A", "size": "compact"], id: "o1")

    @Test("open needs a ready sheet page and no sheet showing; ending it tells main once")
    func mainSide() {
        var unready = Self.main(ready: false)
        #expect(PageSessionTests.post(&unready, Self.open) == [.reply(.failure(id: "o1", code: .unavailable))])
        var session = Self.main()
        let opened = PageSessionTests.post(&session, Self.open)
        #expect(opened.first == .reply(.ok("o1")))
        #expect(opened.contains { if case .openPresentation(let r) = $0 { r.presentationId == "p1" && r.size == .compact } else { false } })
        #expect(PageSessionTests.post(&session, Self.open).first == .reply(.failure(id: "o1", code: .unavailable)), "one at a time")
        #expect(session.reduce(.presentationEnded(presentationId: "p1")) == [.send(.presentationEnded(presentationId: "p1"))])
        #expect(session.reduce(.presentationEnded(presentationId: "p1")).isEmpty, "a late second end")
    }

    @Test("the sheet page: ready, updates and closes for the shown id only; dismissed once")
    func sheetSide() {
        var sheet = PageSession(context: .presentation, profile: .phone, available: [.nativePresentations])
        _ = sheet.reduce(.documentCommitted)
        PageSessionTests.post(&sheet, envelope("config/get"))
        PageSessionTests.post(&sheet, envelope("frontend/ready"))
        #expect(PageSessionTests.post(&sheet, envelope("presentation/ready")).contains(.presentationReady))
        #expect(sheet.reduce(.showPresentation(presentationId: "p1", path: "/__native/modal/a"))
            == [.send(.presentationShow(presentationId: "p1", path: "/__native/modal/a"))])
        let stale = PageSessionTests.post(&sheet, envelope("presentation/update", ["presentationId": "p0", "header": ["title": "Old"]]))
        #expect(!stale.contains { if case .presentationUpdated = $0 { true } else { false } }, "a stale update is ignored")
        let fresh = PageSessionTests.post(&sheet, envelope("presentation/update", ["presentationId": "p1", "header": ["title": "New"]]))
        #expect(fresh.contains { if case .presentationUpdated(let u) = $0 { u.header?.title == "New" } else { false } })
        #expect(PageSessionTests.post(&sheet, envelope("presentation/navigate", ["presentationId": "p1", "path": "/screens"]))
            .contains(.navigateFromPresentation(presentationId: "p1", path: "/screens")))
        #expect(sheet.reduce(.dismissPresentation(presentationId: "p1")) == [.send(.presentationDismissed(presentationId: "p1"))])
        #expect(sheet.reduce(.dismissPresentation(presentationId: "p1")).isEmpty, "a late dismissal with an old id")
        #expect(!PageSessionTests.post(&sheet, envelope("presentation/close", ["presentationId": "p1"]))
            .contains(.closePresentation(presentationId: "p1")), "nothing shown any more")
    }
}
