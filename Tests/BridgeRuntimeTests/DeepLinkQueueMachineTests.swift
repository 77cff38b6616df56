import HostCore
import StudioContract
import Testing

@Suite("Deep-link queue, alone: waiting, tries, retries, expiry")
struct DeepLinkQueueMachineTests {
    @Test("a link waits (only its expiry runs) until a message makes Studio able to take it, then goes on the next turn")
    func waitsThenGoes() {
        var queue = DeepLinkQueue(context: .main, offered: true)
        #expect(queue.reduce(.arrived(path: "/screens", studioTakesLinks: false))
            == [.timer(.start(.deepLinkExpiry, after: DeepLink.validitySeconds))])
        #expect(queue.reduce(.pageAnswered(studioTakesLinks: false)).isEmpty)
        #expect(queue.reduce(.pageAnswered(studioTakesLinks: true)) == [.timer(.start(.deepLinkDue, after: 0))])
        #expect(queue.reduce(.pageAnswered(studioTakesLinks: true)).isEmpty, "a try is already due")
        #expect(queue.reduce(.timerFired(.deepLinkDue, studioTakesLinks: true)) == [.send(.navigationOpenPath(path: "/screens"))])
        #expect(queue.reduce(.timerFired(.deepLinkDue, studioTakesLinks: true)).isEmpty, "stale")
        #expect(queue.reduce(.pageAnswered(studioTakesLinks: true)).isEmpty, "in flight: not tried twice")
        #expect(queue.reduce(.delivered(path: "/other", accepted: true)).isEmpty)
        #expect(queue.reduce(.delivered(path: "/screens", accepted: true)) == [.timer(.cancel(.deepLinkExpiry))])
        #expect(queue.link == nil && queue.timers.running.isEmpty)
    }

    @Test("a link Studio can take goes at once; refused, it is retried 200 ms × attempt later, 10 times at most")
    func retries() {
        var queue = DeepLinkQueue(context: .main, offered: true)
        var sends = queue.reduce(.arrived(path: "/media", studioTakesLinks: true)).filter { if case .send = $0 { true } else { false } }.count
        for attempt in 1...12 {
            let effects = queue.reduce(.delivered(path: "/media", accepted: false))
            guard queue.link != nil else { break }
            #expect(effects == [.timer(.start(.deepLinkDue, after: DeepLink.retryDelay(attempt: attempt)))])
            sends += queue.reduce(.timerFired(.deepLinkDue, studioTakesLinks: true)).count
        }
        #expect(sends == 1 + DeepLink.maxRetries)
        #expect(queue.timers.running.isEmpty, "dropped after the last retry, with its expiry")
    }

    @Test("a newer link replaces the old one and its retry; expiry and drop forget it; a sheet page or a host without deep links never sends")
    func replaceExpireDrop() {
        var queue = DeepLinkQueue(context: .main, offered: true)
        _ = queue.reduce(.arrived(path: "/media", studioTakesLinks: true))
        _ = queue.reduce(.delivered(path: "/media", accepted: false))
        let newer = queue.reduce(.arrived(path: "/screens", studioTakesLinks: true))
        #expect(newer == [.timer(.start(.deepLinkExpiry, after: DeepLink.validitySeconds)), .timer(.cancel(.deepLinkDue)),
                          .send(.navigationOpenPath(path: "/screens"))])
        #expect(queue.reduce(.timerFired(.deepLinkExpiry, studioTakesLinks: true)).isEmpty && queue.link == nil)
        _ = queue.reduce(.arrived(path: "/a", studioTakesLinks: false))
        #expect(queue.reduce(.drop) == [.timer(.cancel(.deepLinkExpiry))])

        var sheet = DeepLinkQueue(context: .presentation, offered: true)
        #expect(sheet.reduce(.arrived(path: "/a", studioTakesLinks: true)).isEmpty)
        var withheld = DeepLinkQueue(context: .main, offered: false)
        #expect(withheld.reduce(.arrived(path: "/a", studioTakesLinks: true)) == [.timer(.start(.deepLinkExpiry, after: DeepLink.validitySeconds))])
        #expect(withheld.reduce(.pageAnswered(studioTakesLinks: true)).isEmpty)
    }
}
