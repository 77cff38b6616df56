import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// Defects a review of the host found, each pinned by a test that failed before its fix.
@Suite("Host defects: withdrawal on dismissal, deep-link timers")
struct HostDefectTests {
    static func sheetShowing() -> PageSession {
        var sheet = PageSession(context: .presentation, profile: .phone,
                                available: [.nativePresentations, .nativeAlerts, .systemQrScanner, .nativeActionMenus])
        _ = sheet.reduce(.documentCommitted)
        PageSessionTests.post(&sheet, envelope("config/get"))
        PageSessionTests.post(&sheet, envelope("frontend/ready", ["capabilities": ["nativeAlerts": true, "nativeActionMenus": true]]))
        PageSessionTests.post(&sheet, envelope("presentation/ready"))
        _ = sheet.reduce(.showPresentation(presentationId: "p1", path: "/__native/modal/a"))
        return sheet
    }

    @Test("a dismissed presentation withdraws its page's alert, QR scan and menus (§4)")
    func dismissalWithdraws() {
        var sheet = Self.sheetShowing()
        PageSessionTests.post(&sheet, AlertSessionTests.present("a1"))
        PageSessionTests.post(&sheet, envelope("system/scan-qr", ["requestId": "q1"]))
        PageSessionTests.post(&sheet, envelope("action-menu/arm", ["menuId": "m1", "label": "Row", "groups": [["items": [["id": "x", "label": "X"]]]]]))
        #expect(sheet.alert != nil && sheet.qrScanRequestId != nil && sheet.armedMenu != nil, "set up: all three showing")
        let effects = sheet.reduce(.dismissPresentation(presentationId: "p1"))
        #expect(effects.contains(.withdrawAlert(alertId: "a1")))
        #expect(effects.contains(.withdrawQRScan(requestId: "q1")))
        #expect(effects.contains(.menusChanged))
        #expect(sheet.alert == nil && sheet.qrScanRequestId == nil && sheet.armedMenu == nil && sheet.triggers.isEmpty)
        // And a late answer to the withdrawn alert is not reported.
        #expect(sheet.reduce(.alertAnswered(alertId: "a1", actionId: "keep")).isEmpty)
    }

    @Test("messages that arrive while a deep link waits start no more timers")
    func deepLinkTimers() {
        var session = DeepLinkQueueTests.fresh()
        let queued = session.reduce(.deepLink(path: "/screens"))
        let starts = DeepLinkQueueTests.timerStarts(queued).count
        var more = 0
        for _ in 0..<5 {
            more += DeepLinkQueueTests.timerStarts(PageSessionTests.post(&session, envelope("system/haptic", ["feedback": "selection"]))).count
        }
        #expect(starts <= 1)
        #expect(more == 0, "each message started another timer")
        #expect(session.timers.running.count == 1, "only the link's expiry runs")
        // Once Studio is ready, one try is due, however many messages arrive after.
        DeepLinkQueueTests.ready(&session)
        for _ in 0..<5 { PageSessionTests.post(&session, envelope("system/haptic", ["feedback": "selection"])) }
        #expect(session.timers.running.keys.sorted { "\($0)" < "\($1)" } == [.deepLinkDue, .deepLinkExpiry])
    }
}

@Suite("Alert ownership across pages")
struct AlertOwnershipTests {
    enum Page: Hashable, Sendable { case main, sheet }

    @Test("the page whose alert shows owns the slot; the others refuse until it ends; a stranger's end changes nothing")
    func ownership() {
        var slot = AlertOwnership<Page>()
        let shown = slot.shown(by: .sheet, among: [.main, .sheet])
        #expect(shown.map(\.page) == [.main] && shown.map(\.elsewhere) == [true])
        #expect(slot.shownElsewhere(for: .main) && !slot.shownElsewhere(for: .sheet))
        #expect(slot.ended(by: .main, among: [.main, .sheet]).isEmpty, "main has no alert to end")
        #expect(slot.owner == .sheet)
        let ended = slot.ended(by: .sheet, among: [.main, .sheet])
        #expect(ended.map(\.page) == [.main] && ended.map(\.elsewhere) == [false])
        #expect(slot.owner == nil)
    }

    @Test("a sheet page with no presentation shown takes no alert, share or scan: nobody would see it")
    func hiddenSheetPage() {
        var sheet = PageSession(context: .presentation, profile: .phone,
                                available: [.nativePresentations, .nativeAlerts, .systemQrScanner, .systemShare])
        _ = sheet.reduce(.documentCommitted)
        PageSessionTests.post(&sheet, envelope("config/get"))
        PageSessionTests.post(&sheet, envelope("frontend/ready"))
        #expect(PageSessionTests.post(&sheet, AlertSessionTests.present("a1", requestId: "r1")) == [.reply(.failure(id: "r1", code: .unavailable))])
        #expect(PageSessionTests.post(&sheet, envelope("system/scan-qr", ["requestId": "q1"], id: "r2")) == [.reply(.failure(id: "r2", code: .unavailable))])
        #expect(PageSessionTests.post(&sheet, envelope("system/share", ["title": "T", "url": "https://example.invalid/x"], id: "r3"))
            == [.reply(.failure(id: "r3", code: .unavailable))])
        _ = sheet.reduce(.showPresentation(presentationId: "p1", path: "/__native/modal/a"))
        #expect(PageSessionTests.post(&sheet, AlertSessionTests.present("a1", requestId: "r4")).contains(.reply(.ok("r4"))))
    }
}
