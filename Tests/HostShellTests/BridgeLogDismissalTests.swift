import Foundation
import Testing

/// The bridge log and the event stream keep every message in both directions, on every page —
/// also those a page receives after a dismissal (CONTRACT.md §6).
@Suite("Bridge log across a dismissal (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct BridgeLogDismissalTests {
    @Test("--bridge-log records presentation/dismissed to the sheet page and presentation/ended to main")
    func dismissalLogged() throws {
        let logs = TemporaryHome()
        defer { logs.remove() }
        let file = try logs.file("bridge.log")
        let live = try LiveApp(["--allow-eval", "--bridge-log", file.path])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true")
        let open = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "presentation/open", payload: {presentationId: "logged-1", path: "/__native/modal/screens/lobby-north/preview", title: "Lobby north"}}); true"#
        #expect(try app.ctl("eval", open).status == 0)
        _ = try app.state("presentation.shown.revealed=true")
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null")
        func records() -> [[String: Any]] {
            (((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n"))
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func sent(_ type: String, _ context: String) -> Bool {
            records().contains { $0["dir"] as? String == "host-to-studio" && $0["context"] as? String == context
                && ($0["message"] as? [String: Any])?["type"] as? String == type }
        }
        let logged = waitUntil(timeout: 30) { sent("presentation/dismissed", "presentation") && sent("presentation/ended", "main") }
        #expect(logged, "dismissed: \(sent("presentation/dismissed", "presentation")), ended: \(sent("presentation/ended", "main"))")
        #expect(sent("presentation/show", "presentation"))
    }
}
