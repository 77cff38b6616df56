import HostCore
import StudioContract
import Testing

@Suite("Withdrawal at the start of a main-frame navigation (§6)")
struct WithdrawalTests {
    static func page(_ context: HostContext = .main) -> PageSession {
        var session = PageSession(context: context, profile: .desktop,
                                  available: [.nativeActionMenus, .nativeActionMenuAnchors, .nativeAlerts, .systemQrScanner])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": ["nativeActionMenus": true, "nativeAlerts": true]]))
        return session
    }

    static let rect: JSONValue = ["x": 0.1, "y": 0.2, "width": 0.3, "height": 0.1]

    @Test("a navigation start withdraws the alert, the QR scan and the menus (armed, shown, triggers) unreported; the commit finds nothing left", arguments: HostContext.allCases)
    func navigationStartWithdraws(_ context: HostContext) {
        var session = Self.page(context)
        if context == .presentation { _ = session.reduce(.showPresentation(presentationId: "p1", path: "/__native/modal/a")) }
        PageSessionTests.post(&session, envelope("action-menu/arm", ActionMenuSessionTests.menu("m1")))
        PageSessionTests.post(&session, envelope("action-menu/register-trigger", ActionMenuSessionTests.menu("t1", extra: ["rect": Self.rect])))
        PageSessionTests.post(&session, envelope("system/scan-qr", ["requestId": "scan-1"]))
        PageSessionTests.post(&session, envelope("alert/present", ["alertId": "a1", "title": "Sure?", "actions": [["id": "ok", "label": "OK"]]]))
        _ = session.reduce(.menuOpenRequested(menuId: "t1", source: .trigger))
        #expect(session.alert != nil && session.qrScanRequestId == "scan-1" && session.armedMenu != nil && !session.triggers.isEmpty)

        let started = session.reduce(.navigationStarted)
        #expect(started == [.menusChanged, .hideMenu, .withdrawQRScan(requestId: "scan-1"), .withdrawAlert(alertId: "a1")], "\(started)")
        #expect(!started.contains { if case .send = $0 { true } else { false } }, "nothing is reported to the page leaving")
        #expect(session.alert == nil && session.qrScanRequestId == nil && session.armedMenu == nil && session.triggers.isEmpty && session.openMenu == nil)
        #expect(session.negotiated, "negotiation is the new document's: it starts over at the commit")

        let committed = session.reduce(.documentCommitted)
        #expect(!committed.contains(.menusChanged) && !committed.contains(.hideMenu))
        #expect(!committed.contains { if case .withdrawAlert = $0 { true } else if case .withdrawQRScan = $0 { true } else { false } })
        #expect(!session.negotiated)
    }

    @Test("a web process that ended withdraws at the document's end, as before (there was no navigation start)")
    func processEnd() {
        var session = Self.page()
        PageSessionTests.post(&session, envelope("action-menu/arm", ActionMenuSessionTests.menu("m1")))
        #expect(session.reduce(.documentCommitted).contains(.menusChanged))
        #expect(session.armedMenu == nil)
    }

    @Test("ending a presentation withdraws the sheet page's alert, scan and menus, never main's")
    func presentationEnd() {
        var main = Self.page(.main)
        var sheet = Self.page(.presentation)
        _ = sheet.reduce(.showPresentation(presentationId: "p1", path: "/__native/modal/a"))
        for context in HostContext.allCases {
            var session = context == .main ? main : sheet
            PageSessionTests.post(&session, envelope("action-menu/register-trigger", ActionMenuSessionTests.menu("t-\(context)", extra: ["rect": Self.rect])))
            PageSessionTests.post(&session, envelope("alert/present", ["alertId": "a1", "title": "Sure?", "actions": [["id": "ok", "label": "OK"]]]))
            if context == .main { main = session } else { sheet = session }
        }
        let dismissed = sheet.reduce(.dismissPresentation(presentationId: "p1"))
        #expect(dismissed.contains(.send(.presentationDismissed(presentationId: "p1"))))
        #expect(dismissed.contains(.menusChanged) && dismissed.contains(.withdrawAlert(alertId: "a1")))
        #expect(sheet.triggers.isEmpty && sheet.alert == nil)
        #expect(main.reduce(.presentationEnded(presentationId: "p1")).allSatisfy { if case .send = $0 { true } else { false } })
        #expect(main.triggers.keys.sorted() == ["t-main"] && main.alert != nil, "main keeps its own")
    }

    @Test("two pages with one ownership: an arm on the sheet takes main's; a trigger id main owns is unavailable on the sheet")
    func acrossPages() {
        var main = Self.page(.main)
        var sheet = Self.page(.presentation)
        var slot = MenuOwnership<HostContext>()
        func sync(_ context: HostContext) {
            let session = context == .main ? main : sheet
            for (target, event) in slot.changed(page: context, armed: session.armedMenu != nil, triggers: Set(session.triggers.keys),
                                                 among: HostContext.allCases) {
                if target == .main { _ = main.reduce(event) } else { _ = sheet.reduce(event) }
            }
        }
        PageSessionTests.post(&main, envelope("action-menu/arm", ActionMenuSessionTests.menu("m1")))
        PageSessionTests.post(&main, envelope("action-menu/register-trigger", ActionMenuSessionTests.menu("row-1", extra: ["rect": Self.rect])))
        sync(.main)
        _ = main.reduce(.menuOpenRequested(menuId: "m1", source: .armed))
        PageSessionTests.post(&sheet, envelope("action-menu/arm", ActionMenuSessionTests.menu("m2")))
        sync(.presentation)
        #expect(main.armedMenu == nil && main.openMenu == nil, "one armed menu for the window; main's shown one is cancelled")
        #expect(main.reduce(.menuChosen(menuId: "m1", actionId: "rename")).isEmpty, "a late choice is ignored")
        #expect(PageSessionTests.post(&sheet, envelope("action-menu/register-trigger", ActionMenuSessionTests.menu("row-1", extra: ["rect": Self.rect]), id: "r"))
            == [.reply(.failure(id: "r", code: .unavailable))], "main owns row-1")
        PageSessionTests.post(&sheet, envelope("action-menu/disarm", ["menuId": "m1"]))
        #expect(sheet.armedMenu?.menuId == "m2", "disarm needs the page and the menu id to match")
        _ = sheet.reduce(.menuOpenRequested(menuId: "m2", source: .armed))
        #expect(main.reduce(.menuOpenRequested(menuId: "m2", source: .armed)).isEmpty, "the other page gets nothing")
    }
}
