import Foundation
import Testing

/// Anchored menus and withdrawal timing in the running app (CONTRACT.md §6): a registered
/// trigger becomes a native button over its box; a click opens the native menu there; a choice
/// reaches Studio and the button stays; a navigation's start takes everything the page had open.
@Suite("Anchored menus and withdrawal (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct AnchoredMenuTests {
    static let listen = #"window.__menus = []; window.tilecastNativeReceiver = (m) => { window.__menus.push([m.type, m.payload.menuId ?? null, m.payload.actionId ?? null]); return true; }; true"#

    static func register(_ menuId: String, x: Double, y: Double, width: Double = 0.2, height: Double = 0.06) -> String {
        #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "action-menu/register-trigger", payload: {menuId: "\#(menuId)", label: "Lobby north", rect: {x: \#(x), y: \#(y), width: \#(width), height: \#(height)}, groups: [{items: [{id: "rename", label: "Rename", icon: "edit"}, {id: "locked", label: "Locked", disabled: true}]}, {items: [{id: "delete", label: "Delete", role: "destructive"}]}]}}).then((r) => window.__registered = r); true"#
    }

    /// The trigger's native button and the viewport, once the button is placed.
    static func placement(_ app: RunningApp, _ menuId: String, near x: Double) throws -> (button: [String: Double], viewport: [String: Double]) {
        var found: (button: [String: Double], viewport: [String: Double])?
        _ = try waitUntil(timeout: 30) {
            let state = try #require(try app.ctl("state").result as? [String: Any])
            guard let button = stateValue(state, "menus.anchors.\(menuId).button") as? [String: Double],
                  let viewport = stateValue(state, "menus.viewport") as? [String: Double],
                  abs(button["x"]! - x * viewport["width"]!) <= 1 else { return false }
            found = (button, viewport)
            return true
        }
        return try #require(found, "the trigger's button was never placed at x = \(x)")
    }

    /// Clicks the trigger's button, again while GTK takes the menu down at once (another client
    /// held the pointer: nothing reached Studio, as `openMenu` does for `menu-open`).
    static func click(_ app: RunningApp, _ menuId: String, _ rest: String...) throws {
        var last: (status: Int32, result: Any?, error: String) = (1, nil, "")
        let clicked = try waitUntil(timeout: 30) {
            last = try app.ctl(["trigger", menuId] + rest)
            return last.status == 0 || !last.error.contains("could not be shown")
        }
        #expect(clicked && last.status == 0, "\(last.error)")
    }

    @Test("a registered trigger is a native button over its box; a click opens the menu there; a choice sends action-menu/action and keeps the trigger; it follows a new box")
    func triggerButton() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "navigation.selected=overview")
        #expect(try app.ctl("eval", Self.listen).status == 0)
        #expect(try app.ctl("eval", Self.register("row-lobby", x: 0.5, y: 0.1)).status == 0)
        _ = try app.state("menus.triggers.0=\"row-lobby\"")

        let (button, viewport) = try Self.placement(app, "row-lobby", near: 0.5)
        let (w, h) = (viewport["width"]!, viewport["height"]!)
        #expect(abs(button["y"]! - 0.1 * h) <= 1, "\(button) in \(viewport)")
        #expect(abs(button["width"]! - 0.2 * w) <= 1, "\(button) in \(viewport)")
        #expect(abs(button["height"]! - 0.06 * h) <= 1, "\(button) in \(viewport)")

        // A click on the native button opens the native menu; a choice goes to Studio.
        try Self.click(app, "row-lobby")
        _ = try app.state("menus.open=\"row-lobby\"", "menus.openFrom=\"trigger\"")
        let disabled = try app.ctl("menu", "locked")
        #expect(disabled.status == 1 && disabled.error.contains("disabled"))
        #expect(try app.ctl("menu", "rename").status == 0)
        _ = try app.state("menus.open=null", "menus.triggers.0=\"row-lobby\"")
        // Kept: the same button again; a close without a choice reports nothing (a trigger never does).
        try Self.click(app, "row-lobby")
        #expect(try app.ctl("menu-close").status == 0)
        _ = try app.state("menus.open=null")
        try Self.click(app, "row-lobby", "delete")
        let heard = try #require(try app.evalWhen("window.__menus.length >= 2 && window.__menus") as? [[Any]])
        #expect(heard.map { $0.map { "\($0)" } } == [["action-menu/action", "row-lobby", "rename"], ["action-menu/action", "row-lobby", "delete"]])
        _ = try app.state("menus.triggers.0=\"row-lobby\"")

        // The page scrolled: Studio registers the box again, and the same button moves there.
        #expect(try app.ctl("eval", Self.register("row-lobby", x: 0.25, y: 0.3)).status == 0)
        let (moved, _) = try Self.placement(app, "row-lobby", near: 0.25)
        #expect(abs(moved["y"]! - 0.3 * h) <= 1, "\(moved)")

        let unknown = try app.ctl("trigger", "nothing")
        #expect(unknown.status == 1 && unknown.error.contains("no trigger \"nothing\""), "\(unknown.error)")
    }

    @Test("the reference Studio's rows register triggers because nativeActionMenuAnchors is offered")
    func referenceRowsUseAnchors() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.stateWhen("menus.anchors.row-reception.button")
        try Self.click(app, "row-reception", "remove")
        _ = try app.stateWhen("alert")
        #expect(try app.ctl("alert", "no").status == 0)
    }

    @Test("a main-frame navigation's start withdraws the alert, the menus (armed, shown, triggers) and the map, before any commit")
    func navigationStartWithdraws() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "navigation.selected=overview")
        #expect(try app.ctl("eval", Self.register("row-lobby", x: 0.5, y: 0.1)).status == 0)
        let arm = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "action-menu/arm", payload: {menuId: "ctx", label: "Page", groups: [{items: [{id: "copy", label: "Copy"}]}]}}); true"#
        #expect(try app.ctl("eval", arm).status == 0)
        _ = try app.state("menus.triggers.0=\"row-lobby\"", "menus.armed=\"ctx\"")
        try Self.click(app, "row-lobby")
        _ = try app.state("menus.open=\"row-lobby\"")
        let alert = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "alert/present", payload: {alertId: "a1", title: "Leave?", actions: [{id: "ok", label: "OK"}]}}); true"#
        #expect(try app.ctl("eval", alert).status == 0)
        _ = try app.stateWhen("alert")
        // The system map too (§6 Withdrawal): the reference Studio's fleet map.
        let map = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "system/map-present", payload: {mapId: "fleet", title: "Fleet", points: [{id: "a", latitude: 52.5, longitude: 13.4, title: "Lobby"}]}}); true"#
        #expect(try app.ctl("eval", map).status == 0)
        _ = try app.state("map.mapId=\"fleet\"")
        // A document that never comes: the navigation starts and never commits.
        #expect(try app.ctl("eval", #"location.href = "/__test/stall"; true"#).status == 0)
        _ = try app.state("alert=null", "menus.triggers=[]", "menus.armed=null", "menus.open=null", "map=null")
        let state = try #require(try app.ctl("state").result as? [String: Any])
        #expect(state["negotiated"] as? Bool == true, "withdrawn at the start: the old document has not been replaced")
    }
}
