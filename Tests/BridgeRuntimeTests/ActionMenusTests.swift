import HostCore
import StudioContract
import Testing

@Suite("Action menus, alone: armed, triggers, the open menu")
struct ActionMenusTests {
    static func menu(_ id: String) -> ActionMenu {
        guard case .actionMenuArm(let menu)? = decoded(envelope("action-menu/arm", ActionMenuSessionTests.menu(id))) else {
            preconditionFailure("the test menu does not decode")
        }
        return menu
    }

    static func trigger(_ id: String) -> ActionMenuTrigger {
        let rect: JSONValue = ["x": 0.1, "y": 0.2, "width": 0.3, "height": 0.1]
        let text = envelope("action-menu/register-trigger", ActionMenuSessionTests.menu(id, extra: ["rect": rect]))
        guard case .actionMenuRegisterTrigger(let trigger)? = decoded(text) else { preconditionFailure("the test trigger does not decode") }
        return trigger
    }

    static func armed(_ id: String = "m1") -> ActionMenus {
        var menus = ActionMenus(offered: true)
        #expect(menus.reduce(.arm(Self.menu(id), id: "a")) == [.reply(.ok("a")), .menusChanged])
        return menus
    }

    @Test("without the capability arming and triggers are unavailable; the legacy present always is")
    func notOffered() {
        var menus = ActionMenus(offered: false)
        #expect(menus.reduce(.arm(Self.menu("m1"), id: "a")) == [.reply(.failure(id: "a", code: .unavailable))])
        #expect(menus.reduce(.registerTrigger(Self.trigger("t1"), id: "t")) == [.reply(.failure(id: "t", code: .unavailable))])
        var offered = Self.armed()
        #expect(offered.reduce(.legacyPresent(id: "p")) == [.reply(.failure(id: "p", code: .unavailable))])
    }

    @Test("opening another menu dismisses the first, reported only while Studio is ready; a menu not shown is not open")
    func oneOpen() {
        var menus = Self.armed()
        _ = menus.reduce(.registerTrigger(Self.trigger("t1"), id: nil))
        #expect(menus.reduce(.openRequested(menuId: "gone", studioReady: true)).isEmpty)
        #expect(menus.reduce(.openRequested(menuId: "m1", studioReady: true)) == [.showMenu(Self.menu("m1"))])
        #expect(menus.reduce(.openRequested(menuId: "t1", studioReady: true))
            == [.hideMenu, .send(.actionMenuDismissed(menuId: "m1")), .showMenu(Self.trigger("t1").menu)])
        #expect(menus.reduce(.surfaceShown(studioReady: false)) == [.hideMenu], "Studio not ready: closed unreported")
        _ = menus.reduce(.openRequested(menuId: "m1", studioReady: true))
        _ = menus.reduce(.notShown(menuId: "m1"))
        #expect(menus.openMenu == nil)
        #expect(menus.reduce(.dismissed(menuId: "m1", studioReady: true)).isEmpty, "it never opened")
    }

    @Test("a choice counts for an enabled item of the open menu; Studio hears it only when ready")
    func choices() {
        var menus = Self.armed()
        _ = menus.reduce(.openRequested(menuId: "m1", studioReady: true))
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "locked", studioReady: true)).isEmpty, "disabled")
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "delete", studioReady: false)) == [.hideMenu])
        _ = menus.reduce(.openRequested(menuId: "m1", studioReady: true))
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "rename", studioReady: true))
            == [.hideMenu, .send(.actionMenuAction(menuId: "m1", actionId: "rename"))])
    }

    @Test("withdrawn menus close unreported: disarm, unregister, and everything when the document goes")
    func withdrawals() {
        var menus = Self.armed()
        _ = menus.reduce(.openRequested(menuId: "m1", studioReady: true))
        #expect(menus.reduce(.disarm(menuId: "zz", id: "d")) == [.reply(.ok("d"))], "not armed: ignored with ok")
        #expect(menus.reduce(.disarm(menuId: "m1", id: "d")) == [.reply(.ok("d")), .menusChanged, .hideMenu])
        _ = menus.reduce(.registerTrigger(Self.trigger("t1"), id: nil))
        _ = menus.reduce(.openRequested(menuId: "t1", studioReady: true))
        #expect(menus.reduce(.withdrawAll) == [.menusChanged, .hideMenu])
        #expect(menus.triggers.isEmpty && menus.openMenu == nil)
        #expect(menus.reduce(.withdrawAll).isEmpty, "nothing left to withdraw")
        #expect(menus.reduce(.unregisterTrigger(menuId: "t1", id: "u")) == [.reply(.ok("u"))])
    }
}
