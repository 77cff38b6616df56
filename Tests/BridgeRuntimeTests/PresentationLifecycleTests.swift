import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Presentation life cycle")
struct PresentationLifecycleTests {
    typealias Life = PresentationLifecycle
    static let request = PresentationOpen(presentationId: "p1", path: "/__native/modal/a", title: "A", size: .compact)

    static func made(_ effects: [Life.Effect]) -> [Int] {
        effects.compactMap { if case .makePage(let id, _) = $0 { id } else { nil } }
    }
    static func discarded(_ effects: [Life.Effect]) -> [Int] {
        effects.compactMap { if case .discardPage(let id) = $0 { id } else { nil } }
    }
    static func released(_ effects: [Life.Effect]) -> [Int] {
        effects.compactMap { if case .releasePage(let id) = $0 { id } else { nil } }
    }
    static func asked(_ effects: [Life.Effect]) -> [Int] {
        effects.compactMap { if case .confirmRepliesRun(let id) = $0 { id } else { nil } }
    }
    static func toSheet(_ effects: [Life.Effect]) -> [PageEvent] {
        effects.compactMap { if case .toSheet(let e) = $0 { e } else { nil } }
    }
    static func toMain(_ effects: [Life.Effect]) -> [PageEvent] {
        effects.compactMap { if case .toMain(let e) = $0 { e } else { nil } }
    }

    /// Main ready, the page made and ready: a prewarmed sheet page.
    static func prewarmed() -> Life {
        var life = Life(prewarms: true)
        _ = life.reduce(.mainReady(true))
        _ = life.reduce(.pageReady(page: 1))
        return life
    }

    static func header(_ navigation: String? = nil) -> PresentationHeader {
        var object: JSONObject = ["title": "Lobby", "actions": [["id": "refresh", "label": "Refresh", "icon": "refresh"]],
                                  "menu": [["id": "share", "label": "Share"], ["id": "replace", "label": "Replace", "disabled": true]]]
        if let navigation { object["navigation"] = .string(navigation) }
        let text = envelope("presentation/update", ["presentationId": "p1", "header": .object(object)])
        guard case .success(let inbound) = StudioMessageDecoder.decode(text, context: .presentation),
              case .presentationUpdate(let update) = inbound.message, let header = update.header else {
            Issue.record("the header did not decode"); return try! #require(nil as PresentationHeader?)
        }
        return header
    }

    static func showing(header navigation: String? = nil, dismissible: Bool = true) -> Life {
        var life = prewarmed()
        _ = life.reduce(.open(PresentationOpen(presentationId: "p1", path: "/__native/modal/a", title: "A", dismissible: dismissible), now: 0))
        var update = PresentationUpdate(presentationId: "p1")
        update.header = header(navigation)
        _ = life.reduce(.updated(update))
        return life
    }

    @Test("a page is prewarmed once main is ready, offered to main once it is ready, and given up after 20 s")
    func prewarm() {
        var life = Life(prewarms: true)
        #expect(life.reduce(.timerFired(.ready)).isEmpty, "nothing runs yet")
        let ready = life.reduce(.mainReady(true))
        #expect(Self.made(ready) == [1])
        #expect(ready.contains(.timer(.start(.ready, after: Life.readyTimeout))))
        #expect(Self.toMain(ready).isEmpty, "not offered before the page is ready")
        #expect(Self.made(life.reduce(.mainReady(true))).isEmpty, "one page at a time")
        let said = life.reduce(.pageReady(page: 1))
        #expect(said.contains(.timer(.cancel(.ready))))
        #expect(Self.toMain(said) == [.presentationAvailable(true)])
        #expect(life.reduce(.timerFired(.ready)).isEmpty, "a stale limit after ready does nothing")

        // Not ready in time: discarded with a report, and a fresh page is made.
        var slow = Life(prewarms: true)
        _ = slow.reduce(.mainReady(true))
        let late = slow.reduce(.timerFired(.ready))
        #expect(late.contains { if case .report = $0 { true } else { false } })
        #expect(Self.discarded(late) == [1] && Self.made(late) == [2])
        #expect(slow.reduce(.pageReady(page: 1)).isEmpty, "the discarded page's late ready is ignored")
    }

    @Test("main no longer ready: the prewarmed page goes and main is told")
    func mainGoesAway() {
        var life = Self.prewarmed()
        let gone = life.reduce(.mainReady(false))
        #expect(Self.discarded(gone) == [1])
        #expect(Self.toMain(gone) == [.presentationAvailable(false)])
        #expect(life.page == nil)
    }

    @Test("open on a prewarmed page: show at once, reveal after the accepted show painted, dismissal ends it everywhere")
    func openWarm() {
        var life = Self.prewarmed()
        let opened = life.reduce(.open(Self.request, now: 10))
        #expect(opened.contains(.showSheet(Self.request)))
        #expect(Self.toSheet(opened) == [.showPresentation(presentationId: "p1", path: "/__native/modal/a")])
        #expect(opened.contains(.waitForPaint(presentationId: "p1")), "the paint wait starts with the show")
        #expect(Self.toMain(opened) == [.presentationAvailable(false)])
        #expect(life.reduce(.painted(presentationId: "p1", now: 10.03, seen: true)).isEmpty, "not revealed before Studio accepted the show")
        #expect(life.reduce(.painted(presentationId: "p1", now: 10.04, seen: true)).isEmpty, "one paint counts")
        #expect(life.reduce(.showAnswered(presentationId: "p1", accepted: true, now: 10.05)) == [.reveal], "painted and accepted: revealed")
        #expect(life.lastOpen == OpenTiming(milliseconds: (10.05 - 10) * 1000, prewarmed: true), "timed to the later of the two")
        var answeredFirst = Self.prewarmed()
        _ = answeredFirst.reduce(.open(Self.request, now: 10))
        #expect(answeredFirst.reduce(.showAnswered(presentationId: "p1", accepted: true, now: 10.01)).isEmpty, "not before its paint")
        #expect(answeredFirst.reduce(.painted(presentationId: "p1", now: 10.03, seen: false)) == [.reveal])
        #expect(answeredFirst.lastOpen == OpenTiming(milliseconds: (10.03 - 10) * 1000, prewarmed: true, painted: false))
        #expect(life.reduce(.open(Self.request, now: 11)).isEmpty, "one sheet at a time")

        let dismissed = life.reduce(.dismissRequested)
        #expect(Self.toSheet(dismissed) == [.dismissPresentation(presentationId: "p1")])
        #expect(Self.toMain(dismissed) == [.presentationEnded(presentationId: "p1"), .presentationAvailable(true)], "ended, and offered again at once")
        #expect(dismissed.contains(.hideSheet))
        #expect(Self.discarded(dismissed).isEmpty && Self.made(dismissed).isEmpty, "the page is kept for the next sheet (§6)")
        #expect(life.page?.id == 1 && life.page?.ready == true)
        #expect(life.lastSize == .compact, "a page made later waits at the last sheet's size")
    }

    @Test("a refused show fails the sheet; a close or navigate from the sheet dismisses, navigate then opens the path in main")
    func endings() {
        var refused = Self.prewarmed()
        _ = refused.reduce(.open(Self.request, now: 0))
        let refusal = refused.reduce(.showAnswered(presentationId: "p1", accepted: false, now: 0))
        #expect(refusal.first == .showFailure(.refused), "a refused show keeps the sheet, failed (§6)")
        #expect(Self.toMain(refusal).isEmpty)

        var closing = Self.prewarmed()
        _ = closing.reduce(.open(Self.request, now: 0))
        #expect(closing.reduce(.closeRequested(presentationId: "p0")).isEmpty, "another id")
        #expect(closing.shown != nil)
        #expect(Self.toSheet(closing.reduce(.closeRequested(presentationId: "p1"))) == [.dismissPresentation(presentationId: "p1")])

        var navigating = Self.prewarmed()
        _ = navigating.reduce(.open(Self.request, now: 0))
        let main = Self.toMain(navigating.reduce(.navigateRequested(presentationId: "p1", path: "/media")))
        #expect(main == [.presentationEnded(presentationId: "p1"), .deepLink(path: "/media"), .presentationAvailable(true)])
    }

    @Test("on demand: without prewarming, main is offered sheets at once; the page loads on open and shows when ready")
    func onDemand() {
        var life = Life(prewarms: false)
        let ready = life.reduce(.mainReady(true))
        #expect(Self.made(ready).isEmpty)
        #expect(Self.toMain(ready) == [.presentationAvailable(true)])
        let opened = life.reduce(.open(Self.request, now: 0))
        #expect(Self.made(opened) == [1])
        #expect(Self.toSheet(opened).isEmpty, "not shown before the page is ready")
        #expect(life.shown?.prewarmed == false)
        #expect(Self.toSheet(life.reduce(.pageReady(page: 1))) == [.showPresentation(presentationId: "p1", path: "/__native/modal/a")])

        // Dismissed, the page made on demand goes: nothing is kept without prewarming.
        _ = life.reduce(.showAnswered(presentationId: "p1", accepted: true, now: 0))
        let dismissed = life.reduce(.dismissRequested)
        #expect(Self.discarded(dismissed) == [1] && Self.made(dismissed).isEmpty)

        // A page that never gets ready fails the sheet after 20 s: it stays, with Retry.
        var stuck = Life(prewarms: false)
        _ = stuck.reduce(.mainReady(true))
        _ = stuck.reduce(.open(Self.request, now: 0))
        let late = stuck.reduce(.timerFired(.ready))
        #expect(late.contains(.showFailure(.unavailable)))
        #expect(Self.toMain(late).isEmpty)
        #expect(stuck.shown?.failure == .unavailable)
    }

    @Test("memory pressure drops the prewarmed page, not a sheet in use, and pauses prewarming for 60 s")
    func pressure() {
        var life = Self.prewarmed()
        let pressed = life.reduce(.memoryPressure)
        #expect(pressed.contains(.timer(.start(.pressurePause, after: Life.pressurePause))))
        #expect(Self.discarded(pressed) == [1] && Self.made(pressed).isEmpty)
        #expect(!life.prewarmingNow)
        #expect(Self.toMain(pressed).isEmpty, "sheets stay available: they load on demand meanwhile")
        #expect(life.availableToMain)
        let resumed = life.reduce(.timerFired(.pressurePause))
        #expect(Self.made(resumed) == [2])
        #expect(Self.toMain(resumed) == [.presentationAvailable(false)], "until the new page is ready")

        var inUse = Self.prewarmed()
        _ = inUse.reduce(.open(Self.request, now: 0))
        #expect(Self.discarded(inUse.reduce(.memoryPressure)).isEmpty, "the sheet shown keeps its page")
    }

    @Test("a hidden page that fails is rebuilt on the next open; a shown one keeps its sheet, failed")
    func failures() {
        var life = Self.prewarmed()
        let failed = life.reduce(.pageFailed(page: 1))
        #expect(Self.discarded(failed) == [1] && Self.made(failed).isEmpty, "no page is made in a process that is being replaced")
        #expect(Self.released(failed) == [1] && Self.asked(failed).isEmpty, "its document died with its process: nothing is waited for")
        #expect(life.lettingGo.isEmpty)
        #expect(Self.toMain(failed) == [.presentationAvailable(false)])
        #expect(life.reduce(.pageFailed(page: 1)).isEmpty, "an old page's report")
        let back = life.reduce(.mainReady(true))
        #expect(Self.made(back).isEmpty, "main is ready again: the page is rebuilt on the next open, not now (§6)")
        #expect(Self.toMain(back) == [.presentationAvailable(true)], "sheets are offered meanwhile")
        let opened = life.reduce(.open(Self.request, now: 0))
        #expect(Self.made(opened) == [2] && life.shown?.waitingForReady == true)
        _ = life.reduce(.pageReady(page: 2))
        let ended = life.reduce(.pageFailed(page: 2))
        #expect(ended.first == .showFailure(.ended) && Self.toMain(ended).isEmpty, "the sheet stays, failed")
        #expect(Self.discarded(ended) == [2] && Self.released(ended) == [2])
        _ = life.reduce(.mainReady(true))
        #expect(life.page == nil, "nothing is prewarmed while the failed sheet shows")
        let closed = life.reduce(.dismissRequested)
        #expect(Self.toSheet(closed).isEmpty, "its page is gone: only main hears the end")
        #expect(Self.toMain(closed).first == .presentationEnded(presentationId: "p1"))
        #expect(Self.made(closed) == [3], "prewarmed again once the failed sheet is gone")
        _ = life.reduce(.pageReady(page: 3))
        #expect(Self.discarded(life.reduce(.discardHidden)) == [3], "/login or a sign-out drops the hidden page")
    }

    @Test("a sheet header's back button reports the action back; only close dismisses")
    func backIsAnAction() {
        var back = Self.showing(header: "back")
        #expect(back.shown?.navigationButton == .back)
        let pressed = back.reduce(.navigationPressed)
        #expect(pressed == [.toSheet(.presentationAction(presentationId: "p1", actionId: "back"))])
        #expect(back.shown != nil, "back does not dismiss")

        var close = Self.showing(header: "close")
        #expect(Self.toSheet(close.reduce(.navigationPressed)) == [.dismissPresentation(presentationId: "p1")])

        var fixed = Self.showing(header: nil, dismissible: false)
        #expect(fixed.shown?.navigationButton == nil, "no Close on a sheet that may not be dismissed")
        #expect(fixed.reduce(.navigationPressed).isEmpty)
        #expect(fixed.reduce(.dismissRequested).isEmpty)
        var backFixed = Self.showing(header: "back", dismissible: false)
        #expect(backFixed.shown?.navigationButton == .back, "Back does not dismiss, so it stays")
        #expect(!backFixed.reduce(.navigationPressed).isEmpty)
    }

    @Test("a header action or menu item Studio never offered is never reported")
    func onlyOffered() {
        var life = Self.showing()
        #expect(life.reduce(.actionPressed("refresh")) == [.toSheet(.presentationAction(presentationId: "p1", actionId: "refresh"))])
        #expect(!life.reduce(.actionPressed("share")).isEmpty)
        #expect(life.reduce(.actionPressed("replace")).isEmpty, "a disabled menu item")
        #expect(life.reduce(.actionPressed("delete")).isEmpty, "never offered")
        #expect(life.reduce(.actionPressed("back")).isEmpty, "back only when the header has it")
        var bare = Self.prewarmed()
        _ = bare.reduce(.open(Self.request, now: 0))
        #expect(bare.reduce(.actionPressed("refresh")).isEmpty, "no header yet: nothing offered")
    }

    @Test("a new document in main ends the sheet it had open")
    func mainNavigated() {
        var life = Self.prewarmed()
        let nothingShown = life.reduce(.mainDocumentChanged)
        #expect(Self.toSheet(nothingShown).isEmpty && Self.toMain(nothingShown) == [.presentationAvailable(false)],
                "nothing shown: nothing to end; main is not ready until its new document says so")
        _ = life.reduce(.mainReady(true))
        _ = life.reduce(.pageReady(page: 2))
        _ = life.reduce(.open(Self.request, now: 0))
        let ended = life.reduce(.mainDocumentChanged)
        #expect(Self.toSheet(ended) == [.dismissPresentation(presentationId: "p1")])
        #expect(Self.toMain(ended).first == .presentationEnded(presentationId: "p1"))
    }

    @Test("updates apply to the shown id only; close stops everything")
    func updatesAndClose() {
        var life = Self.showing()
        var stale = PresentationUpdate(presentationId: "p0")
        stale.size = .compact
        #expect(life.reduce(.updated(stale)).isEmpty)
        var update = PresentationUpdate(presentationId: "p1")
        update.size = .compact
        update.dismissible = false
        #expect(life.reduce(.updated(update)) == [.applySize(.compact), .applyDismissible(false, navigation: nil)])
        let closed = life.reduce(.close)
        #expect(Self.discarded(closed) == [1] && Self.released(closed) == [1] && Self.asked(closed).isEmpty, "the session goes: its page goes now")
        #expect(life.timers.running.isEmpty && life.page == nil && life.shown == nil)
        #expect(life.reduce(.mainReady(true)).isEmpty, "nothing is made after close")
    }

    @Test("a page let go of is kept until it says its replies have run, or for letGoLimit at most, then released once")
    func letGoUntilRepliesRun() {
        var life = Self.showing()
        #expect(Self.discarded(life.reduce(.closeRequested(presentationId: "p1"))).isEmpty, "kept for the next sheet")
        let closed = life.reduce(.discardHidden)
        #expect(Self.discarded(closed) == [1] && Self.asked(closed) == [1])
        #expect(closed.contains(.timer(.start(.letGo(page: 1), after: Life.letGoLimit))))
        #expect(Self.released(closed).isEmpty, "not before its replies have run")
        #expect(life.lettingGo == [1])
        #expect(Self.made(closed).isEmpty, "none is made beside the document /login or sign-out is replacing")
        _ = life.reduce(.mainDocumentChanged)
        #expect(Self.made(life.reduce(.mainReady(true))) == [2], "main's next document gets the next page meanwhile")
        #expect(life.reduce(.repliesRun(page: 2)).isEmpty, "a page not let go of is not released")
        #expect(life.reduce(.repliesRun(page: 1)) == [.releasePage(id: 1), .timer(.cancel(.letGo(page: 1)))])
        #expect(life.lettingGo.isEmpty)
        #expect(life.reduce(.repliesRun(page: 1)).isEmpty, "released once")
        #expect(life.reduce(.timerFired(.letGo(page: 1))).isEmpty, "a stale limit")

        // A page that never says so (its script stuck) is released at the limit; a late word is ignored.
        var hung = Self.showing()
        _ = hung.reduce(.dismissRequested)
        _ = hung.reduce(.memoryPressure)
        #expect(hung.reduce(.timerFired(.letGo(page: 1))) == [.releasePage(id: 1)])
        #expect(hung.lettingGo.isEmpty && !hung.timers.isRunning(.letGo(page: 1)))
        #expect(hung.reduce(.repliesRun(page: 1)).isEmpty)
    }

    @Test("every page let go of waits for its replies (each on its own limit); a closing session releases them all at once")
    func everyLetGoWaits() {
        var life = Self.prewarmed()
        let pressed = life.reduce(.memoryPressure)
        #expect(Self.discarded(pressed) == [1] && Self.asked(pressed) == [1] && Self.released(pressed).isEmpty)
        _ = life.reduce(.open(Self.request, now: 0))  // on demand meanwhile: page 2
        let ended = life.reduce(.navigateRequested(presentationId: "p1", path: "/media"))
        #expect(Self.discarded(ended) == [2] && Self.asked(ended) == [2])
        #expect(life.lettingGo == [1, 2])
        #expect(life.timers.isRunning(.letGo(page: 1)) && life.timers.isRunning(.letGo(page: 2)))
        #expect(Self.released(life.reduce(.repliesRun(page: 2))) == [2])
        #expect(life.timers.isRunning(.letGo(page: 1)), "the other page's limit runs on")

        var slow = Life(prewarms: true)
        _ = slow.reduce(.mainReady(true))
        let late = slow.reduce(.timerFired(.ready))
        #expect(Self.discarded(late) == [1] && Self.asked(late) == [1], "a page given up on waits too")
        _ = slow.reduce(.pageReady(page: 2))
        #expect(Self.asked(slow.reduce(.discardHidden)) == [2], "so does one /login drops")
        _ = slow.reduce(.open(Self.request, now: 1))  // built on demand before main's next document: page 3
        let closing = slow.reduce(.close)
        #expect(Self.discarded(closing) == [3], "the page built on demand after /login")
        #expect(Self.released(closing) == [3, 1, 2] && Self.asked(closing).isEmpty)
        #expect(slow.lettingGo.isEmpty && slow.timers.running.isEmpty)
        #expect(slow.reduce(.repliesRun(page: 1)).isEmpty && slow.reduce(.timerFired(.letGo(page: 2))).isEmpty)
    }
}
