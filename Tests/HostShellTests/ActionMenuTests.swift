import Foundation
import Testing

/// Action menus in the running app: a trigger over the page opens a native menu; the armed menu
/// opens on a context click; choices and dismissals reach Studio.
@Suite("Action menus (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct ActionMenuTests {
    @Test("a trigger's menu reports the choice; closing it reports nothing (§6); disabled items cannot be chosen")
    func triggerMenu() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let (app, home) = (live.app, live.home)
        // Studio settled (its catalog shown) before the test adds a trigger of its own.
        _ = try app.state("screen=page", "negotiated=true", "navigation.selected=overview")
        let listen = #"window.__menus = []; window.tilecastNativeReceiver = (m) => { window.__menus.push([m.type, m.payload.menuId, m.payload.actionId ?? null]); return true; }; true"#
        #expect(try app.ctl("eval", listen).status == 0)
        let register = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "action-menu/register-trigger", payload: {menuId: "row-lobby", label: "Lobby north", rect: {x: 0.5, y: 0.1, width: 0.2, height: 0.05}, groups: [{items: [{id: "rename", label: "Rename", icon: "edit"}, {id: "locked", label: "Locked", disabled: true}]}, {items: [{id: "delete", label: "Delete", role: "destructive"}]}]}}); true"#
        #expect(try app.ctl("eval", register).status == 0)
        _ = try app.state("menus.triggers.0=\"row-lobby\"")

        try app.openMenu("row-lobby")
        let shot = home.root.appendingPathComponent("menu.png").path
        #expect(try app.ctl("snapshot", shot).status == 0)
        let disabled = try app.ctl("menu", "locked")
        #expect(disabled.status == 1 && disabled.error.contains("disabled"))
        let chosen = try app.ctl("menu", "delete")
        #expect(chosen.status == 0, "\(chosen.error)")
        _ = try app.state("menus.open=null")

        try app.openMenu("row-lobby")
        #expect(try app.ctl("menu-close").status == 0)
        _ = try app.state("menus.open=null")
        try app.openMenu("row-lobby")
        #expect(try app.ctl("menu", "rename").status == 0)
        // A trigger never reports dismissed (§6): the close in between sent nothing.
        let heard = try #require(try app.evalWhen("window.__menus.length >= 2 && window.__menus") as? [[Any]])
        #expect(heard.map { $0.map { "\($0)" } } == [["action-menu/action", "row-lobby", "delete"], ["action-menu/action", "row-lobby", "rename"]])

        let unknown = try app.ctl("menu-open", "nothing")
        #expect(unknown.status == 1 && unknown.error.contains("no menu \"nothing\""))
    }

    @Test("the reference Studio's screen rows have native menus; Remove asks through a native alert first")
    func referenceRowMenus() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true")
        #expect(try app.ctl("tap", "screens").status == 0)
        let listed = try app.stateWhen("menus.triggers.2")
        let triggers = (listed["menus"] as? [String: Any])?["triggers"] as? [String]
        #expect(Set(triggers ?? []) == ["row-lobby-north", "row-cafeteria", "row-reception"])
        // Reception's player cannot be restarted: the item is there, greyed.
        try app.openMenu("row-reception")
        let disabled = try app.ctl("menu", "restart")
        #expect(disabled.status == 1 && disabled.error.contains("disabled"))
        #expect(try app.ctl("menu", "remove").status == 0)
        let asking = try app.stateWhen("alert")
        let alert = try #require(asking["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Remove Reception?")
        #expect(try app.ctl("alert", "no").status == 0)  // kept
        _ = try app.state("alert=null", "menus.open=null")
        try app.openMenu("row-reception")
        let remove = try app.ctl("menu", "remove")
        #expect(remove.status == 0, "\(remove.error)")
        // Studio asks one question at a time: this one shows once the first was settled, and
        // with "no" Reception was kept.
        _ = try app.stateWhen("alert")
        #expect(try app.ctl("eval", #"document.getElementById("screen-list").dataset.count"#).result as? String == "3")
        #expect(try app.ctl("alert", "yes").status == 0)
        // Removed: the row and its trigger are gone, and the warning haptic was felt.
        let after = try app.stateWhen("system.haptics.0")
        #expect((after["system"] as? [String: Any])?["haptics"] as? [String] == ["warning"])
        _ = try app.state("menus.triggers=[\"row-cafeteria\",\"row-lobby-north\"]")
        #expect(try app.ctl("eval", #"document.getElementById("screen-list").dataset.count"#).result as? String == "2")
    }
}
