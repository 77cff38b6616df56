import HostCore
import StudioContract
import Testing

@Suite("Page alerts, alone: one at a time, seen, reported once")
struct PageAlertsTests {
    static func request(_ id: String) -> AlertRequest {
        AlertRequest(alertId: id, title: "Delete?", actions: [AlertButton(id: "keep", label: "Keep", role: .cancel),
                                                              AlertButton(id: "delete", label: "Delete", role: .destructive)])
    }

    @Test("an alert shows only when offered, seen, and no alert shows here or elsewhere")
    func present() {
        let unavailable: [PageEffect] = [.reply(.failure(id: "p", code: .unavailable))]
        var notOffered = PageAlerts(offered: false)
        #expect(notOffered.reduce(.present(Self.request("a1"), id: "p", seen: true)) == unavailable)
        var alerts = PageAlerts(offered: true)
        #expect(alerts.reduce(.present(Self.request("a1"), id: "p", seen: false)) == unavailable, "a hidden sheet page")
        _ = alerts.reduce(.shownElsewhere(true))
        #expect(alerts.reduce(.present(Self.request("a1"), id: "p", seen: true)) == unavailable, "the other page's alert shows")
        _ = alerts.reduce(.shownElsewhere(false))
        #expect(alerts.reduce(.present(Self.request("a1"), id: "p", seen: true)) == [.reply(.ok("p")), .showAlert(Self.request("a1"))])
        #expect(alerts.reduce(.present(Self.request("a2"), id: "p", seen: true)) == unavailable, "one at a time")
    }

    @Test("only a button it has ends it, reported once; cancel and withdraw take it away unreported")
    func endings() {
        var alerts = PageAlerts(offered: true)
        _ = alerts.reduce(.present(Self.request("a1"), id: nil, seen: true))
        #expect(alerts.reduce(.answered(alertId: "a1", actionId: "other")).isEmpty)
        #expect(alerts.reduce(.answered(alertId: "zz", actionId: "keep")).isEmpty)
        #expect(alerts.reduce(.answered(alertId: "a1", actionId: "keep")) == [.send(.alertAction(alertId: "a1", actionId: "keep"))])
        #expect(alerts.reduce(.answered(alertId: "a1", actionId: "keep")).isEmpty, "once")
        _ = alerts.reduce(.present(Self.request("a2"), id: nil, seen: true))
        #expect(alerts.reduce(.cancel(alertId: "zz", id: "c")) == [.reply(.ok("c"))], "not showing: ignored with ok")
        #expect(alerts.reduce(.cancel(alertId: "a2", id: "c")) == [.reply(.ok("c")), .withdrawAlert(alertId: "a2")])
        _ = alerts.reduce(.present(Self.request("a3"), id: nil, seen: true))
        #expect(alerts.reduce(.withdraw) == [.withdrawAlert(alertId: "a3")])
        #expect(alerts.reduce(.withdraw).isEmpty && alerts.alert == nil)
    }
}
