import Foundation
import Testing

/// Haptics and share in the running app, driven through the page's bridge and the control interface.
@Suite("Haptics and share (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct SystemTests {
    /// Posts a message as Studio would; its reply lands in `window.__last` (cleared first).
    static func post(_ app: RunningApp, _ type: String, _ payload: String) throws {
        let script = #"window.__last = null; window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "\#(type)", payload: \#(payload)}).then((r) => { window.__last = r; }); true"#
        #expect(try app.ctl("eval", script).status == 0)
    }

    @Test("haptic feedback is recorded per kind; the share panel copies the link and reports the choice")
    func hapticsAndShare() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let (app, server) = (live.app, live.server)
        _ = try app.state("screen=page", "negotiated=true")
        try Self.post(app, "system/haptic", #"{feedback: "warning"}"#)
        try Self.post(app, "system/haptic", #"{feedback: "unknown-kind"}"#)
        try Self.post(app, "system/haptic", #"{feedback: "success"}"#)
        _ = try app.state("system.haptics.1=\"success\"", "system.haptics.0=\"warning\"")

        try Self.post(app, "system/share", #"{title: "Lobby", url: "https://example.org/lobby"}"#)
        let open = try app.stateWhen("system.share.open")
        let panel = try #require((open["system"] as? [String: Any])?["share"] as? [String: Any])
        #expect((panel["open"] as? [String: Any])?["choices"] as? [String] == ["copy-link", "open", "email", "cancel"])
        // A second share while the panel is open is unavailable.
        try Self.post(app, "system/share", #"{text: "again"}"#)
        let refused = try #require(try app.evalWhen("window.__last") as? [String: Any])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable")
        let copied = try app.ctl("share", "copy-link")
        #expect(copied.status == 0, "\(copied.error)")
        #expect((copied.result as? [String: Any])?["clipboard"] as? String == "https://example.org/lobby")
        _ = try app.state("system.share.open=null", "system.share.last.choice=\"copy-link\"")

        // The server's own API is never shared.
        try Self.post(app, "system/share", "{url: \"\(server.url)/api/v1/system/identity\"}")
        let own = try #require(try app.evalWhen("window.__last") as? [String: Any])
        #expect((own["error"] as? [String: Any])?["code"] as? String == "unavailable")
    }

    @Test("a share the phone lets through with a credential is shared, and warned: ctl state, the event stream, the bridge log")
    func shareWarned() throws {
        let logs = TemporaryHome()
        defer { logs.remove() }
        let file = try logs.file("bridge.log")
        let live = try LiveApp(["--allow-eval", "--bridge-log", file.path])
        defer { live.finish() }
        let (app, server) = (live.app, live.server)
        _ = try app.state("screen=page", "negotiated=true")
        let warnings = try ObservabilityTests.EventReader(app, ["--kind", "warning", "--count", "3", "--timeout", "60"])
        // Each part passes the phone's rules as written: a fullwidth marker, a double-encoded
        // parameter name, and the server's own API behind a dot segment.
        try Self.post(app, "system/share", "{title: \"key ｔｃａ＿0042\", url: \"\(server.url)/x/../api/v1/items?acc%2565ss_token=1\"}")
        let reply = try #require(try app.evalWhen("window.__last") as? [String: Any])
        #expect(reply["ok"] as? Bool == true, "shared as the phone shares it: \(reply)")
        let state = try app.stateWhen("system.share.warnings.2")
        let listed = (((state["system"] as? [String: Any])?["share"] as? [String: Any])?["warnings"] as? [[String: Any]]) ?? []
        #expect(listed.map { "\($0["field"] ?? "")/\($0["rule"] ?? "")" } == ["title/credential-marker", "url/credential-parameter", "url/own-api-path"])
        let streamed = warnings.finish()
        #expect(streamed.status == 0 && streamed.events.count == 3 && streamed.events.allSatisfy { $0["event"] as? String == "warning" && $0["source"] as? String == "share" })
        #expect(streamed.events.compactMap { ($0["warning"] as? [String: Any])?["rule"] as? String } == ["credential-marker", "credential-parameter", "own-api-path"])
        let logged = waitUntil(timeout: 30) { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains(#""dir":"warning""#) }
        #expect(logged, "the warning was not logged")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let records = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["dir"] as? String == "warning" }
        #expect(records.count == 3 && records.allSatisfy { $0["context"] as? String == "main" })
    }
}

@Suite("Bridge event log (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct BridgeLogLiveTests {
    @Test("--bridge-log records both directions with replies and latency, and no credential")
    func log() throws {
        let logs = TemporaryHome()
        defer { logs.remove() }
        let file = try logs.file("bridge.log")
        let live = try LiveApp(["--allow-eval", "--bridge-log", file.path])
        defer { live.finish() }
        _ = try live.app.state("screen=page", "negotiated=true")
        #expect(try live.app.ctl("tap", "media").status == 0)
        _ = try live.app.state("navigation.selected=media")
        try SystemTests.post(live.app, "system/share", #"{text: "pairing tc_pair_0042"}"#)
        // The share is logged as it arrives.
        let logged = waitUntil(timeout: 30) { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains(#""type":"system/share""#) }
        #expect(logged, "the share message was not logged")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let entries = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.count == lines.count && !entries.isEmpty, "one JSON object per line")
        let types = entries.compactMap { ($0["message"] as? [String: Any])?["type"] as? String }
        #expect(types.contains("config/get") && types.contains("navigation/request") && types.contains("navigation/state"))
        #expect(entries.contains { $0["dir"] as? String == "host-to-studio" && $0["accepted"] as? Bool == true })
        #expect(!lines.contains { $0.contains("tc_pair_0042") })
        #expect(lines.contains { $0.contains("[redacted]") })
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
