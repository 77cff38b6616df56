import HostCore
import Testing

@Suite("Stop signals: the main loop ends the app in order when it answers, the watchdog when it does not")
struct StopSignalRuleTests {
    let rule = StopSignalRule.standard
    let SIGTERM: Int32 = 15, SIGINT: Int32 = 2

    @Test("a main loop that does not answer within 3 s is overruled: the app ends with 128 + the signal")
    func unanswered() {
        #expect(rule.step(signal: SIGTERM, elapsed: 0, answered: false, again: false) == .wait(seconds: 3))
        #expect(rule.step(signal: SIGTERM, elapsed: 2.5, answered: false, again: false) == .wait(seconds: 0.5))
        #expect(rule.step(signal: SIGTERM, elapsed: 3, answered: false, again: false) == .forceExit(status: 143))
        #expect(rule.step(signal: SIGINT, elapsed: 7, answered: false, again: false) == .forceExit(status: 130))
    }

    @Test("an orderly shutdown under way has longer, but not for ever")
    func answered() {
        #expect(rule.step(signal: SIGTERM, elapsed: 3, answered: true, again: false) == .wait(seconds: 27))
        #expect(rule.step(signal: SIGTERM, elapsed: 30, answered: true, again: false) == .forceExit(status: 143))
    }

    @Test("a second signal insists: the app ends at once, answered or not")
    func again() {
        #expect(rule.step(signal: SIGINT, elapsed: 0.1, answered: true, again: true) == .forceExit(status: 130))
        #expect(rule.step(signal: SIGTERM, elapsed: 0.1, answered: false, again: true) == .forceExit(status: 143))
    }

    @Test("the finish grace is never shorter than the answer grace; a NaN elapsed time forces")
    func bounds() {
        let odd = StopSignalRule(answerGrace: 5, finishGrace: 1)
        #expect(odd.finishGrace == 5)
        #expect(odd.step(signal: SIGTERM, elapsed: .nan, answered: false, again: false) == .forceExit(status: 143))
    }
}
