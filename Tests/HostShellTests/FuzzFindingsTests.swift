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
            // The sheet page is reused after its sheet (§6); memory pressure while it waits
            // hidden lets go of it. Once dismissed, it keeps posting five messages at a time while
            // the host lets go of it, telling main each answer it hears, until one is refused.
            let posted = try app.ctl("eval", "--sheet", """
                const bc = window.__sheetChannel = new BroadcastChannel("findings"); const post = window.webkit.messageHandlers.tilecastNative.postMessage;
                const studio = window.tilecastNativeReceiver;
                const haptic = () => post({ version: 1, type: "system/haptic", payload: { feedback: "selection" } })
                  .then((r) => { const code = r === undefined ? "undefined" : (r.ok ? "ok" : r.error.code); bc.postMessage(code); return code; });
                const keepPosting = async () => {
                  for (let i = 0; i < 2000; i++) {
                    const codes = await Promise.all([1, 2, 3, 4, 5].map(haptic));  // five in flight at once
                    if (codes.some((code) => code !== "ok")) return;
                    await new Promise((resolve) => setTimeout(resolve, 5));
                  }
                };
                window.tilecastNativeReceiver = (m) => { const answer = studio(m); if (m.type === "presentation/dismissed") keepPosting(); return answer; };
                true
                """)
            #expect(posted.status == 0, "\(posted.error)")
            #expect(try app.ctl("sheet-dismiss").status == 0)
            _ = try app.state("presentation.shown=null", "presentation.ready=true", "presentation.pageBoots=1")
            _ = try app.evalWhen("window.__heard.includes('ok')")  // posting, and answered, while hidden
            #expect(try app.ctl("memory-pressure").status == 0)
            _ = try app.state("presentation.prepared=false")
            // The page hears every answer, whatever the load: the host keeps the page it let go
            // of (hidden, unreachable) until the replies to what it posted have run in it. Once
            // it was let go of, nothing it posted reached the host: every answer is unavailable.
            var heard: [String] = []
            let arrived = try waitUntil(timeout: 30) {
                heard = try app.ctl("eval", "window.__heard").result as? [String] ?? []
                return heard.contains { $0 != "ok" } && heard.count % 5 == 0
            }
            #expect(arrived, "the discarded sheet page heard only \(heard)")
            // The burst in flight as the page was let go of: refused from the first refusal on.
            let refusals = heard.drop { $0 == "ok" }
            #expect(heard.count % 5 == 0 && refusals.count >= 1 && refusals.count <= 5, "\(heard)")
            #expect(refusals.allSatisfy { $0 == "unavailable" }, "an answer of the host's after the let go: \(heard)")
            // Then it is released: main's page is all that is left (prewarming pauses after pressure).
            Self.expectLetGoPageReleased(app, pages: 1)
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

    /// Waits until only `pages` pages are alive — main's and the sheet page (web views and
    /// content managers): a page the host let go of was released.
    static func expectLetGoPageReleased(_ app: RunningApp, pages: Int = 2) {
        var objects: [String: Int] = [:]
        let freed = waitUntil(timeout: 30) {
            objects = app.currentState().flatMap { stateValue($0, "objects") as? [String: Int] } ?? [:]
            return objects["webViews"] == pages && objects["contentManagers"] == pages
        }
        #expect(freed, "the page let go of was not released: \(objects)")
    }

    @Test("a sheet dismissed while its page waits on WebKit's own dialog: the dialog ends, the page waits for the next sheet, main goes on")
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
            // Hiding the page ends its dialog as dismissed: its script goes on (and says so),
            // main's page answers again, and the same page waits for the next sheet (§6).
            let heard = try app.evalWhen("window.__heard.length ? window.__heard : null") as? [String]
            #expect(heard == ["confirm false"], "\(heard ?? [])")
            _ = try app.state("presentation.shown=null", "presentation.ready=true", "presentation.pageBoots=1")
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
