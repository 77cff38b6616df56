import CapacitorContract
import HostCore
import Testing

@Suite("capacitor --check: when an app has booted (CapacitorBootCheck)")
struct CapacitorBootCheckTests {
    typealias Check = CapacitorBootCheck

    func reported(_ effects: [Check.Effect]) -> Check.Verdict? {
        effects.compactMap { if case .report(let verdict) = $0 { verdict } else { nil } }.first
    }

    @Test func callsAfterTheLoadAreWaitedForUntilTheBridgeIsQuiet() {
        var check = Check(limit: 30)
        #expect(check.reduce(.start) == [.timer(.start(.limit, after: 30))])
        #expect(check.reduce(.pageShown) == [.waitForPaint], "the load alone reports nothing")
        #expect(check.reduce(.painted(true)) == [.timer(.start(.firstCall, after: Check.firstCallWait))])
        let first = check.reduce(.bridgeCall)
        #expect(first == [.timer(.cancel(.firstCall)), .timer(.start(.quiet, after: Check.quiet)), .timer(.start(.settleLimit, after: Check.settleLimit))])
        #expect(check.reduce(.bridgeCall) == [.timer(.start(.quiet, after: Check.quiet))], "each call restarts the quiet wait")
        #expect(check.reduce(.timerFired(.firstCall)).isEmpty, "a cancelled timer's late fire is ignored")
        let done = check.reduce(.timerFired(.quiet))
        #expect(reported(done) == .booted && check.verdict == .booted && check.calls == 2)
        #expect(check.timers.running.isEmpty, "every timer stopped with the report")
        #expect(check.reduce(.bridgeCall).isEmpty && check.reduce(.errorShown).isEmpty, "one report")
    }

    @Test func callsDuringTheLoadSettleOnceThePageShows() {
        var check = Check(limit: 30)
        _ = check.reduce(.start)
        #expect(check.reduce(.bridgeCall).isEmpty && check.reduce(.bridgeCall).isEmpty, "before the page shows, calls are counted")
        #expect(check.reduce(.pageShown) == [.timer(.start(.quiet, after: Check.quiet)), .timer(.start(.settleLimit, after: Check.settleLimit))])
        #expect(check.reduce(.painted(true)).isEmpty)
        #expect(reported(check.reduce(.timerFired(.quiet))) == .booted)
    }

    @Test func aBusyBridgeIsReportedAtTheSettleLimit() {
        var check = Check(limit: 30)
        _ = check.reduce(.start); _ = check.reduce(.pageShown); _ = check.reduce(.bridgeCall)
        for _ in 0..<20 { _ = check.reduce(.bridgeCall) }
        #expect(reported(check.reduce(.timerFired(.settleLimit))) == .booted)
    }

    @Test func anAppWithoutBridgeCallsIsReportedAfterItsFirstPaintAndTheWait() {
        var check = Check(limit: 30)
        _ = check.reduce(.start); _ = check.reduce(.pageShown)
        _ = check.reduce(.painted(false))  // did not paint within the glue's wait: still counted
        #expect(check.timers.isRunning(.firstCall))
        #expect(reported(check.reduce(.timerFired(.firstCall))) == .noBridgeCall)
        #expect(Check.Verdict.noBridgeCall.passed)
    }

    @Test func errorsAndTheLimitFail() {
        var error = Check(limit: 30)
        _ = error.reduce(.start)
        #expect(reported(error.reduce(.errorShown)) == .error && !Check.Verdict.error.passed)
        var nothing = Check(limit: 5)
        _ = nothing.reduce(.start)
        #expect(reported(nothing.reduce(.timerFired(.limit))) == .timedOut && !Check.Verdict.timedOut.passed)
        var busy = Check(limit: 5)
        _ = busy.reduce(.start); _ = busy.reduce(.pageShown)
        #expect(reported(busy.reduce(.timerFired(.limit))) == .stillBusy && Check.Verdict.stillBusy.passed)
    }

    @Test func theReportSaysWhatTheAppDid() {
        let console: [JSONValue] = [["level": "log", "message": "hello"], ["level": "error", "message": "boom"],
                                    ["level": "js.error", "message": "TypeError: x"]]
        let report = Check.report(verdict: .booted, seconds: 1.234, calls: ["App.getInfo": 1], console: console, unimplemented: ["LiveView.start": 1])
        #expect(report.objectValue?["verdict"] == "booted")
        #expect(report.objectValue?["seconds"] == .number(1.2))
        #expect(report.objectValue?["consoleErrors"]?.arrayValue?.count == 2, "errors and script errors, not logs")
        #expect(report.objectValue?["unimplemented"] == ["LiveView.start": 1])
        let line = Check.summary(verdict: .booted, seconds: 1.234, calls: ["App.getState": 2, "App.getInfo": 1], consoleErrors: 1, unimplemented: ["LiveView.start": 1])
        #expect(line == "booted after 1.2 s: 3 plugin calls (App.getInfo, App.getState ×2), 1 console error, 1 unimplemented call (LiveView.start)")
    }

    @Test func theBridgeCountsUnimplementedCalls() {
        var bridge = CapacitorBridge(app: CapacitorAppInfo(appId: "a.b"))
        _ = bridge.reduce(.received(#"{"type":"message","callbackId":"1","pluginId":"Nope","methodName":"go","options":{}}"#))
        _ = bridge.reduce(.received(#"{"type":"message","callbackId":"2","pluginId":"App","methodName":"fly","options":{}}"#))
        _ = bridge.reduce(.received(#"{"type":"message","callbackId":"3","pluginId":"App","methodName":"getState","options":{}}"#))
        #expect(bridge.unimplemented == ["Nope.go": 1, "App.fly": 1])
        #expect(bridge.callsReceived == 3)
    }
}
