import Foundation
import Testing

/// What the live fuzzer and soak found (issue 15 item 7), one test each, in the real app.
@Suite("Fuzz findings (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct FuzzFindingsTests {
    /// Page script: `raw(text)` hands the relay raw JSON text as a page can (learning the
    /// request event's name from one postMessage), resolving with the parsed reply.
    static let rawSender = """
        const post = window.webkit.messageHandlers.tilecastNative.postMessage;
        const dispatch = window.dispatchEvent; let name;
        window.dispatchEvent = function (e) { if (!name && e.type.startsWith("hostshell-request-")) name = e.type; return dispatch.call(this, e); };
        await post({ version: 1, type: "config/get", payload: {} });
        window.dispatchEvent = dispatch;
        const waiting = new Map(); let seq = 7e12;
        addEventListener(name.replace("request", "response"), (e) => { const d = JSON.parse(e.detail); const r = waiting.get(d.seq); if (r) r(JSON.parse(d.reply)); });
        const raw = (text) => new Promise((resolve) => { const s = ++seq; waiting.set(s, resolve); dispatch.call(window, new CustomEvent(name, { detail: s + ":" + text })); });
        const code = (r) => r.ok ? "ok" : r.error.code;
        """

    func withApp(_ body: (RunningApp, PageScript) throws -> Void) throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        _ = try live.app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
        try body(live.app, PageScript(app: live.app))
    }

    @Test("a NUL in a message's text does not cut it short: what follows it still counts")
    func nulIsNotAnEnd() throws {
        try withApp { _, page in
            let result = try page.run(Self.rawSender + """
                return { trailing: code(await raw('{"version":1,"type":"config/get","payload":{}}\\u0000{"x":1}')),
                         escaped: code(await post({ version: 1, type: "navigation/state", payload: { activeDestinationId: null, path: "/a\\u0000b" } })) };
                """)
            #expect(result["trailing"] as? String == "malformed", "text after a NUL was dropped and the rest accepted: \(result)")
            #expect(result["escaped"] as? String == "ok", "\(result)")
        }
    }

    @Test("a lone surrogate in a string becomes U+FFFD, as toWellFormed() does: the message is decoded")
    func loneSurrogateInAString() throws {
        try withApp { _, page in
            let result = try page.run(Self.rawSender + """
                return { high: code(await raw('{"version":1,"type":"system/haptic","payload":{"feedback":"selection","note":"\\uD800"}}')),
                         low: code(await raw('{"version":1,"type":"navigation/state","payload":{"activeDestinationId":null,"path":"/x\\uDFFFy"}}')),
                         posted: code(await post({ version: 1, type: "system/haptic", payload: { feedback: "selection", note: "\\uDC00" } })) };
                """)
            #expect(result["high"] as? String == "ok", "\(result)")
            #expect(result["low"] as? String == "ok", "\(result)")
            #expect(result["posted"] as? String == "ok", "\(result)")
        }
    }

    @Test("a lone-surrogate id is answered, with the id as toWellFormed() makes it")
    func loneSurrogateId() throws {
        try withApp { _, page in
            let result = try page.run(Self.rawSender + """
                const a = await raw('{"version":1,"id":"\\uD800","type":"config/get","payload":{}}');
                const b = await post({ version: 1, id: "x\\uDC00", type: "config/get", payload: {} });
                return { raw: code(a), rawId: a.id === "\\uFFFD", posted: code(b), postedId: b.id === "x\\uFFFD" };
                """)
            #expect(result["raw"] as? String == "ok" && result["rawId"] as? Bool == true, "\(result)")
            #expect(result["posted"] as? String == "ok" && result["postedId"] as? Bool == true, "\(result)")
        }
    }

    @Test("a message from a sheet page the host has let go of is answered unavailable, and the page hears it before it is released")
    func discardedSheetPage() throws {
        try withApp { app, page in
            try Self.openSheet("going", title: "Going", listeningOn: "findings", app, page)
            // The host's own account of every answer: the bridge events (each message with its reply).
            let reader = try ObservabilityTests.EventReader(app, ["--kind", "bridge", "--timeout", "30"])
            // The sheet closes itself, and goes on posting while the host lets go of its page.
            let posted = try app.ctl("eval", "--sheet", """
                const bc = window.__sheetChannel = new BroadcastChannel("findings"); const post = window.webkit.messageHandlers.tilecastNative.postMessage;
                const tell = (what) => (r) => bc.postMessage(what + " " + (r === undefined ? "undefined" : (r.ok ? "ok" : r.error.code)));
                post({ version: 1, type: "presentation/close", payload: { presentationId: "going" } }).then(tell("close"));
                for (let i = 0; i < 5; i++) post({ version: 1, type: "system/haptic", payload: { feedback: "selection" } }).then(tell("after"));
                true
                """)
            #expect(posted.status == 0, "\(posted.error)")
            // The host's account, from its event stream: it answered the close, and nothing the
            // page posted after it reached the host (the relay answers those itself) — read until
            // the next sheet page, prewarmed once this one is let go, says it is ready.
            var closed = false
            let events = reader.events { event in
                guard event["context"] as? String == "presentation", let type = (event["message"] as? [String: Any])?["type"] as? String else { return false }
                if type == "presentation/close" { closed = true }
                return closed && type == "presentation/ready"
            }
            let answers = events.filter { $0["context"] as? String == "presentation" && $0["dir"] as? String == "studio-to-host" }
                .map { event -> String in
                    let type = (event["message"] as? [String: Any])?["type"] as? String ?? "?"
                    let reply = event["reply"] as? [String: Any]
                    return type + " " + (reply?["ok"] as? Bool == true ? "ok" : ((reply?["error"] as? [String: Any])?["code"] as? String ?? "none"))
                }
            #expect(answers.first == "presentation/close ok", "the host's answers to sheet pages: \(answers)")
            #expect(!answers.contains { $0.hasPrefix("system/haptic") }, "a message from the page let go of reached the host: \(answers)")
            // The page hears every answer, whatever the load: the host keeps the page it let go
            // of (hidden, unreachable) until the replies to what it posted have run in it.
            var heard: [String] = []
            let arrived = try waitUntil(timeout: 30) {
                heard = try app.ctl("eval", "window.__heard").result as? [String] ?? []
                return heard.count >= 6
            }
            #expect(arrived, "the discarded sheet page heard only \(heard)")
            #expect(heard.sorted() == ["after unavailable", "after unavailable", "after unavailable", "after unavailable",
                                       "after unavailable", "close ok"], "\(heard)")
            // Then it is released: main's page and the next sheet page are all that is left.
            Self.expectLetGoPageReleased(app)
        }
    }

    /// Opens a sheet on the lobby preview and waits until it is revealed. Main collects what the
    /// sheet page hears over the BroadcastChannel `channel` into `window.__heard` (the sheet's
    /// document is gone soon after); both ends are kept on `window`, out of the collector's way.
    static func openSheet(_ id: String, title: String, listeningOn channel: String, _ app: RunningApp, _ page: PageScript) throws {
        _ = try page.run("""
            window.__heard = []; window.__channel = new BroadcastChannel("\(channel)"); window.__channel.onmessage = (e) => window.__heard.push(e.data);
            return await window.webkit.messageHandlers.tilecastNative.postMessage({ version: 1, type: "presentation/open",
              payload: { presentationId: "\(id)", title: "\(title)", path: "/__native/modal/screens/lobby-north/preview" } });
            """)
        _ = try app.state("presentation.shown.presentationId=\"\(id)\"", "presentation.shown.revealed=true", timeout: 60)
    }

    /// Waits until only main's page and the next sheet page are alive (web views and content
    /// managers): the page the host let go of was released.
    static func expectLetGoPageReleased(_ app: RunningApp) {
        var objects: [String: Int] = [:]
        let freed = waitUntil(timeout: 30) {
            objects = app.currentState().flatMap { stateValue($0, "objects") as? [String: Int] } ?? [:]
            return objects["webViews"] == 2 && objects["contentManagers"] == 2
        }
        #expect(freed, "the page let go of was not released: \(objects)")
    }

    @Test("a sheet dismissed while its page waits on WebKit's own dialog: the dialog ends, the page is released, main goes on")
    func sheetWaitingOnDialog() throws {
        try withApp { app, page in
            try Self.openSheet("asking", title: "Asking", listeningOn: "asking", app, page)
            // The sheet page asks confirm() (WebKit shows its own dialog; the page's process, main's
            // too, waits on it) right after a haptic, which tells the host it got that far.
            let asked = try app.ctl("eval", "--sheet", """
                const bc = window.__sheetChannel = new BroadcastChannel("asking");
                setTimeout(() => {
                  window.webkit.messageHandlers.tilecastNative.postMessage({ version: 1, type: "system/haptic", payload: { feedback: "warning" } });
                  bc.postMessage("confirm " + confirm("Leave?"));
                }, 0);
                true
                """)
            #expect(asked.status == 0, "\(asked.error)")
            _ = try app.stateWhen("system.haptics.0")
            #expect(try app.ctl("sheet-dismiss").status == 0)
            // Letting go of the page ends its dialog as dismissed: its script goes on (and says
            // so), main's page answers again, and the page is released.
            let heard = try app.evalWhen("window.__heard.length ? window.__heard : null") as? [String]
            #expect(heard == ["confirm false"], "\(heard ?? [])")
            Self.expectLetGoPageReleased(app)
        }
    }

    @Test("an open menu closes when an alert or a sheet comes up; the armed menu's close is reported dismissed (a trigger's never is, §6)")
    func menusCloseForNewSurfaces() throws {
        try withApp { app, page in
            let register = """
                window.__told ??= [];
                if (!window.__hooked) { const studio = window.tilecastNativeReceiver; window.tilecastNativeReceiver = (m) => { window.__told.push(m.type + " " + (m.payload.menuId ?? "")); return studio(m); }; window.__hooked = true; }
                return await window.webkit.messageHandlers.tilecastNative.postMessage({ version: 1, type: "action-menu/arm",
                  payload: { menuId: "row", label: "Row", groups: [{ items: [{ id: "rename", label: "Rename" }] }] } });
                """
            for (surface, message) in [("alert", #"{ version: 1, type: "alert/present", payload: { alertId: "q", title: "Sure?", actions: [{ id: "yes", label: "Yes" }] } }"#),
                                       ("sheet", #"{ version: 1, type: "presentation/open", payload: { presentationId: "over", title: "Over", path: "/__native/modal/screens/cafeteria/preview" } }"#)] {
                #expect(try page.run(register)["ok"] as? Bool == true)
                try app.openMenu("row")
                let shown = try page.run("window.__told = []; return await window.webkit.messageHandlers.tilecastNative.postMessage(\(message));")
                #expect(shown["ok"] as? Bool == true, "\(surface): \(shown)")
                let state = surface == "alert" ? try app.state("alert.alertId=\"q\"") : try app.state("presentation.shown.presentationId=\"over\"")
                #expect(stateValue(state, "menus.open") == nil, "\(surface): the menu stays open over it")
                let told = try app.evalWhen("window.__told.includes('action-menu/dismissed row') ? window.__told : null") as? [String]
                #expect(told != nil, "\(surface): Studio was not told the menu was dismissed")
                if surface == "alert" { #expect(try app.ctl("alert", "yes").status == 0) }
                _ = try app.state("alert=null")
            }
        }
    }

    @Test("sheets and sign-in windows free their web views and content managers")
    func pagesAreFreed() throws {
        try withApp { app, page in
            let done = try page.run("const s = await import('/__test/soak.js'); return await s.sheets({ count: 12 });")
            #expect(done["done"] as? Int == 12, "\(done)")
            for _ in 0..<3 {
                #expect(try app.ctl("sign-in").status == 0)
                _ = try app.state("auth.signingIn=true")
                #expect(try app.ctl("sign-in-cancel").status == 0)
                _ = try app.state("auth.signingIn=false")
            }
            // Main's page and the prewarmed sheet page: two of each once WebKit let go of the rest.
            var objects: [String: Int] = [:]
            let freed = waitUntil(timeout: 30) {
                objects = app.currentState().flatMap { stateValue($0, "objects") as? [String: Int] } ?? [:]
                return objects["webViews"] == 2 && objects["contentManagers"] == 2
            }
            #expect(freed, "still alive after 12 sheets and 3 sign-in windows: \(objects)")
        }
    }
}
