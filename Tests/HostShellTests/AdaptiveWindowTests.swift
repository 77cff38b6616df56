import Foundation
import Testing

/// The layout follows the window's width live (issue 16 item 1): a desktop window dragged narrow
/// shows tabs and a bottom sheet, wide again a sidebar and a panel, keeping the selection, the
/// back bar and the sheet that is open.
@Suite("Adaptive window (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct AdaptiveWindowTests {
    @Test("resizing switches tabs and sidebar, and the sheet's style, keeping selection, back bar and the open sheet")
    func resizeKeepsState() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", "navigation.kind=sidebar",
                          "sizeClass=regular", "window.sizeClass=regular", "device.profile=desktop")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.state("navigation.selected=screens")
        #expect(try app.ctl("eval", #"history.pushState({}, "", "/screens/lobby-north"); dispatchEvent(new PopStateEvent("popstate")); true"#).status == 0)
        _ = try app.state("backBar.label=Screens")
        #expect(try app.ctl("eval", #"document.getElementById("preview").click(); true"#).status == 0)
        let opened = try app.state("presentation.shown.revealed=true", "presentation.shown.style=panel")
        let id = try #require(((opened["presentation"] as? [String: Any])?["shown"] as? [String: Any])?["presentationId"] as? String)

        #expect(try app.ctl("resize", "420", "800").status == 0)
        let narrow = try app.state("window.width=420", "sizeClass=compact", "navigation.kind=tabs", "navigation.selected=screens",
                                   "backBar.label=Screens", "presentation.shown.style=bottom-sheet",
                                   "presentation.shown.presentationId=\"\(id)\"", "presentation.shown.bounds.x=0")
        #expect((narrow["device"] as? [String: Any])?["profile"] as? String == "desktop", "--device is only where it starts: the reported profile stays")

        #expect(try app.ctl("resize", "1100", "800").status == 0)
        _ = try app.state("window.width=1100", "sizeClass=regular", "navigation.kind=sidebar", "navigation.selected=screens",
                          "backBar.label=Screens", "presentation.shown.style=panel", "presentation.shown.presentationId=\"\(id)\"",
                          "presentation.shown.bounds.width=760")
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null")
    }

    @Test("--device phone starts compact with tabs; widened, it shows the sidebar")
    func phoneStartsCompact() throws {
        let live = try LiveApp(["--device", "phone"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "navigation.kind=tabs", "sizeClass=compact", "device.size.width=393", "device.profile=phone", "device.name=iphone-16")
        #expect(try app.ctl("tap", "media").status == 0)
        _ = try app.state("navigation.selected=media")
        #expect(try app.ctl("resize", "900", "700").status == 0)
        _ = try app.state("navigation.kind=sidebar", "sizeClass=regular", "navigation.selected=media", "device.profile=phone")
    }
}
