import Foundation
import Testing

/// Issue 15 item 2 in the real app: a message over the size limit is refused as `malformed` by
/// the page shim, by the isolated-world relay (for a page that dispatches the request itself)
/// and by the host, and the bridge log keeps its records short and rotates.
@Suite("Bridge size limit and the bridge log's bounds (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct BridgeLimitTests {
    /// Starts `script` (which sets `window.__result`) in the page and waits for its result.
    static func run(_ app: RunningApp, _ script: String, timeout: Double = 60) throws -> Any? {
        #expect(try app.ctl("eval", "window.__result = undefined; \(script); true").status == 0)
        return try app.evalWhen("window.__result === undefined ? null : window.__result", timeout: timeout)
    }

    @Test("over 1 MiB is malformed through postMessage and through a forged request event; the log stays small")
    func sizeLimit() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-sizelog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let log = root.appendingPathComponent("bridge.log")
        let live = try LiveApp(["--allow-eval", "--bridge-log", log.path])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        let post = "window.webkit.messageHandlers.tilecastNative.postMessage"
        // A config/get with an ignored payload member of `n` copies of `c`.
        let message = #"(n, c) => ({ version: 1, type: "config/get", payload: { pad: c.repeat(n) } })"#
        let code = "(r) => { window.__result = r && r.ok ? \"ok\" : (r && r.error ? r.error.code : \"none\") }"
        #expect(try Self.run(app, "\(post)((\(message))(1000000, \"x\")).then(\(code))") as? String == "ok", "under the limit")
        #expect(try Self.run(app, "\(post)((\(message))(1100000, \"x\")).then(\(code))") as? String == "malformed")
        // 400,000 "€" are 400,000 UTF-16 units but 1.2 MB of UTF-8: the relay counts bytes.
        #expect(try Self.run(app, "\(post)((\(message))(400000, \"€\")).then(\(code))") as? String == "malformed")
        // A page that learns the request event's name and dispatches a huge request itself.
        let forged = """
        (() => {
          const dispatch = window.dispatchEvent; let name;
          window.dispatchEvent = function (e) { if (!name && e.type.startsWith("hostshell-request-")) name = e.type; return dispatch.call(this, e); };
          \(post)({ version: 1, type: "config/get", payload: {} }).then(() => {
            window.dispatchEvent = dispatch;
            addEventListener(name.replace("request", "response"), (e) => {
              const d = JSON.parse(e.detail);
              if (d.seq === 987654) { const r = JSON.parse(d.reply); window.__result = r.ok ? "ok" : r.error.code; }
            });
            const text = JSON.stringify({ version: 1, type: "config/get", payload: { pad: "y".repeat(3000000) } });
            dispatch.call(window, new CustomEvent(name, { detail: "987654:" + text }));
          });
        })()
        """
        #expect(try Self.run(app, forged) as? String == "malformed", "the relay refuses it")
        // The log has every message that reached the host, each record small.
        let text = try String(contentsOf: log, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.utf8.count < 8192 }, "largest record: \(lines.map(\.utf8.count).max() ?? 0) bytes")
        #expect(text.contains("…[shortened from 1000000 scalars]"), "the accepted large value is kept as a prefix and its length")
        #expect(!text.contains("987654") && !text.contains("yyyyyyyyyy"), "nothing of the refused requests reached the host")
    }

    @Test("the log rotates at 8 MiB: FILE.1 appears and FILE starts again")
    func rotation() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-rotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let log = root.appendingPathComponent("bridge.log")
        let live = try LiveApp(["--allow-eval", "--bridge-log", log.path])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        // 160 messages whose records stay whole at about 60 KB each (60 arrays of 4 strings of
        // 250 scalars, each under the logged bounds): about 9.6 MB of records.
        let script = """
        (async () => {
          const groups = Array.from({ length: 60 }, () => Array.from({ length: 4 }, () => "r".repeat(250)));
          for (let i = 0; i < 160; i++) {
            await window.webkit.messageHandlers.tilecastNative.postMessage({ version: 1, type: "config/get", payload: { groups } });
          }
          window.__result = "sent";
        })()
        """
        #expect(try Self.run(app, script, timeout: 120) as? String == "sent")
        let rotated = root.appendingPathComponent("bridge.log.1")
        let size = { (url: URL) in ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? -1 }
        #expect(size(rotated) > 7 << 20 && size(rotated) <= 8 << 20, "bridge.log.1 is \(size(rotated)) bytes")
        #expect(size(log) > 0 && size(log) < 4 << 20, "bridge.log is \(size(log)) bytes")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("bridge.log.2").path))
        let first = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("{") && first.hasSuffix("}"), "the new file starts with a whole record")
    }
}
