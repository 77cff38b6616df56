import Foundation
import Testing

/// Native sheets: the prewarmed presentation page, open, the header from Studio, dismissal and
/// the next prewarm — with the reference Studio's live preview.
@Suite("Presentations (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct PresentationTests {
    @Test("a prewarmed sheet opens at once, takes Studio's header, and dismissal ends it and keeps the page for the next")
    func livePreview() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true")
        // The prewarmed page lives in main's web process: it costs a page, not a process.
        #expect(LiveFailureTests.webProcesses(of: app.process.processIdentifier).count == 1)
        #expect(try app.ctl("eval", #"history.pushState({}, "", "/screens/lobby-north"); dispatchEvent(new PopStateEvent("popstate")); true"#).status == 0)
        _ = try app.state("backBar.label=Screens")
        #expect(try app.ctl("eval", #"document.getElementById("preview").click(); true"#).status == 0)
        let shown = try app.state("presentation.shown.revealed=true", "presentation.shown.title=\"Lobby north\"")
        let sheet = try #require((shown["presentation"] as? [String: Any])?["shown"] as? [String: Any])
        #expect(sheet["path"] as? String == "/__native/modal/screens/lobby-north/preview")
        #expect((shown["presentation"] as? [String: Any])?["ready"] as? Bool == false, "the prewarmed page is in use")

        // The panel follows the window: at most 760 wide with room, 48 px in from each side of
        // a narrower window, and back again.
        func bounds(_ state: [String: Any]) -> [String: Int] {
            let shown = (state["presentation"] as? [String: Any])?["shown"] as? [String: Any]
            return (shown?["bounds"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
        }
        #expect(sheet["style"] as? String == "panel")
        #expect(bounds(shown)["width"] == 760)
        #expect(try app.ctl("resize", "700", "600").status == 0)
        let narrow = try app.state("presentation.shown.bounds.x=48")
        #expect(bounds(narrow)["width"].map { $0 < 760 && $0 + 96 <= 700 } == true, "\(bounds(narrow))")
        #expect(try app.ctl("resize", "1280", "800").status == 0)
        _ = try app.state("presentation.shown.bounds.width=760")

        // A second open while one is shown is unavailable.
        let second = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "presentation/open", payload: {presentationId: "p2", path: "/__native/modal/x", title: "Second"}}).then((r) => { window.__second = r; }); true"#
        #expect(try app.ctl("eval", second).status == 0)
        let refused = try #require(try app.evalWhen("window.__second") as? [String: Any])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable")

        #expect(try app.ctl("sheet-action", "refresh").status == 0)
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null")
        #expect(try app.evalWhen(#"document.getElementById("preview-status").textContent === "Preview closed.""#) as? Bool == true)
        // The same page waits, hidden, for the next one (§6): nothing booted again.
        _ = try app.state("presentation.ready=true", "presentation.pageBoots=1")
        // The sheet page's process is main's.
        #expect(try app.ctl("eval", "1 + 1").result as? Int == 2)
        #expect(LiveFailureTests.webProcesses(of: app.process.processIdentifier).count == 1)
    }
}

/// The sheet on phone, sheets without a prewarmed page, and a sheet page's own native surface.
@Suite("Presentations: phone, on demand, memory pressure (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct PresentationHostingTests {
    @Test("on phone the sheet rises inside the window; a dialog in it makes it full size; its menu and haptics reach the app")
    func phoneSheet() throws {
        let live = try LiveApp(["--device", "phone", "--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.stateWhen("menus.triggers.2")  // one native menu per screen row
        try app.openMenu("row-lobby-north")  // on screen before an item is chosen
        #expect(try app.ctl("menu", "preview").status == 0)
        let shown = try app.state("presentation.shown.revealed=true", "presentation.shown.style=bottom-sheet", "presentation.shown.size=compact")
        let last = try #require((shown["presentation"] as? [String: Any])?["lastOpen"] as? [String: Any])
        #expect(last["prewarmed"] as? Bool == true)
        #expect(last["painted"] as? Bool == true, "revealed on Studio's paint, not at the time limit")
        #expect((last["milliseconds"] as? Double ?? 0) > 0)
        // The sheet's header menu (presentation/update's menu) and the sheet page's haptics.
        #expect(try app.ctl("sheet-action", "restart").status == 0)
        _ = try app.stateWhen("system.haptics.0")
        // Studio's Schedule dialog needs room: the sheet goes full size while it shows.
        #expect(try app.ctl("eval", "--sheet", #"document.getElementById("schedule").click(); true"#).status == 0)
        // Full: the whole width, up to a 24 px strip at the top.
        let full = try app.state("presentation.shown.size=full", "presentation.shown.bounds.x=0", "presentation.shown.bounds.y=24")
        let fullHeight = try #require((((full["presentation"] as? [String: Any])?["shown"] as? [String: Any])?["bounds"] as? [String: Any])?["height"] as? Int)
        #expect(try app.ctl("eval", "--sheet", #"document.getElementById("schedule-close").click(); true"#).status == 0)
        // Compact: the lower half of the window again.
        let window = fullHeight + 24
        _ = try app.state("presentation.shown.size=compact", "presentation.shown.bounds.y=\(window - window / 2)")
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null", "presentation.ready=true")
    }

    @Test("memory pressure discards the prewarmed page; sheets then load on demand behind the loading mark")
    func memoryPressure() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", "presentation.prewarming=true")
        #expect(try app.ctl("memory-pressure").status == 0)
        _ = try app.state("presentation.ready=false", "presentation.prewarming=false")
        // Still offered: the page loads when a sheet is asked for.
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.stateWhen("menus.triggers.0")
        try app.openMenu("row-cafeteria")
        #expect(try app.ctl("menu", "preview").status == 0)
        let shown = try app.state("presentation.shown.revealed=true", "presentation.shown.title=Cafeteria", "presentation.shown.style=panel")
        let last = try #require((shown["presentation"] as? [String: Any])?["lastOpen"] as? [String: Any])
        #expect(last["prewarmed"] as? Bool == false)
        #expect(try app.ctl("sheet-dismiss").status == 0)
        // No prewarm during the pause after pressure: the used page is discarded and no other made.
        _ = try app.state("presentation.shown=null", "presentation.prepared=false", "presentation.prewarming=false")
    }

    @Test("one alert across the app: the sheet page's alert makes main's unavailable until it is answered")
    func oneAlertAcrossPages() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.stateWhen("menus.triggers.0")
        try app.openMenu("row-cafeteria")
        #expect(try app.ctl("menu", "preview").status == 0)
        _ = try app.state("presentation.shown.revealed=true")
        let ask = { (id: String) in #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "alert/present", payload: {alertId: "\#(id)", title: "Sure?", actions: [{id: "ok", label: "OK"}]}}).then((r) => { window.__asked = r; }); true"# }
        #expect(try app.ctl("eval", "--sheet", ask("s1")).status == 0)
        _ = try app.state("alert.alertId=s1")
        #expect(try app.ctl("eval", ask("m1")).status == 0)
        let refused = try #require(try app.evalWhen("window.__asked") as? [String: Any])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable")
        #expect(try app.ctl("alert", "ok").status == 0)
        _ = try app.state("alert=null")
        #expect(try app.ctl("eval", ask("m2")).status == 0)
        _ = try app.state("alert.alertId=m2")
        #expect(try app.ctl("alert", "ok").status == 0)
    }

    @Test("--no-prewarm never keeps a second page, and sheets still open")
    func noPrewarm() throws {
        let live = try LiveApp(["--no-prewarm", "--allow-eval"])
        defer { live.finish() }
        let app = live.app
        // Main is ready with its catalog (when a prewarm would start): no sheet page is made.
        _ = try app.state("screen=page", "negotiated=true", "navigation.selected=overview", "presentation.prewarming=false")
        _ = try app.state("presentation.prepared=false", "presentation.ready=false")
        #expect(try app.ctl("eval", #"history.pushState({}, "", "/screens/reception"); dispatchEvent(new PopStateEvent("popstate")); true"#).status == 0)
        _ = try app.state("backBar.label=Screens")
        #expect(try app.ctl("eval", #"document.getElementById("preview").click(); true"#).status == 0)
        _ = try app.state("presentation.shown.revealed=true", "presentation.shown.title=Reception")
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null", "presentation.prepared=false", "presentation.ready=false")
    }
}
