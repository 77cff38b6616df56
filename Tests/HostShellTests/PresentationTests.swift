import Foundation
import Testing

/// Native sheets: the prewarmed presentation page, open, the header from Studio, dismissal and
/// the next prewarm — with the reference Studio's live preview.
@Suite("Presentations (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct PresentationTests {
    @Test("a prewarmed sheet opens at once, takes Studio's header, and dismissal ends it and prewarms again")
    func livePreview() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true")
        #expect(try app.ctl("eval", #"history.pushState({}, "", "/screens/lobby-north"); dispatchEvent(new PopStateEvent("popstate")); true"#).status == 0)
        _ = try app.state("backBar.label=Screens")
        #expect(try app.ctl("eval", #"document.getElementById("preview").click(); true"#).status == 0)
        let shown = try app.state("presentation.shown.revealed=true", "presentation.shown.title=\"Lobby north\"")
        let sheet = try #require((shown["presentation"] as? [String: Any])?["shown"] as? [String: Any])
        #expect(sheet["path"] as? String == "/__native/modal/screens/lobby-north/preview")
        #expect((shown["presentation"] as? [String: Any])?["ready"] as? Bool == false, "the prewarmed page is in use")

        // A second open while one is shown is unavailable.
        let second = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "presentation/open", payload: {presentationId: "p2", path: "/__native/modal/x", title: "Second"}}).then((r) => { window.__second = r; }); true"#
        #expect(try app.ctl("eval", second).status == 0)
        usleep(300_000)
        let refused = try #require(try app.ctl("eval", "window.__second").result as? [String: Any])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable")

        #expect(try app.ctl("sheet-action", "refresh").status == 0)
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null")
        usleep(300_000)
        #expect(try app.ctl("eval", #"document.getElementById("preview-status").textContent"#).result as? String == "Preview closed.")
        _ = try app.state("presentation.ready=true")  // prewarmed again for the next one
    }
}
