import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Page session: native alerts")
struct AlertSessionTests {
    static func session() -> PageSession {
        var session = PageSession(context: .main, profile: .desktop, available: [.nativeAlerts])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativeAlerts": true]]))
        return session
    }

    static func present(_ id: String, requestId: String = "r") -> String {
        envelope("alert/present", ["alertId": .string(id), "title": "Delete?", "actions": [
            ["id": "keep", "label": "Keep", "role": "cancel"], ["id": "delete", "label": "Delete", "role": "destructive"]]], id: requestId)
    }

    @Test("one alert at a time: it shows, a second gets unavailable, a button press reports once")
    func oneAtATime() {
        var session = Self.session()
        let shown = PageSessionTests.post(&session, Self.present("a1", requestId: "p1"))
        #expect(shown.contains(.reply(.ok("p1"))))
        #expect(shown.contains { if case .showAlert(let r) = $0 { r.alertId == "a1" } else { false } })
        let second = PageSessionTests.post(&session, Self.present("a2", requestId: "p2"))
        #expect(second == [.reply(.failure(id: "p2", code: .unavailable))])
        #expect(session.reduce(.alertAnswered(alertId: "a1", actionId: "delete")) == [.send(.alertAction(alertId: "a1", actionId: "delete"))])
        #expect(session.reduce(.alertAnswered(alertId: "a1", actionId: "delete")).isEmpty, "a late second answer is dropped")
        #expect(session.alert == nil)
    }

    @Test("one alert across the app: while the other page's alert shows, this page's is unavailable")
    func alertElsewhere() {
        var session = Self.session()
        #expect(session.reduce(.alertElsewhere(true)).isEmpty)
        let refused = PageSessionTests.post(&session, Self.present("a1", requestId: "p1"))
        #expect(refused == [.reply(.failure(id: "p1", code: .unavailable))])
        #expect(session.alert == nil)
        _ = session.reduce(.alertElsewhere(false))
        let shown = PageSessionTests.post(&session, Self.present("a2", requestId: "p2"))
        #expect(shown.contains(.reply(.ok("p2"))))
    }

    @Test("only ids it was given are reported; cancel withdraws without a report; a new document withdraws")
    func withdrawals() {
        var session = Self.session()
        PageSessionTests.post(&session, Self.present("a1"))
        #expect(session.reduce(.alertAnswered(alertId: "a1", actionId: "other")).isEmpty)
        #expect(session.reduce(.alertAnswered(alertId: "zz", actionId: "delete")).isEmpty)
        #expect(session.alert?.alertId == "a1", "still showing")
        let cancelOther = PageSessionTests.post(&session, envelope("alert/cancel", ["alertId": "zz"]))
        #expect(!cancelOther.contains(.withdrawAlert(alertId: "zz")))
        let cancelled = PageSessionTests.post(&session, envelope("alert/cancel", ["alertId": "a1"]))
        #expect(cancelled.contains(.withdrawAlert(alertId: "a1")))
        #expect(session.reduce(.alertAnswered(alertId: "a1", actionId: "delete")).isEmpty, "an answer after cancel is dropped")

        PageSessionTests.post(&session, Self.present("a3"))
        #expect(session.reduce(.documentCommitted).contains(.withdrawAlert(alertId: "a3")))
        #expect(session.alert == nil)
    }

    @Test("a host without native alerts says unavailable")
    func notOffered() {
        var session = PageSessionTests.negotiated()
        #expect(PageSessionTests.post(&session, Self.present("a1", requestId: "p")) == [.reply(.failure(id: "p", code: .unavailable))])
    }
}
