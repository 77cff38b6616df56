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

    @Test("the newest arm replaces the armed menu; a stale choice is dropped; dismissal reports once per open menu")
    func armAndChoose() {
        var session = Self.session()
        #expect(PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m1"))).contains(.menusChanged))
        PageSessionTests.post(&session, envelope("action-menu/arm", Self.menu("m2")))
        #expect(session.armedMenu?.menuId == "m2")
        #expect(session.reduce(.menuOpenRequested(menuId: "m1")).isEmpty, "m1 was replaced: stale")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "delete")).isEmpty, "not open: a choice is never reported")
        #expect(session.reduce(.menuOpenRequested(menuId: "m2")).contains { if case .showMenu(let m) = $0 { m.menuId == "m2" } else { false } })
        #expect(session.reduce(.menuChosen(menuId: "m1", actionId: "rename")).isEmpty, "not the open menu")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "locked")).isEmpty, "disabled")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "nope")).isEmpty, "not an item")
        #expect(session.reduce(.menuChosen(menuId: "m2", actionId: "delete")) == [.hideMenu, .send(.actionMenuAction(menuId: "m2", actionId: "delete"))])
        #expect(session.openMenu == nil)
        #expect(session.reduce(.menuDismissed(menuId: "m2")).isEmpty, "chosen: not also dismissed")
        _ = session.reduce(.menuOpenRequested(menuId: "m2"))
        #expect(session.reduce(.menuDismissed(menuId: "m2")) == [.hideMenu, .send(.actionMenuDismissed(menuId: "m2"))])
        #expect(session.reduce(.menuDismissed(menuId: "m2")).isEmpty, "once per open menu")
        _ = session.reduce(.menuOpenRequested(menuId: "m2"))
        let disarmed = PageSessionTests.post(&session, envelope("action-menu/disarm", ["menuId": "m2"]))
        #expect(disarmed.contains(.hideMenu), "a withdrawn menu closes")
        #expect(!disarmed.contains(.send(.actionMenuDismissed(menuId: "m2"))), "… without a report")
        #expect(session.armedMenu == nil && session.openMenu == nil)
        #expect(session.reduce(.menuDismissed(menuId: "m2")).isEmpty)
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
            _ = session.reduce(.menuOpenRequested(menuId: "m1"))
            #expect(session.openMenu?.menuId == "m1")
            let effects = PageSessionTests.post(&session, envelope(type, payload))
            #expect(Array(effects.prefix(3)).contains(.hideMenu), "\(type): \(effects)")
            #expect(effects.contains(.send(.actionMenuDismissed(menuId: "m1"))), "\(type): \(effects)")
            #expect(session.openMenu == nil, "\(type)")
        }
        // The other page's surface arrives as an event.
        _ = session.reduce(.menuOpenRequested(menuId: "m1"))
        #expect(session.reduce(.surfaceShown) == [.hideMenu, .send(.actionMenuDismissed(menuId: "m1"))])
        #expect(session.reduce(.surfaceShown).isEmpty, "nothing open: nothing to close")
    }

    @Test("triggers register and unregister by menu id; a new document clears them; the legacy present is unavailable")
    func triggers() {
        var session = Self.session()
        let rect: JSONValue = ["x": 0.1, "y": 0.2, "width": 0.3, "height": 0.1]
        PageSessionTests.post(&session, envelope("action-menu/register-trigger", Self.menu("row-1", extra: ["rect": rect])))
        PageSessionTests.post(&session, envelope("action-menu/register-trigger", Self.menu("row-2", extra: ["rect": rect])))
        #expect(Set(session.triggers.keys) == ["row-1", "row-2"])
        _ = session.reduce(.menuOpenRequested(menuId: "row-2"))
        let other = session.reduce(.menuOpenRequested(menuId: "row-1"))
        #expect(other.first == .hideMenu && other.contains(.send(.actionMenuDismissed(menuId: "row-2"))), "opening another dismisses the first")
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
