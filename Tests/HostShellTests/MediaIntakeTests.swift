import Foundation
import Testing

/// Native media intake end to end: Studio's Upload, files supplied through the control
/// interface, the resumable upload protocol against the reference server, and what Studio hears.
@Suite("Media intake: uploads with the app's credential (real WebKit, real server)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct MediaIntakeTests {
    struct Library {
        let setup: SignInFlowTests.Setup
        let files: URL

        init(store: String = SignInFlowTests.defaultStore, serverOptions: [String] = []) throws {
            setup = try SignInFlowTests.Setup(serverOptions: ["--auto-approve"] + serverOptions, store: store)
            files = setup.home.root.appendingPathComponent("files")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            // Signed in and back on Studio's start page (not the sign-in page in between).
            // The catalog too: a tap needs it, and it can come a little after negotiation.
            _ = try setup.app.state("screen=page", "auth.credential=true", "negotiated=true", "url=\"\(setup.server.url)/\"",
                                    "navigation.selected=overview")
            #expect(try setup.app.ctl("tap", "media").status == 0)
            _ = try setup.app.state("navigation.selected=media")
        }

        /// A file of `size` pseudo-random bytes; returns its path and its FNV-1a checksum as the server computes it.
        func file(_ name: String, size: Int) throws -> (path: String, checksum: String) {
            var generator = SystemRandomNumberGenerator()
            var bytes = [UInt8](repeating: 0, count: size)
            for i in bytes.indices { bytes[i] = generator.next() }
            let url = files.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return (url.path, String(hash, radix: 16))
        }

        func faults(_ faults: [String: [Int]]) throws {
            #expect(try HTTP.request("POST", setup.server.url + "/__test/upload-faults", json: faults).status == 204)
        }

        /// Picks `paths`, presses Studio's Upload, and waits until the app has finished the intake
        /// and Studio shows the outcome. With `cancelWhen` (state conditions), presses Cancel as
        /// soon as they hold. Returns the server's upload log once `logged` holds for it (a
        /// DELETE is not awaited by the app, so it may land a moment after the intake ended).
        func upload(_ paths: [String], expect outcome: String, cancelWhen: [String] = [],
                    logged: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
            #expect(try setup.app.ctl(["pick-files"] + paths).status == 0)
            #expect(try setup.app.ctl("eval", #"document.getElementById("upload").click(); true"#).status == 0)
            if !cancelWhen.isEmpty {
                let wait = try setup.app.ctl(["wait"] + cancelWhen + ["--timeout", "30"])
                #expect(wait.status == 0, "\(wait.error)")
                #expect(try setup.app.ctl("upload-cancel").status == 0)
            }
            _ = try setup.app.state("uploads.active=false", "uploads.last.outcome=\(outcome)", timeout: 60)
            let heard = try setup.app.evalUntil(#"document.getElementById("media-status").dataset.outcome ?? null"#) { $0 as? String == outcome }
            #expect(heard as? String == outcome, "Studio heard \(heard ?? "nothing")")
            let deadline = Date().addingTimeInterval(10)
            var log: [String: Any]
            repeat { log = try HTTP.json(setup.server.url + "/__test/uploads") } while !logged(log) && Date() < deadline
            return log
        }

        func finish() { setup.finish() }
    }

    @Test("small, empty, exactly-2-MiB and multi-chunk files arrive intact; Studio's library refetches", arguments: SignInFlowTests.stores)
    func sizes(_ store: String) throws {
        let library = try Library(store: store)
        defer { library.finish() }
        let files = [try library.file("small.png", size: 10), try library.file("empty.jpg", size: 0),
                     try library.file("exact.png", size: 2 << 20), try library.file("multi.mp4", size: 5 * (1 << 20) + 123)]
        let log = try library.upload(files.map(\.path), expect: "completed")
        let assets = try #require(log["assets"] as? [[String: Any]])
        #expect(assets.map { $0["filename"] as? String } == ["small.png", "empty.jpg", "exact.png", "multi.mp4"])
        #expect(assets.map { $0["checksum"] as? String } == files.map(\.checksum), "every byte arrived, in order")
        let requests = try #require(log["requests"] as? [[String: Any]])
        let patches = requests.filter { ($0["step"] as? String) == "patch" }.count
        #expect(patches == 5, "2 MiB chunks: 1 + 0 + 1 + 3")
        #expect(requests.allSatisfy { $0["cookie"] as? Bool == false }, "uploads carry the credential, never Studio's cookie")
        let shown = #"[document.getElementById("media-status").textContent, document.getElementById("media-list").dataset.count]"#
        let status = try library.setup.app.evalUntil(shown) { $0 as? [String] == ["Upload completed: 4 file(s).", "4"] }
        #expect(status as? [String] == ["Upload completed: 4 file(s).", "4"], "Studio's library refetched")
    }

    @Test("an injected 409 is resynced with HEAD, and injected 5xx answers are retried")
    func resyncAndRetry() throws {
        let library = try Library()
        defer { library.finish() }
        let file = try library.file("clip.mp4", size: 3 << 20)
        try library.faults(["create": [503], "patch": [409, 500, 502], "complete": [503], "asset": [500]])
        let log = try library.upload([file.path], expect: "completed")
        let steps = try #require(log["requests"] as? [[String: Any]]).map { "\($0["step"]!):\($0["status"]!)" }
        #expect(steps.contains("head:200"), "the 409 was resynced: \(steps)")
        #expect(steps.filter { $0 == "create:503" }.count == 1 && steps.contains("create:201"))
        #expect(steps.contains("patch:500") && steps.contains("patch:502") && steps.contains("complete:200"))
        #expect((log["assets"] as? [[String: Any]])?.first?["checksum"] as? String == file.checksum)
    }

    @Test("cancelling mid-upload deletes the upload at the server, and nothing half-imported shows")
    func cancel() throws {
        let library = try Library()
        defer { library.finish() }
        let file = try library.file("long.mp4", size: 6 << 20)
        // The first chunk goes through, the second keeps failing (retried 0.4 s, 0.8 s, … later):
        // Cancel is pressed once the first chunk is in and the second waits to be retried.
        try library.faults(["patch": [0, 503, 503, 503, 503]])
        let log = try library.upload([file.path], expect: "cancelled", cancelWhen: ["uploads.batch.bytes=\(2 << 20)", "uploads.batch.waiting=retry"],
                                     logged: { ($0["deleted"] as? [String])?.isEmpty == false })
        let steps = try #require(log["requests"] as? [[String: Any]]).map { "\($0["step"]!):\($0["status"]!)" }
        #expect(steps.prefix(3) == ["create:201", "patch:204", "patch:503"] && steps.last == "delete:204"
                && steps.dropFirst(3).dropLast().allSatisfy { $0 == "patch:503" }, "cancelled while a chunk waited to be retried: \(steps)")
        #expect((log["deleted"] as? [String])?.count == 1, "the server received DELETE")
        #expect((log["assets"] as? [Any])?.isEmpty == true)
        #expect((log["open"] as? [Any])?.isEmpty == true)
        let count = try library.setup.app.evalUntil(#"document.getElementById("media-list").dataset.count"#) { $0 as? String == "0" }
        #expect(count as? String == "0")
        let state = try library.setup.app.state("uploads.active=false")
        #expect(((state["uploads"] as? [String: Any])?["last"] as? [String: Any])?["notice"] as? String == "Upload cancelled.")
    }

    @Test("one of several files failing gives partial, with the count of those uploaded")
    func partial() throws {
        let library = try Library()
        defer { library.finish() }
        let first = try library.file("refused.png", size: 1000)
        let second = try library.file("fine.png", size: 2000)
        try library.faults(["complete": [415]])
        let log = try library.upload([first.path, second.path], expect: "partial")
        #expect((log["assets"] as? [[String: Any]])?.map { $0["filename"] as? String } == ["fine.png"])
        let status = try library.setup.app.evalUntil(#"document.getElementById("media-status").textContent"#) { $0 as? String == "Upload partial: 1 file(s)." }
        #expect(status as? String == "Upload partial: 1 file(s).")
        #expect((log["deleted"] as? [String])?.count == 1, "the refused upload was not left open")
        let last = try #require((try library.setup.app.state("uploads.active=false")["uploads"] as? [String: Any])?["last"] as? [String: Any])
        #expect(last["notice"] as? String == "refused.png was not uploaded: the server does not accept this kind of file.")
    }

    @Test("without an app credential (an older server), native intake is unavailable and Studio keeps its uploader")
    func unavailableWithoutCredential() throws {
        let setup = try SignInFlowTests.Setup(serverOptions: ["--auto-approve", "--legacy-auth"])
        defer { setup.finish() }
        _ = try setup.app.state("screen=page", "auth.studioSessionOnly=true")
        let ask = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "system/media-intake-status", payload: {}}).then((r) => { window.__status = r; }); true"#
        #expect(try setup.app.ctl("eval", ask).status == 0)
        let reply = try #require(try setup.app.evalUntil("window.__status ?? null") { $0 is [String: Any] } as? [String: Any])
        #expect((reply["payload"] as? [String: Any])?["available"] as? Bool == false)
        let intake = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "system/media-intake", payload: {requestId: "r1"}}).then((r) => { window.__intake = r; }); true"#
        #expect(try setup.app.ctl("eval", intake).status == 0)
        let refused = try #require(try setup.app.evalUntil("window.__intake ?? null") { $0 is [String: Any] } as? [String: Any])
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable")
    }
}

private extension RunningApp {
    /// Evaluates `script` in Studio's page again and again (each control round trip paces the
    /// next) until its value satisfies `holds` or `timeout` seconds pass; returns the last value.
    func evalUntil(_ script: String, timeout: Double = 15, _ holds: (Any?) -> Bool) throws -> Any? {
        let deadline = Date().addingTimeInterval(timeout)
        var value: Any?
        repeat {
            value = try ctl("eval", script).result
            if holds(value) { return value }
        } while Date() < deadline
        return value
    }
}
