import Foundation
import Testing

/// Native alerts in the running app: Studio's unsaved-changes question becomes a native dialog,
/// answered through the control interface as a person would press its buttons.
@Suite("Native alerts (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct AlertTests {
    @Test("leaving an edited page asks natively; Keep Editing rolls the selection back, Discard leaves")
    func unsavedChanges() throws {
        let live = try LiveApp(["--device", "phone", "--allow-eval"])
        defer { live.finish() }
        let (app, server) = (live.app, live.server)
        _ = try app.state("screen=page", "negotiated=true")
        #expect(try app.ctl("eval", #"history.pushState({}, "", "/screens/lobby-north/edit"); dispatchEvent(new PopStateEvent("popstate")); true"#).status == 0)
        _ = try app.state("navigation.selected=screens", "backBar.label=Screen")
        #expect(try app.ctl("eval", #"const i = document.getElementById("screen-name"); i.value = "Lobby N"; i.dispatchEvent(new Event("input")); true"#).status == 0)

        #expect(try app.ctl("tap", "media").status == 0)
        let asking = try app.stateWhen("alert")
        let alert = try #require(asking["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Discard your unsaved changes?")
        let actions = try #require(alert["actions"] as? [[String: Any]])
        #expect(actions.map { $0["role"] as? String } == ["cancel", "destructive"])
        let wrong = try app.ctl("alert", "maybe")
        #expect(wrong.status == 1 && wrong.error.contains("no button \"maybe\""))

        #expect(try app.ctl("alert", "no").status == 0)
        _ = try app.state("alert=null", "navigation.selected=screens", "url=\"\(server.url)/screens/lobby-north/edit\"")

        #expect(try app.ctl("tap", "media").status == 0)
        _ = try app.stateWhen("alert")
        #expect(try app.ctl("alert", "yes").status == 0)
        _ = try app.state("alert=null", "navigation.selected=media", "url=\"\(server.url)/media\"")
        let none = try app.ctl("alert", "yes")
        #expect(none.status == 1 && none.error.contains("no alert is showing"))
    }
}
