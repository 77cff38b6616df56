import HostCore
import Testing

/// Issue 29 item 6: the host's own ping judges a page that spins with nobody touching it.
@Suite("Responsiveness probe: the host's ping into the page, with a deadline")
struct ResponsivenessProbeTests {
    typealias P = ResponsivenessProbe

    @Test("one ping at a time; unanswered past the deadline judges the process unresponsive once; its answer, responsive again")
    func spinningPage() {
        var probe = P()
        #expect(probe.tick(now: 0) == .send(1))
        #expect(probe.tick(now: P.deadline - 0.001) == nil, "within its deadline")
        #expect(probe.tick(now: P.deadline) == .judged(false))
        #expect(!probe.answering)
        #expect(probe.tick(now: P.deadline * 4) == nil, "judged once, no second ping while one is out")
        #expect(probe.answered(7) == nil, "an answer to a ping never sent changes nothing")
        #expect(probe.answered(1) == .judged(true))
        #expect(probe.answering && probe.outstanding == nil)
        #expect(probe.tick(now: 100) == .send(2))
        #expect(probe.answered(2) == nil, "answering already: nothing newly judged")
    }

    @Test("a script dialog excuses the wait until a ping is answered")
    func dialog() {
        var probe = P()
        #expect(probe.tick(now: 0) == .send(1))
        probe.dialogShown()
        #expect(probe.tick(now: 1000) == nil, "the person is reading the alert")
        #expect(probe.answered(1) == nil)
        #expect(!probe.excused)
        #expect(probe.tick(now: 1001) == .send(2))
        #expect(probe.tick(now: 1001 + P.deadline) == .judged(false), "spinning after the dialog, with a new ping out")
        // A dialog shown with no ping out excuses the next one too.
        var quiet = P()
        quiet.dialogShown()
        #expect(quiet.tick(now: 0) == .send(1))
        #expect(quiet.tick(now: 1000) == nil)
    }
}
