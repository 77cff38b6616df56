import Foundation
import Testing

/// Issue 15 item 7: the live-page fuzzer and the soak, in every CI run. The page itself
/// (fixtures/studio/__test/fuzz.js and soak.js) sends the messages; this drives it in bursts and
/// checks the app after each: it answers `ctl state`, the state holds together, nothing critical
/// was logged (live tests run with G_DEBUG=fatal-criticals, so a critical also ends the process).
/// Bounded by message counts; the seed is printed so a failure can be repeated:
/// `HOSTSHELL_FUZZ_SEED=N scripts/test --filter FuzzSoakTests`. The fuzz and the soak each run
/// their own app and server, so they run side by side (what they add to `scripts/test` is the
/// longer of the two).
@Suite("Live fuzzer and soak (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"))
struct FuzzSoakTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed: UInt32 = environment["HOSTSHELL_FUZZ_SEED"].flatMap { UInt32($0) } ?? UInt32.random(in: 1 ... .max)
    /// Bursts of `burstSize` messages; every third runs in a sheet's page (the presentation context).
    static let bursts = environment["HOSTSHELL_FUZZ_BURSTS"].flatMap { Int($0) } ?? 12
    static let burstSize = 250
    static let sheetCycles = environment["HOSTSHELL_SOAK_SHEETS"].flatMap { Int($0) } ?? 1000
    static let floodSize = 10_000

    @Test("random and mutated messages of every type, in main's page and a sheet's, at full speed")
    func fuzz() throws {
        print("FuzzSoakTests: fuzz seed \(Self.seed) (repeat with HOSTSHELL_FUZZ_SEED=\(Self.seed))")
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        let page = PageScript(app: app)
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
        let loaded = try page.run("const f = await import('/__test/fuzz.js'); window.__corpus = await f.corpus(); return { cases: window.__corpus.length }")
        #expect(loaded["cases"] as? Int == 187, "the corpus's frontendToNative cases: \(loaded)")
        var sent = 0, raw = 0, inSheet = 0, largest = 0
        var codes: [String: Int] = [:]
        for burst in 0..<Self.bursts {
            let sheet = burst % 3 == 2
            if sheet { try openSheet(app, page, id: "sheet-fuzz-\(burst)") }
            let summary = try page.run("""
                const f = await import('/__test/fuzz.js');
                window.__corpus ??= await f.corpus();
                return await f.burst({ seed: \(Self.seed), index: \(burst), count: \(Self.burstSize), corpus: window.__corpus });
                """, sheet: sheet)
            if summary.isEmpty {
                let unanswered = try app.ctl(["eval"] + (sheet ? ["--sheet"] : []) + ["[...(window.__fuzzUnanswered ?? new Map()).values()].slice(0, 5)"])
                Issue.record("burst \(burst) (seed \(Self.seed)): no summary; unanswered: \(unanswered.result ?? unanswered.error)")
            }
            let violations = summary["violations"] as? [String] ?? ["no summary: \(summary)"]
            #expect(violations.isEmpty, "burst \(burst) (seed \(Self.seed)\(sheet ? ", sheet" : "")):\n\(violations.joined(separator: "\n"))")
            let count = summary["sent"] as? Int ?? 0
            #expect(count == Self.burstSize, "burst \(burst) sent \(count) of \(Self.burstSize)")
            sent += count
            raw += summary["raw"] as? Int ?? 0
            largest = max(largest, summary["largest"] as? Int ?? 0)
            if sheet { inSheet += count }
            codes["ok", default: 0] += summary["ok"] as? Int ?? 0
            for (code, n) in summary["codes"] as? [String: Int] ?? [:] { codes[code, default: 0] += n }
            try checkInvariants(app, after: "burst \(burst) (seed \(Self.seed))")
            try settle(app, page)
        }
        // auth/signed-out, kept out of the bursts: the host takes Studio's word, signs the page
        // out and loads it again — a new document that negotiates again.
        #expect(try app.ctl("eval", "window.__before = 1; window.webkit.messageHandlers.tilecastNative.postMessage({ version: 1, type: 'auth/signed-out', payload: {} }); true").status == 0)
        #expect(try app.evalWhen("typeof window.__before === 'undefined'") as? Bool == true, "auth/signed-out did not load the page again")
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
        // Escape-heavy large messages: what they cost (reported, not asserted).
        let heavy = try page.run("const f = await import('/__test/fuzz.js'); return { small: await f.escapeHeavy(20000), large: await f.escapeHeavy(170000) };")
        print("FuzzSoakTests: fuzzed \(sent) messages (\(inSheet) in a sheet's page, \(raw) as forged raw text, largest raw text \(largest) UTF-16 units) "
              + "in \(Self.bursts) bursts; replies \(codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        print("FuzzSoakTests: escape-heavy config/get (control characters, 6 bytes of JSON each): \(heavy)")
        try checkInvariants(app, after: "the fuzz")
    }

    @Test("1,000 sheets opened and closed and a 10,000-message flood, with the web and network processes killed: RSS stays flat")
    func soak() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        let page = PageScript(app: app)
        let pid = app.process.processIdentifier
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
        // Warm up (first sheets load code and caches), then measure.
        let warm = try page.run("const s = await import('/__test/soak.js'); return await s.sheets({ count: 20, from: -20 });")
        #expect(warm["done"] as? Int == 20, "warm-up: \(warm)")
        let before = ProcessTree(root: pid)
        print("FuzzSoakTests: RSS before the soak: \(before.summary)")
        var cycles = 0, waits = 0, chunk = 0
        var faults: [String] = []
        while cycles < Self.sheetCycles {
            let count = min(100, Self.sheetCycles - cycles)
            if chunk == 3 && faults.isEmpty {
                // The web process (main's page and the sheet page share it) dies mid-chunk.
                try startScript(app, "const s = await import('/__test/soak.js'); return await s.sheets({ count: \(count), from: \(cycles) });")
                let reached = try app.evalWhen("window.__soak && window.__soak.done >= 10 ? window.__soak.done : null", timeout: 60) as? Int ?? 0
                let victims = ProcessTree(root: pid).pids("WebKitWebProcess")
                #expect(!victims.isEmpty, "no WebKitWebProcess under the app")
                for victim in victims { kill(victim, SIGKILL) }
                faults.append("killed WebKitWebProcess \(victims) after \(cycles + reached) sheets")
                // WebKit tells the app of the death a moment later (seconds on a loaded machine);
                // until then its state still shows the killed document, negotiated and with a sheet
                // page ready. So first wait for Studio in main's next document (it has no `__soak`;
                // a script run meanwhile into the dead one fails, and is run again).
                #expect(try app.evalWhen("typeof window.__soak === 'undefined' && typeof window.tilecastNativeReceiver === 'function'",
                                         timeout: 60) as? Bool == true, "Studio did not load again after its web process was killed")
                // Recovers by its crash rule (one death: a reload), negotiates again, prewarms again.
                _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
                cycles += reached
            } else {
                let result = try page.run("const s = await import('/__test/soak.js'); return await s.sheets({ count: \(count), from: \(cycles) });")
                #expect((result["violations"] as? [String] ?? ["none"]).isEmpty, "sheets \(cycles)…: \(result)")
                #expect(result["done"] as? Int == count, "sheets \(cycles)…: \(result)")
                cycles += result["done"] as? Int ?? 0
                waits += result["waits"] as? Int ?? 0
                if result["done"] as? Int != count { break }
            }
            chunk += 1
            try checkInvariants(app, after: "\(cycles) sheets")
        }
        let afterSheets = ProcessTree(root: pid)
        print("FuzzSoakTests: RSS after \(cycles) sheets: \(afterSheets.summary)")
        // The flood, with the network process killed while it runs.
        try startScript(app, "const s = await import('/__test/soak.js'); return await s.flood({ count: \(Self.floodSize), seed: \(FuzzSoakTests.seed) });")
        _ = try app.evalWhen("window.__soak && window.__soak.kind === 'flood' && window.__soak.sent >= 2000", timeout: 60)
        let network = ProcessTree(root: pid).pids("WebKitNetworkProcess")
        #expect(!network.isEmpty, "no WebKitNetworkProcess under the app")
        for victim in network { kill(victim, SIGKILL) }
        faults.append("killed WebKitNetworkProcess \(network) during the flood")
        let flood = try awaitScript(app, timeout: 180)
        #expect((flood["violations"] as? [String] ?? ["none"]).isEmpty, "flood: \(flood)")
        #expect(flood["sent"] as? Int == Self.floodSize, "flood: \(flood)")
        try checkInvariants(app, after: "the flood")
        // Recovered: the page loads again (WebKit starts a new network process) and sheets work.
        #expect(try app.ctl("reload").status == 0)
        _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
        let again = try page.run("const s = await import('/__test/soak.js'); return await s.sheets({ count: 5, from: 100000 });")
        #expect(again["done"] as? Int == 5, "sheets after the network process died: \(again)")
        let after = ProcessTree(root: pid)
        print("FuzzSoakTests: RSS after the flood: \(after.summary)")
        print("FuzzSoakTests: \(cycles) sheet cycles (\(waits) opens retried while the next page loaded), \(Self.floodSize) flood messages "
              + "(ok \(flood["ok"] ?? 0), refused \(flood["refused"] ?? 0)); faults injected: \(faults.joined(separator: "; "))")
        #expect(cycles >= Self.sheetCycles)
        // Flat: generous bounds, for a noisy shared machine (the figures are printed above).
        let appGrowth = (after.members.first?.rssKiB ?? 0) - (before.members.first?.rssKiB ?? 0)
        #expect(appGrowth < 96 * 1024, "the app grew by \(appGrowth / 1024) MiB: \(before.summary) → \(after.summary)")
        #expect(after.totalKiB - before.totalKiB < 256 * 1024, "the process tree grew: \(before.summary) → \(after.summary)")
        let objects = stateValue(try #require(app.currentState()), "objects") as? [String: Int] ?? [:]
        #expect((objects["webViews"] ?? 99) <= 3 && (objects["contentManagers"] ?? 99) <= 3, "live WebKit objects after the soak: \(objects)")
    }

    // MARK: - Driving the page

    /// Starts a page script without waiting for it (see `awaitScript`).
    func startScript(_ app: RunningApp, _ body: String) throws {
        let start = "window.__result = undefined; (async () => { \(body) })().then((v) => { window.__result = JSON.stringify(v ?? null); }, "
            + "(e) => { window.__result = JSON.stringify({ error: String(e && e.stack || e) }); }); true"
        let started = try app.ctl("eval", start)
        try #require(started.status == 0, "eval: \(started.error)")
    }

    func awaitScript(_ app: RunningApp, timeout: Double) throws -> [String: Any] {
        let text = try app.evalWhen("window.__result === undefined ? null : window.__result", timeout: timeout)
        return (try? JSONSerialization.jsonObject(with: Data(((text as? String) ?? "null").utf8)) as? [String: Any]) ?? [:]
    }

    /// Opens a sheet from main's page as Studio would, and waits until its page shows it.
    func openSheet(_ app: RunningApp, _ page: PageScript, id: String) throws {
        let opened = try page.run("""
            const message = { version: 1, type: "presentation/open", payload: { presentationId: "\(id)", title: "Fuzz",
              path: "/__native/modal/screens/lobby-north/preview" } };
            for (;;) {
              const reply = await window.webkit.messageHandlers.tilecastNative.postMessage(message);
              if (reply.ok || reply.error.code !== "unavailable") return reply;
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
            """)
        #expect(opened["ok"] as? Bool == true, "presentation/open: \(opened)")
        _ = try app.state("presentation.shown.presentationId=\"\(id)\"", "presentation.shown.revealed=true", timeout: 60)
    }

    /// After a burst: the app answers, shows the page, its state holds together, and nothing
    /// critical was logged.
    func checkInvariants(_ app: RunningApp, after label: String) throws {
        #expect(app.process.isRunning, "\(label): the app ended\(app.diagnosis())")
        let state = try #require(app.currentState(), "\(label): the app does not answer ctl state\(app.diagnosis())")
        #expect(state["screen"] as? String == "page", "\(label): screen \(state["screen"] ?? "?")")
        let criticals = app.criticalsLogged()
        #expect(criticals.isEmpty, "\(label): logged\n\(criticals.joined(separator: "\n"))")
        if stateValue(state, "presentation.shown") != nil, stateValue(state, "presentation.shown.failed") == nil {
            // Only a failed sheet (§6: it stays, with Retry) shows without its page.
            #expect(stateValue(state, "presentation.prepared") as? Bool == true, "\(label): a sheet shows without its page")
        }
        if let open = stateValue(state, "menus.open") as? String {
            let known = [stateValue(state, "menus.armed") as? String].compactMap { $0 } + (stateValue(state, "menus.triggers") as? [String] ?? [])
            #expect(known.contains(open), "\(label): menu \(open) is open but neither armed nor a trigger's")
            #expect(state["alert"] is NSNull && stateValue(state, "system.share.open") == nil,
                    "\(label): a menu is open over another surface: \(state["alert"] ?? "") \(stateValue(state, "system.share.open") ?? "")")
        }
        if let alert = state["alert"] as? [String: Any] {
            #expect((1...3).contains((alert["actions"] as? [Any])?.count ?? 0), "\(label): alert \(alert)")
        }
    }

    /// Closes whatever the burst left open — alert, share panel, scan, menu, sheet — as a person
    /// would, and reloads Studio if the burst withdrew its catalog or capabilities.
    func settle(_ app: RunningApp, _ page: PageScript) throws {
        let quiet = try waitUntil(timeout: 60) {
            guard let state = app.currentState() else { return false }
            var open = false
            if let alert = state["alert"] as? [String: Any], let first = (alert["actions"] as? [[String: Any]])?.first?["id"] as? String {
                try app.ctl("alert", first); open = true
            }
            if stateValue(state, "system.share.open") != nil { try app.ctl("share", "cancel"); open = true }
            if state["qrScan"] as? Bool == true { try app.ctl("scan", "--cancel"); open = true }
            if stateValue(state, "menus.open") != nil { try app.ctl("menu-close"); open = true }
            if let shown = stateValue(state, "presentation.shown") as? [String: Any] {
                open = true
                if shown["dismissible"] as? Bool == true {
                    try app.ctl("sheet-dismiss")
                } else if let id = shown["presentationId"] as? String, let text = String(data: try JSONSerialization.data(withJSONObject: [id]), encoding: .utf8) {
                    try app.ctl("eval", "--sheet", "window.webkit.messageHandlers.tilecastNative.postMessage({ version: 1, type: 'presentation/close', payload: { presentationId: \(text)[0] } }); true")
                }
            }
            return !open
        }
        #expect(quiet, "the burst's surfaces did not close\(app.diagnosis())")
        guard let state = app.currentState() else { return }
        let capabilities = stateValue(state, "studioCapabilities") as? [String] ?? []
        if stateValue(state, "navigation.kind") as? String == "none" || !capabilities.contains("nativePresentations")
            || stateValue(state, "presentation.ready") as? Bool != true {
            #expect(try app.ctl("reload").status == 0)
            _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true", timeout: 60)
        }
    }
}
