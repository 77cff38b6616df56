import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Timers as state")
struct TimerSetTests {
    enum Name: Hashable, Sendable { case a, b }

    @Test("one timer per name: a start replaces, a cancel of nothing asks nothing, a stale fire is ignored")
    func onePerName() {
        var timers = TimerSet<Name>()
        let first = timers.start(.a, after: 1)
        let second = timers.start(.a, after: 2)
        #expect(first == .start(.a, after: 1) && second == .start(.a, after: 2))
        #expect(timers.running == [.a: 2])
        let nothing = timers.cancel(.b)
        #expect(nothing == nil)
        let fired = timers.fire(.a), again = timers.fire(.a)
        #expect(fired)
        #expect(!again, "fired once; a second report is stale")
        _ = timers.start(.b, after: -5)
        #expect(timers.running[.b] == 0, "a negative delay is no delay")
        let cancel = timers.cancel(.b)
        #expect(cancel == .cancel(.b))
        let late = timers.fire(.b)
        #expect(!late, "cancelled: a fire that raced the cancel is ignored")
        _ = timers.start(.a, after: .infinity)
        #expect(timers.running[.a] == 0)
        let all = timers.cancelAll()
        #expect(all == [.cancel(.a)])
        #expect(timers.running.isEmpty)
    }
}

@Suite("State report: what a dump keeps")
struct StateReportKeepingTests {
    @Test("the latest entries are kept, oldest dropped first")
    func keeping() {
        var list: [Int] = []
        for i in 1...25 { list = StateReport.appending(i, to: list, keeping: StateReport.keptHaptics) }
        #expect(list == Array(6...25))
        #expect(StateReport.appending(1, to: [], keeping: 0).isEmpty)
        #expect(StateReport.keptNotices == 10)
    }
}
