import BridgeRuntime
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

    @Test("a link waits until Studio has deep links and a catalog, then goes once")
    func waitsForReadiness() {
        var session = Self.fresh()
        #expect(Self.sent(session.reduce(.deepLink(path: "/screens", now: 0))).isEmpty)
        Self.ready(&session)
        let due = session.reduce(.tick(now: 1))
        #expect(Self.sent(due) == ["/screens"])
        #expect(Self.sent(session.reduce(.tick(now: 2))).isEmpty, "in flight: not sent twice")
        _ = session.reduce(.delivered(.navigationOpenPath(path: "/screens"), accepted: true))
        #expect(session.deepLink == nil)
    }

    @Test("not taken: retried at 200 ms × attempt, at most 10 retries")
    func retries() {
        var session = Self.fresh()
        Self.ready(&session)
        var now = 10.0
        var sends = Self.sent(session.reduce(.deepLink(path: "/media", now: now))).count
        for attempt in 1...12 {
            let effects = session.reduce(.delivered(.navigationOpenPath(path: "/media"), accepted: false))
            guard session.deepLink != nil else { break }
            #expect(effects.contains(.scheduleTick(after: DeepLink.retryDelay(attempt: attempt))))
            #expect(Self.sent(session.reduce(.tick(now: now + 0.1))).isEmpty, "too early")
            now += DeepLink.retryDelay(attempt: attempt)
            sends += Self.sent(session.reduce(.tick(now: now))).count
        }
        #expect(sends == 1 + DeepLink.maxRetries)
        #expect(session.deepLink == nil, "dropped after the last retry")
    }

    @Test("a link not delivered within 300 s is dropped; sign-out drops it too")
    func expiry() {
        var session = Self.fresh()
        _ = session.reduce(.deepLink(path: "/media", now: 0))
        Self.ready(&session)
        #expect(Self.sent(session.reduce(.tick(now: 300.5))).isEmpty)
        #expect(session.deepLink == nil)
        _ = session.reduce(.deepLink(path: "/media", now: 400))
        _ = session.reduce(.dropDeepLink)
        #expect(Self.sent(session.reduce(.tick(now: 401))).isEmpty)
    }
}
