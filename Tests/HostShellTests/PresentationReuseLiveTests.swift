import Foundation
import Testing

/// §6: one presentation page, built once and reused by every sheet, with the reference Studio;
/// a shown page that fails keeps its sheet open, failed, with Retry.
@Suite("Presentation page reuse (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct PresentationReuseLiveTests {
    static func open(_ id: String, _ path: String, title: String) -> String {
        #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "presentation/open", payload: {presentationId: "\#(id)", path: "\#(path)", title: "\#(title)"}}); true"#
    }

    @Test("three sheets in a row are served by one page that booted once")
    func threeSheetsOneBoot() throws {
        let logs = TemporaryHome()
        defer { logs.remove() }
        let file = try logs.file("bridge.log")
        let live = try LiveApp(["--allow-eval", "--bridge-log", file.path])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", "presentation.pageBoots=1")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.stateWhen("menus.triggers.2")
        for (n, (row, title)) in [("lobby-north", "Lobby north"), ("cafeteria", "Cafeteria"), ("reception", "Reception")].enumerated() {
            try app.openMenu("row-\(row)")
            #expect(try app.ctl("menu", "preview").status == 0)
            let shown = try app.state("presentation.shown.revealed=true", "presentation.shown.title=\"\(title)\"")
            let last = try #require((shown["presentation"] as? [String: Any])?["lastOpen"] as? [String: Any])
            #expect(last["prewarmed"] as? Bool == true, "sheet \(n + 1) took the waiting page")
            #expect(last["painted"] as? Bool == true)
            #expect(try app.evalWhen("document.body.dataset.shows === \"\(n + 1)\"", sheet: true) as? Bool == true,
                    "the same document drew sheet \(n + 1)")
            #expect(try app.ctl("sheet-dismiss").status == 0)
            _ = try app.state("presentation.shown=null", "presentation.ready=true", "presentation.pageBoots=1")
        }
        // The page Studio drew three sheets on is still the first one: one negotiation, one ready.
        func records() -> [[String: Any]] {
            (((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n"))
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func count(_ type: String, _ dir: String) -> Int {
            records().filter { $0["context"] as? String == "presentation" && $0["dir"] as? String == dir
                && ($0["message"] as? [String: Any])?["type"] as? String == type }.count
        }
        #expect(waitUntil(timeout: 30) { count("presentation/dismissed", "host-to-studio") == 3 },
                "dismissed to the sheet page: \(count("presentation/dismissed", "host-to-studio"))")
        #expect(count("presentation/show", "host-to-studio") == 3)
        #expect(count("presentation/ready", "studio-to-host") == 1, "one boot for three sheets")
        #expect(count("config/get", "studio-to-host") == 1)
        let state = try app.state("presentation.pageBoots=1")
        #expect((state["presentation"] as? [String: Any])?["prepared"] as? Bool == true)
    }

    @Test("a shown page that refuses its sheet keeps it open, failed, with Retry building a new page that shows it")
    func failedSheetRetries() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", "presentation.pageBoots=1")
        #expect(try app.ctl("sheet-retry").status != 0, "no sheet shows")
        #expect(try app.ctl("eval", Self.open("refused-1", "/__native/modal/__test/refused-once", title: "Refused")).status == 0)
        let failed = try app.state("presentation.shown.failed=refused", "presentation.shown.navigation=close")
        #expect(((failed["presentation"] as? [String: Any])?["shown"] as? [String: Any])?["title"] as? String == "Refused")
        // Still open: main was told nothing, and its next open is unavailable while this shows.
        _ = try app.state("presentation.shown.presentationId=refused-1", "presentation.prepared=false")
        let second = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "presentation/open", payload: {presentationId: "p2", path: "/__native/modal/x", title: "Second"}}).then((r) => { window.__second = r; }); true"#
        #expect(try app.ctl("eval", second).status == 0)
        let refused = try #require(try app.evalWhen("window.__second") as? [String: Any])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable")

        #expect(try app.ctl("sheet-retry").status == 0)
        _ = try app.state("presentation.shown.failed=null", "presentation.shown.revealed=true",
                          "presentation.shown.title=\"Shown after a refusal\"", "presentation.pageBoots=2")
        #expect(try app.evalWhen(#"document.getElementById("retried") !== null"#, sheet: true) as? Bool == true)
        #expect(try app.ctl("sheet-retry").status != 0, "the sheet no longer failed")
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null", "presentation.ready=true", "presentation.pageBoots=2")
    }
}
