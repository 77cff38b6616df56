import HostCore
import Testing

@Suite("Fleet WebDriver: sessions as apps, one at a time, website data cleared between them")
struct FleetWebDriverTests {
    let kinds = ["capacitor", "open"]

    @Test("--webdriver reads a loopback address and the app after --; anything else is refused with the reason")
    func options() throws {
        let read = try FleetWebDriverOptions.parse(address: "127.0.0.1:9222", app: ["capacitor", "--web-dir", "www"], kinds: kinds)
        #expect(read == FleetWebDriverOptions(address: "127.0.0.1:9222", kind: "capacitor", arguments: ["--web-dir", "www"]))
        #expect(try FleetWebDriverOptions.parse(address: "[::1]:9222", app: ["open"], kinds: kinds)?.kind == "open")
        #expect(try FleetWebDriverOptions.parse(address: nil, app: nil, kinds: kinds) == nil, "no --webdriver: no sessions")

        func refusal(_ address: String?, _ app: [String]?) -> String {
            do throws(ControlError) { _ = try FleetWebDriverOptions.parse(address: address, app: app, kinds: kinds); return "" } catch { return error.message }
        }
        #expect(refusal("0.0.0.0:9222", ["capacitor"]).contains("not a loopback address"))
        #expect(refusal("192.168.1.2:9222", ["capacitor"]).contains("not a loopback address"))
        #expect(refusal("127.0.0.1:0", ["capacitor"]).contains("port"))
        #expect(refusal("127.0.0.1:9222", nil).contains("needs the app each session opens"))
        #expect(refusal("127.0.0.1:9222", []).contains("needs the app each session opens"))
        #expect(refusal("127.0.0.1:9222", ["kiosk"]).contains("not kiosk"))
        #expect(refusal(nil, ["capacitor"]).contains("give --webdriver ADDRESS"))
        #expect(refusal("127.0.0.1:9222", ["capacitor", "--automation"]).contains("leave --automation out"))
        #expect(refusal("127.0.0.1:9222", ["capacitor", "--control", "x"]).contains("--control is not for an app in a fleet"))
        #expect(refusal("127.0.0.1:9222", ["capacitor", "--locale", "fr"]).contains("--locale"))
    }

    @Test("the words after -- are another command's: the fleet's option check stops there")
    func optionsStopAtDoubleDash() {
        let fleet = CommandSpec("fleet", usage: [], summary: "", options: [OptionSpec("--control", value: "SOCKET", ""), OptionSpec("--webdriver", value: "ADDRESS", "")])
        #expect(CommandLineRules.unknownOption(in: ["--control", "s", "--webdriver", "127.0.0.1:1", "--", "capacitor", "--web-dir", "www"], of: fleet) == nil)
        #expect(CommandLineRules.unknownOption(in: ["--control", "s", "--web-dir", "www", "--", "capacitor"], of: fleet)?.contains("--web-dir") == true,
                "before -- the fleet's own options are still checked")
    }

    @Test("a session's page request opens its app; deleting it (the page closes) closes that app and clears the data; the next one waits for the clearing")
    func sequentialSessions() {
        var sessions = FleetSessions()
        #expect(sessions.acceptsConnection)
        #expect(sessions.reduce(.started(session: "a")) == [])
        #expect(!sessions.acceptsConnection, "a second driver would replace session a")
        #expect(sessions.reduce(.pageRequested(session: "a")) == [.open(session: "a")])
        #expect(sessions.reduce(.opened(session: "a", app: "1")) == [])
        #expect(sessions.phase == .driving(session: "a", app: "1"))
        #expect(sessions.reduce(.pageRequested(session: "a")).first.map { if case .refusePage = $0 { true } else { false } } == true,
                "a second window for the session is refused")
        #expect(sessions.reduce(.appEnded(app: "2")) == [], "another app of the fleet closing is not the session's")

        #expect(sessions.reduce(.appEnded(app: "1")) == [.close(app: "1"), .clearData])
        #expect(sessions.phase == .closed(session: "a") && sessions.clearing)
        #expect(sessions.acceptsConnection, "the driver deleting session a may start the next one")
        #expect(sessions.reduce(.appEnded(app: "1")) == [], "told twice (the fleet's own close): once is enough")

        // The next session asks for its page before the clearing answered: it waits.
        #expect(sessions.reduce(.started(session: "b")) == [])
        #expect(sessions.reduce(.sessionGone(session: "a")) == [], "the old session going later touches nothing of b")
        #expect(sessions.reduce(.pageRequested(session: "b")) == [.awaitClear(session: "b")])
        #expect(sessions.reduce(.cleared) == [])
        #expect(sessions.reduce(.pageRequested(session: "b")) == [.open(session: "b")])
        #expect(sessions.reduce(.opened(session: "b", app: "2")) == [])
        #expect(sessions.served == 2)
    }

    @Test("the data of a session could not be cleared: no later session gets an app, and the reason is said and listed")
    func clearingFailed() {
        var sessions = FleetSessions()
        _ = sessions.reduce(.started(session: "a"))
        _ = sessions.reduce(.pageRequested(session: "a"))
        _ = sessions.reduce(.opened(session: "a", app: "1"))
        #expect(sessions.reduce(.appEnded(app: "1")) == [.close(app: "1"), .clearData])
        let failed = sessions.reduce(.clearFailed(reason: "disk full"))
        #expect(failed.count == 1 && !sessions.clearing && sessions.clearFailure == "disk full")
        _ = sessions.reduce(.started(session: "b"))
        let answer = sessions.reduce(.pageRequested(session: "b"))
        guard case .refusePage(let session, let reason)? = answer.first, answer.count == 1 else {
            Issue.record("session b got \(answer), not a refusal"); return
        }
        #expect(session == "b" && reason.contains("disk full") && reason.contains("Start another fleet"))
        #expect(sessions.json.objectValue?["clearFailure"] == .string("disk full"))
    }

    @Test("a driver that goes without deleting its session: WebKit ends it, its app closes and the data is cleared")
    func driverGone() {
        var sessions = FleetSessions()
        _ = sessions.reduce(.started(session: "a"))
        _ = sessions.reduce(.pageRequested(session: "a"))
        _ = sessions.reduce(.opened(session: "a", app: "3"))
        #expect(sessions.reduce(.sessionGone(session: "a")) == [.close(app: "3"), .clearData])
        #expect(sessions.phase == .idle && sessions.clearing)
        #expect(sessions.reduce(.appEnded(app: "3")) == [], "its close, reported back, is not a second end")
        _ = sessions.reduce(.cleared)
        #expect(!sessions.clearing)

        // A session that never asked for a page leaves nothing to close.
        _ = sessions.reduce(.started(session: "b"))
        #expect(sessions.reduce(.sessionGone(session: "b")) == [])
        #expect(sessions.phase == .idle)
    }

    @Test("a second session WebKit started anyway has replaced the first: the first's app is closed, said so, and the data cleared")
    func replaced() {
        var sessions = FleetSessions()
        _ = sessions.reduce(.started(session: "a"))
        _ = sessions.reduce(.pageRequested(session: "a"))
        _ = sessions.reduce(.opened(session: "a", app: "1"))
        let effects = sessions.reduce(.started(session: "b"))
        #expect(effects.contains(.close(app: "1")) && effects.contains(.clearData))
        #expect(effects.contains { if case .tell(let text) = $0 { text.contains("replaced") } else { false } })
        #expect(sessions.phase == .started(session: "b"))
        #expect(sessions.reduce(.pageRequested(session: "a")).first.map { if case .refusePage = $0 { true } else { false } } == true,
                "the replaced session gets no page")
        #expect(sessions.reduce(.opened(session: "a", app: "9")) == [.close(app: "9")], "an app opened for a stale session is closed")
    }

    @Test("an app that did not open leaves the session without a page, said so")
    func openFailed() {
        var sessions = FleetSessions()
        _ = sessions.reduce(.started(session: "a"))
        _ = sessions.reduce(.pageRequested(session: "a"))
        let effects = sessions.reduce(.openFailed(session: "a", reason: "the web directory www has no index.html"))
        #expect(effects == [.tell("WebDriver session a: its app did not open: the web directory www has no index.html")])
        #expect(sessions.phase == .started(session: "a"))
        #expect(sessions.json.objectValue?["state"] == .string("started"))
    }

    @Test("a WebDriver pool's slots go to sessions' apps only, and a throw-away pool's never to them")
    func poolPurpose() {
        var pool = FleetPool(size: 1, forWebDriver: true)
        if case .start(let id) = pool.refill(appsOpen: 0, appLimit: 64, now: 0) { pool.warmed(id) }
        #expect(pool.take(throwAway: true, now: 10) == nil, "a fleet-ctl throw-away open: its view is not built for automation")
        #expect(pool.take(throwAway: true, webDriver: true, now: 10) == "p1")
        #expect(pool.json.objectValue?["serves"] == .string("webdriver"))

        var plain = FleetPool(size: 1)
        if case .start(let id) = plain.refill(appsOpen: 0, appLimit: 64, now: 0) { plain.warmed(id) }
        #expect(plain.take(throwAway: true, webDriver: true, now: 10) == nil)
        #expect(plain.take(throwAway: true, now: 10) == "p1")
    }
}
