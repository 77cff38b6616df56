import HostCore
import StudioContract
import Testing

@Suite("Presentation requests, alone: the page's side of sheets")
struct PresentationRequestsTests {
    static let request = PresentationOpen(presentationId: "p1", path: "/__native/modal/a", title: "A")

    static func main(ready: Bool = true) -> PresentationRequests {
        var presentations = PresentationRequests(context: .main, offered: true)
        _ = presentations.reduce(.available(ready))
        return presentations
    }

    static func sheetShowing() -> PresentationRequests {
        var sheet = PresentationRequests(context: .presentation, offered: true)
        #expect(sheet.reduce(.show(presentationId: "p1", path: "/__native/modal/a"))
            == [.send(.presentationShow(presentationId: "p1", path: "/__native/modal/a"))])
        return sheet
    }

    @Test("main: a sheet opens only when offered, asked for by Studio, with a ready page, and none open")
    func open() {
        let unavailable: [PageEffect] = [.reply(.failure(id: "o", code: .unavailable))]
        var notOffered = PresentationRequests(context: .main, offered: false)
        _ = notOffered.reduce(.available(true))
        #expect(notOffered.reduce(.open(Self.request, id: "o", studioAsked: true)) == unavailable)
        var unready = Self.main(ready: false)
        #expect(unready.reduce(.open(Self.request, id: "o", studioAsked: true)) == unavailable)
        var main = Self.main()
        #expect(main.reduce(.open(Self.request, id: "o", studioAsked: false)) == unavailable, "Studio did not ask")
        #expect(main.reduce(.open(Self.request, id: "o", studioAsked: true)) == [.reply(.ok("o")), .openPresentation(Self.request)])
        #expect(main.presentationId == "p1")
        #expect(main.reduce(.open(Self.request, id: "o", studioAsked: true)) == unavailable, "one at a time")
    }

    @Test("main: the end is told once, and only to a Studio that is ready")
    func ended() {
        var main = Self.main()
        _ = main.reduce(.open(Self.request, id: nil, studioAsked: true))
        #expect(main.reduce(.ended(presentationId: "p0", studioReady: true)).isEmpty, "another id")
        #expect(main.reduce(.ended(presentationId: "p1", studioReady: true)) == [.send(.presentationEnded(presentationId: "p1"))])
        #expect(main.reduce(.ended(presentationId: "p1", studioReady: true)).isEmpty, "once")
        _ = main.reduce(.open(Self.request, id: nil, studioAsked: true))
        #expect(main.reduce(.ended(presentationId: "p1", studioReady: false)).isEmpty)
        #expect(main.presentationId == nil, "ended all the same")
        #expect(main.reduce(.show(presentationId: "p2", path: "/x")).isEmpty && main.reduce(.dismiss(presentationId: "p1")).isEmpty,
                "sheet-page events mean nothing on main")
    }

    @Test("sheet: updates, close, navigate and actions count for the shown id only; dismissed once")
    func sheet() {
        var sheet = Self.sheetShowing()
        #expect(sheet.reduce(.ready(id: "r")) == [.reply(.ok("r")), .presentationReady])
        let stale = PresentationUpdate(presentationId: "p0", dismissible: false)
        #expect(sheet.reduce(.update(stale, id: "u")) == [.reply(.ok("u"))])
        let fresh = PresentationUpdate(presentationId: "p1", dismissible: false)
        #expect(sheet.reduce(.update(fresh, id: "u")) == [.reply(.ok("u")), .presentationUpdated(fresh)])
        #expect(sheet.reduce(.close(presentationId: "p1", id: "c")) == [.reply(.ok("c")), .closePresentation(presentationId: "p1")])
        #expect(sheet.reduce(.action(presentationId: "p1", actionId: "save")) == [.send(.presentationAction(presentationId: "p1", actionId: "save"))])
        #expect(sheet.reduce(.action(presentationId: "p0", actionId: "save")).isEmpty)
        #expect(sheet.reduce(.dismiss(presentationId: "p1")) == [.send(.presentationDismissed(presentationId: "p1"))])
        #expect(sheet.reduce(.dismiss(presentationId: "p1")).isEmpty, "a late dismissal")
        #expect(sheet.reduce(.close(presentationId: "p1", id: "c")) == [.reply(.ok("c"))], "nothing shown any more")
    }
}
