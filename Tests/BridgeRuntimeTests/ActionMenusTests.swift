import HostCore
import StudioContract
import Testing

@Suite("Action menus, alone: armed, triggers, the menu on screen (§6)")
struct ActionMenusTests {
    static func menu(_ id: String) -> ActionMenu {
        guard case .actionMenuArm(let menu)? = decoded(envelope("action-menu/arm", ActionMenuSessionTests.menu(id))) else {
            preconditionFailure("the test menu does not decode")
        }
        return menu
    }

    static func trigger(_ id: String, x: Double = 0.1) -> ActionMenuTrigger {
        let rect: JSONValue = ["x": .number(x), "y": 0.2, "width": 0.3, "height": 0.1]
        let text = envelope("action-menu/register-trigger", ActionMenuSessionTests.menu(id, extra: ["rect": rect]))
        guard case .actionMenuRegisterTrigger(let trigger)? = decoded(text) else { preconditionFailure("the test trigger does not decode") }
        return trigger
    }

    static func armed(_ id: String = "m1") -> ActionMenus {
        var menus = ActionMenus(offered: true)
        #expect(menus.reduce(.arm(Self.menu(id), id: "a", studioAsked: true)) == [.reply(.ok("a")), .menusChanged])
        return menus
    }

    static func withTrigger(_ id: String = "t1") -> ActionMenus {
        var menus = ActionMenus(offered: true)
        #expect(menus.reduce(.registerTrigger(Self.trigger(id), id: "r", studioAsked: true)) == [.reply(.ok("r")), .menusChanged])
        return menus
    }

    @Test("arm and register-trigger are unavailable unless offered and Studio said nativeActionMenus; the legacy present always is")
    func gates() {
        var menus = ActionMenus(offered: false)
        #expect(menus.reduce(.arm(Self.menu("m1"), id: "a", studioAsked: true)) == [.reply(.failure(id: "a", code: .unavailable))])
        #expect(menus.reduce(.registerTrigger(Self.trigger("t1"), id: "t", studioAsked: true)) == [.reply(.failure(id: "t", code: .unavailable))])
        var notAsked = ActionMenus(offered: true)
        #expect(notAsked.reduce(.arm(Self.menu("m1"), id: "a", studioAsked: false)) == [.reply(.failure(id: "a", code: .unavailable))])
        #expect(notAsked.reduce(.registerTrigger(Self.trigger("t1"), id: "t", studioAsked: false)) == [.reply(.failure(id: "t", code: .unavailable))])
        #expect(notAsked.armedMenu == nil && notAsked.triggers.isEmpty)
        var offered = Self.armed()
        #expect(offered.reduce(.legacyPresent(id: "p")) == [.reply(.failure(id: "p", code: .unavailable))])
    }

    @Test("a trigger: the same page registering again replaces its menu and box; another page's menu id is unavailable")
    func triggerOwnership() {
        var menus = Self.withTrigger()
        #expect(menus.reduce(.registerTrigger(Self.trigger("t1", x: 0.5), id: "r2", studioAsked: true)) == [.reply(.ok("r2")), .menusChanged])
        #expect(menus.triggers["t1"]?.rect.x == 0.5)
        #expect(menus.reduce(.triggersElsewhere(["row-9"])).isEmpty)
        #expect(menus.reduce(.registerTrigger(Self.trigger("row-9"), id: "r3", studioAsked: true)) == [.reply(.failure(id: "r3", code: .unavailable))])
        #expect(menus.triggers["row-9"] == nil)
        #expect(menus.reduce(.unregisterTrigger(menuId: "row-9", id: "u")) == [.reply(.ok("u"))], "not its own: nothing")
        _ = menus.reduce(.triggersElsewhere([]))
        #expect(menus.reduce(.registerTrigger(Self.trigger("row-9"), id: "r4", studioAsked: true)).first == .reply(.ok("r4")), "once the owner let go")
    }

    @Test("a trigger's choice sends action-menu/action and keeps the trigger; disabled or unknown items send nothing; it never reports dismissed")
    func triggerChoices() {
        var menus = Self.withTrigger()
        #expect(menus.reduce(.openRequested(menuId: "t1", source: .trigger, studioReady: true)) == [.showMenu(Self.trigger("t1").menu)])
        #expect(menus.reduce(.chosen(menuId: "t1", actionId: "locked", studioReady: true)).isEmpty, "disabled")
        #expect(menus.reduce(.chosen(menuId: "t1", actionId: "nope", studioReady: true)).isEmpty, "unknown")
        #expect(menus.reduce(.chosen(menuId: "t1", actionId: "rename", studioReady: true))
            == [.hideMenu, .send(.actionMenuAction(menuId: "t1", actionId: "rename"))])
        #expect(menus.triggers["t1"] != nil && menus.shown == nil, "kept: the button can be used again")
        #expect(menus.reduce(.openRequested(menuId: "t1", source: .trigger, studioReady: true)) == [.showMenu(Self.trigger("t1").menu)])
        #expect(menus.reduce(.dismissed(menuId: "t1", studioReady: true)) == [.hideMenu], "a trigger never sends dismissed")
        _ = menus.reduce(.openRequested(menuId: "t1", source: .trigger, studioReady: true))
        #expect(menus.reduce(.surfaceShown(studioReady: true)) == [.hideMenu])
        #expect(menus.reduce(.openRequested(menuId: "t1", source: .armed, studioReady: true)).isEmpty, "not armed")
    }

    @Test("the armed menu: a second long press does nothing more; choosing clears the shown and the armed menu, once")
    func armedChoice() {
        var menus = Self.armed()
        #expect(menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true)) == [.showMenu(Self.menu("m1"))])
        #expect(menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true)).isEmpty, "a second long press")
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "rename", studioReady: true))
            == [.hideMenu, .menusChanged, .send(.actionMenuAction(menuId: "m1", actionId: "rename"))])
        #expect(menus.armedMenu == nil && menus.shown == nil)
        #expect(menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true)).isEmpty, "the same menu does not reopen")
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "rename", studioReady: true)).isEmpty, "no second choice")
    }

    @Test("dismissing the shown armed menu clears both and sends dismissed (only while Studio is ready)")
    func armedDismissal() {
        var menus = Self.armed()
        _ = menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true))
        #expect(menus.reduce(.dismissed(menuId: "m1", studioReady: true)) == [.hideMenu, .menusChanged, .send(.actionMenuDismissed(menuId: "m1"))])
        #expect(menus.armedMenu == nil)
        var quiet = Self.armed()
        _ = quiet.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true))
        #expect(quiet.reduce(.surfaceShown(studioReady: false)) == [.hideMenu, .menusChanged])
    }

    @Test("a new arm replaces the armed menu and cancels it on screen: a late choice from it is ignored")
    func newArmCancels() {
        var menus = Self.armed()
        _ = menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true))
        #expect(menus.reduce(.arm(Self.menu("m2"), id: "a2", studioAsked: true)) == [.reply(.ok("a2")), .menusChanged, .hideMenu])
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "rename", studioReady: true)).isEmpty)
        #expect(menus.reduce(.dismissed(menuId: "m1", studioReady: true)).isEmpty)
        #expect(menus.armedMenu?.menuId == "m2")
        // Another page's arm does the same.
        _ = menus.reduce(.openRequested(menuId: "m2", source: .armed, studioReady: true))
        #expect(menus.reduce(.armedElsewhere) == [.menusChanged, .hideMenu])
        #expect(menus.reduce(.chosen(menuId: "m2", actionId: "rename", studioReady: true)).isEmpty)
        #expect(menus.armedMenu == nil && menus.shown == nil)
        #expect(menus.reduce(.armedElsewhere).isEmpty)
    }

    @Test("disarm acts only on the armed menu id, and leaves a shown menu alone; its choice still counts")
    func disarm() {
        var menus = Self.armed()
        #expect(menus.reduce(.disarm(menuId: "zz", id: "d")) == [.reply(.ok("d"))], "not that menu: nothing")
        _ = menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true))
        #expect(menus.reduce(.disarm(menuId: "m1", id: "d")) == [.reply(.ok("d")), .menusChanged])
        #expect(menus.armedMenu == nil && menus.shown?.menu.menuId == "m1")
        #expect(menus.reduce(.chosen(menuId: "m1", actionId: "delete", studioReady: true))
            == [.hideMenu, .send(.actionMenuAction(menuId: "m1", actionId: "delete"))])
    }

    @Test("opening another menu closes the first as a click outside would; a menu not shown is not open")
    func oneOnScreen() {
        var menus = Self.armed()
        _ = menus.reduce(.registerTrigger(Self.trigger("t1"), id: nil, studioAsked: true))
        #expect(menus.reduce(.openRequested(menuId: "gone", source: .trigger, studioReady: true)).isEmpty)
        _ = menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true))
        #expect(menus.reduce(.openRequested(menuId: "t1", source: .trigger, studioReady: true))
            == [.hideMenu, .menusChanged, .send(.actionMenuDismissed(menuId: "m1")), .showMenu(Self.trigger("t1").menu)])
        _ = menus.reduce(.notShown(menuId: "t1"))
        #expect(menus.shown == nil)
        #expect(menus.reduce(.dismissed(menuId: "t1", studioReady: true)).isEmpty, "it never opened")
    }

    @Test("withdrawn menus close unreported: unregister, and everything when the document goes or a navigation starts")
    func withdrawals() {
        var menus = Self.armed()
        _ = menus.reduce(.registerTrigger(Self.trigger("t1"), id: nil, studioAsked: true))
        _ = menus.reduce(.openRequested(menuId: "t1", source: .trigger, studioReady: true))
        #expect(menus.reduce(.unregisterTrigger(menuId: "t1", id: "u")) == [.reply(.ok("u")), .menusChanged, .hideMenu])
        _ = menus.reduce(.registerTrigger(Self.trigger("t1"), id: nil, studioAsked: true))
        _ = menus.reduce(.openRequested(menuId: "m1", source: .armed, studioReady: true))
        #expect(menus.reduce(.withdrawAll) == [.menusChanged, .hideMenu])
        #expect(menus.triggers.isEmpty && menus.armedMenu == nil && menus.shown == nil)
        #expect(menus.reduce(.withdrawAll).isEmpty, "nothing left to withdraw")
    }
}

@Suite("Menu ownership across a window's pages (§6)")
struct MenuOwnershipTests {
    enum Page: Hashable, Sendable { case main, sheet }

    @Test("one armed menu per window: a page that arms takes it, and the page that had it hears armedElsewhere")
    func oneArmed() {
        var slot = MenuOwnership<Page>()
        #expect(slot.changed(page: .main, armed: true, triggers: [], among: [.main, .sheet]).isEmpty)
        #expect(slot.armedBy == .main)
        #expect(slot.changed(page: .main, armed: true, triggers: [], among: [.main, .sheet]).isEmpty, "re-armed on the same page")
        let told = slot.changed(page: .sheet, armed: true, triggers: [], among: [.main, .sheet])
        #expect(told.map(\.page) == [.main] && told.map(\.event) == [.armedElsewhere])
        #expect(slot.armedBy == .sheet)
        #expect(slot.changed(page: .main, armed: false, triggers: [], among: [.main, .sheet]).isEmpty, "main's own clearing tells nobody")
        #expect(slot.armedBy == .sheet)
        _ = slot.changed(page: .sheet, armed: false, triggers: [], among: [.main, .sheet])
        #expect(slot.armedBy == nil)
    }

    @Test("each trigger's menu id has one owner: the other pages hear the ids they may not register")
    func triggerOwners() {
        var slot = MenuOwnership<Page>()
        let told = slot.changed(page: .main, armed: false, triggers: ["row-1", "row-2"], among: [.main, .sheet])
        #expect(told.map(\.page) == [.sheet] && told.map(\.event) == [.triggersElsewhere(["row-1", "row-2"])])
        #expect(slot.changed(page: .main, armed: false, triggers: ["row-1", "row-2"], among: [.main, .sheet]).isEmpty, "unchanged")
        #expect(slot.triggerIdsElsewhere(for: .main).isEmpty)
        _ = slot.changed(page: .sheet, armed: true, triggers: ["sheet-x"], among: [.main, .sheet])
        #expect(slot.triggerIdsElsewhere(for: .main) == ["sheet-x"])
        let forgotten = slot.forget(.sheet, among: [.main])
        #expect(forgotten.map(\.event) == [.triggersElsewhere([])])
        #expect(slot.armedBy == nil)
    }
}
