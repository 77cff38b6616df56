import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// A performer that records what it was asked, and fires the timers it was given when told to.
@MainActor
final class RecordingPerformer: PageEffectPerformer {
    private(set) var effects: [PageEffect] = []
    private(set) var changes = 0
    private(set) var timers: [PageTimer: Double] = [:]

    func perform(_ effect: PageEffect) {
        effects.append(effect)
        if case .timer(let command) = effect {
            switch command {
            case .start(let name, let after): timers[name] = after
            case .cancel(let name): timers[name] = nil
            }
        }
    }

    func sessionChanged() { changes += 1 }

    /// Fires `timer` as a main loop would, if it is running here.
    func fire(_ timer: PageTimer, on driver: PageDriver) {
        guard timers.removeValue(forKey: timer) != nil else { return }
        driver.handle(.timerFired(timer))
    }

    var sent: [HostMessage] { effects.compactMap { if case .send(let m) = $0 { m } else { nil } } }
}

@Suite("Page driver: effects reach one performer, replies go back to the page")
@MainActor
struct PageDriverTests {
    @Test("a whole deep-link delivery through the driver: replies returned, the rest performed in order, timers carried out")
    func deepLinkThroughDriver() {
        let driver = PageDriver(PageSession(context: .main, profile: .phone, available: [.nativeNavigation, .deepLinks]))
        let performer = RecordingPerformer()
        driver.performer = performer
        driver.handle(.documentCommitted)
        driver.handle(.deepLink(path: "/screens"))
        #expect(performer.timers == [.deepLinkExpiry: DeepLink.validitySeconds])
        #expect(driver.receive(envelope("config/get", id: "c")).text.contains(#""ok":true"#))
        _ = driver.receive(envelope("frontend/ready", ["capabilities": ["deepLinks": true]]))
        let reply = driver.receive(PageSessionTests.catalogText)
        #expect(reply == .ok(nil))
        #expect(performer.effects.contains { if case .chromeChanged = $0 { true } else { false } }, "the chrome is drawn from the catalog")
        #expect(performer.sent.isEmpty, "not sent before this turn's reply")
        performer.fire(.deepLinkDue, on: driver)
        #expect(performer.sent == [.navigationOpenPath(path: "/screens")])
        driver.handle(.delivered(.navigationOpenPath(path: "/screens"), accepted: true))
        #expect(performer.timers.isEmpty, "the expiry was cancelled once Studio took it")
        #expect(!performer.effects.contains { if case .reply = $0 { true } else { false } }, "replies never reach the performer")
        #expect(performer.changes == 7)
    }

    @Test("bad input is answered with its failure and changes nothing; without a performer effects are dropped")
    func badInput() {
        let driver = PageDriver(PageSession(context: .main, profile: .phone, available: [.nativeAlerts]))
        driver.handle(.documentCommitted)
        #expect(driver.receive("{not json").text.contains("malformed"))
        #expect(driver.receive(AlertSessionTests.present("a1", requestId: "r")) == .ok("r"))
        #expect(driver.session.alert?.alertId == "a1", "no performer: the session still decides")
    }
}
