import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Page session: deep link queue")
struct DeepLinkQueueTests {
    static func fresh() -> PageSession {
        var session = PageSession(context: .main, profile: .phone, available: [.nativeNavigation, .deepLinks])
        _ = session.reduce(.documentCommitted)
        return session
    }

    static func ready(_ session: inout PageSession) {
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["deepLinks": true]]))
        PageSessionTests.post(&session, PageSessionTests.catalogText)
    }

    static func sent(_ effects: [PageEffect]) -> [String] {
        effects.compactMap { if case .send(.navigationOpenPath(let path)) = $0 { path } else { nil } }
    }

    static func timerStarts(_ effects: [PageEffect]) -> [PageTimer: Double] {
        var starts: [PageTimer: Double] = [:]
        for case .timer(.start(let name, let after)) in effects { starts[name] = after }
        return starts
    }

    /// Fires `timer` as the host would, when the session has it running.
    static func fire(_ session: inout PageSession, _ timer: PageTimer) -> [PageEffect] {
        #expect(session.timers.isRunning(timer), "\(timer) is not running")
        return session.reduce(.timerFired(timer))
    }

    @Test("a link waits until Studio has deep links and a catalog, then goes once")
    func waitsForReadiness() {
        var session = Self.fresh()
        let queued = session.reduce(.deepLink(path: "/screens"))
        #expect(Self.sent(queued).isEmpty)
        #expect(Self.timerStarts(queued) == [.deepLinkExpiry: DeepLink.validitySeconds], "no polling: only its expiry runs")
        Self.ready(&session)
        #expect(session.timers.isRunning(.deepLinkDue), "readiness arrived: a try is due")
        let due = Self.fire(&session, .deepLinkDue)
        #expect(Self.sent(due) == ["/screens"])
        #expect(session.reduce(.timerFired(.deepLinkDue)).isEmpty, "a stale fire does nothing")
        PageSessionTests.post(&session, envelope("system/haptic", ["feedback": "selection"]))
        #expect(!session.timers.isRunning(.deepLinkDue), "in flight: not tried twice")
        let taken = session.reduce(.delivered(.navigationOpenPath(path: "/screens"), accepted: true))
        #expect(session.deepLink == nil)
        #expect(taken.contains(.timer(.cancel(.deepLinkExpiry))) && session.timers.running.isEmpty)
    }

    @Test("not taken: retried at 200 ms × attempt, at most 10 retries")
    func retries() {
        var session = Self.fresh()
        Self.ready(&session)
        var sends = Self.sent(session.reduce(.deepLink(path: "/media"))).count
        for attempt in 1...12 {
            let effects = session.reduce(.delivered(.navigationOpenPath(path: "/media"), accepted: false))
            guard session.deepLink != nil else { break }
            #expect(Self.timerStarts(effects) == [.deepLinkDue: DeepLink.retryDelay(attempt: attempt)])
            PageSessionTests.post(&session, envelope("system/haptic", ["feedback": "selection"]))
            #expect(session.timers.running[.deepLinkDue] == DeepLink.retryDelay(attempt: attempt), "a message does not cut the pause short")
            sends += Self.sent(Self.fire(&session, .deepLinkDue)).count
        }
        #expect(sends == 1 + DeepLink.maxRetries)
        #expect(session.deepLink == nil, "dropped after the last retry")
        #expect(session.timers.running.isEmpty)
    }

    @Test("a link not delivered within 300 s is dropped; sign-out drops it too; a newer link replaces an older one")
    func expiry() {
        var session = Self.fresh()
        _ = session.reduce(.deepLink(path: "/media"))
        _ = Self.fire(&session, .deepLinkExpiry)
        #expect(session.deepLink == nil)
        Self.ready(&session)
        #expect(!session.timers.isRunning(.deepLinkDue), "nothing waits any more")
        _ = session.reduce(.deepLink(path: "/media"))
        _ = session.reduce(.delivered(.navigationOpenPath(path: "/media"), accepted: false))
        #expect(session.timers.isRunning(.deepLinkDue))
        let newer = session.reduce(.deepLink(path: "/screens"))
        #expect(Self.sent(newer) == ["/screens"], "the newest wins, at once")
        #expect(newer.contains(.timer(.cancel(.deepLinkDue))), "the old link's retry is cancelled")
        let dropped = session.reduce(.dropDeepLink)
        #expect(session.deepLink == nil && session.timers.running.isEmpty)
        #expect(dropped.contains(.timer(.cancel(.deepLinkExpiry))))
    }
}
