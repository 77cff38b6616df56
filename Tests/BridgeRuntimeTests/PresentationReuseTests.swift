import HostCore
import StudioContract
import Testing

/// §6: the presentation page is built once and reused — every open gets a `presentation/show`
/// on the same page, it is discarded only for §6's reasons, and a shown page that fails keeps
/// its sheet open in a failed state with Retry.
@Suite("Presentation page reuse (§6)")
struct PresentationReuseTests {
    typealias Life = PresentationLifecycle
    typealias T = PresentationLifecycleTests

    static func request(_ n: Int, size: PresentationSize = .full, dismissible: Bool = true) -> PresentationOpen {
        PresentationOpen(presentationId: "p\(n)", path: "/__native/modal/s\(n)", title: "Sheet \(n)", size: size, dismissible: dismissible)
    }

    /// Opens sheet `n` on a ready page, has Studio accept and paint it; returns every effect.
    static func openAndShow(_ life: inout Life, _ n: Int, size: PresentationSize = .full) -> [Life.Effect] {
        var effects = life.reduce(.open(request(n, size: size), now: Double(n)))
        effects += life.reduce(.showAnswered(presentationId: "p\(n)", accepted: true, now: Double(n) + 0.01))
        effects += life.reduce(.painted(presentationId: "p\(n)", now: Double(n) + 0.02, seen: true))
        return effects
    }

    @Test("three sheets in a row: one page boots once and serves them all, each with its own show, dismissed and ended")
    func threeSheetsOnePage() {
        var life = T.prewarmed()
        #expect(life.pagesMade == 1)
        for n in 1...3 {
            let size: PresentationSize = n == 2 ? .compact : .full
            let shown = Self.openAndShow(&life, n, size: size)
            #expect(T.made(shown).isEmpty && T.discarded(shown).isEmpty, "sheet \(n): no new page")
            #expect(shown.contains(.showSheet(Self.request(n, size: size))), "sheet \(n) opens with its own header and size")
            #expect(T.toSheet(shown) == [.showPresentation(presentationId: "p\(n)", path: "/__native/modal/s\(n)")])
            #expect(shown.contains(.reveal))
            #expect(life.lastOpen?.prewarmed == true, "sheet \(n) took the waiting page")
            #expect(life.shown?.size == size)
            let ended = n == 2 ? life.reduce(.closeRequested(presentationId: "p2")) : life.reduce(.dismissRequested)
            #expect(T.toSheet(ended) == [.dismissPresentation(presentationId: "p\(n)")])
            #expect(T.toMain(ended) == [.presentationEnded(presentationId: "p\(n)"), .presentationAvailable(true)])
            #expect(ended.contains(.hideSheet))
            #expect(T.made(ended).isEmpty && T.discarded(ended).isEmpty && T.asked(ended).isEmpty)
            #expect(life.page?.id == 1 && life.page?.booted == true && life.page?.ready == true, "the same page waits, hidden")
        }
        #expect(life.pagesMade == 1)
        #expect(life.reduce(.closeRequested(presentationId: "p3")).isEmpty, "a presentation ends once")
        var old = PresentationUpdate(presentationId: "p1")
        old.size = .compact
        _ = Self.openAndShow(&life, 4)
        #expect(life.reduce(.updated(old)).isEmpty, "an old presentationId is ignored")
        #expect(life.reduce(.showAnswered(presentationId: "p1", accepted: false, now: 1)).isEmpty, "so is an old show's answer")
    }

    @Test("a sheet opened while the page still boots waits for its ready, then the page stays for the next")
    func openWhileBooting() {
        var life = Life(prewarms: true)
        _ = life.reduce(.mainReady(true))
        // Main is not offered sheets before ready; the machine still takes an open (the session gates it).
        let opened = life.reduce(.open(Self.request(1), now: 0))
        #expect(T.made(opened).isEmpty && T.toSheet(opened).isEmpty && life.shown?.prewarmed == false)
        #expect(T.toSheet(life.reduce(.pageReady(page: 1))) == [.showPresentation(presentationId: "p1", path: "/__native/modal/s1")])
        _ = life.reduce(.dismissRequested)
        #expect(life.page?.ready == true && life.pagesMade == 1)
        // Dismissed before its page said ready: the page is kept and becomes ready when it does.
        var early = Life(prewarms: true)
        _ = early.reduce(.mainReady(true))
        _ = early.reduce(.open(Self.request(1), now: 0))
        let gone = early.reduce(.dismissRequested)
        #expect(T.toSheet(gone) == [.dismissPresentation(presentationId: "p1")] && T.discarded(gone).isEmpty)
        #expect(early.page?.ready == false)
        #expect(T.toSheet(early.reduce(.pageReady(page: 1))).isEmpty, "nothing to show any more")
        #expect(early.page?.ready == true && early.availableToMain)
    }

    /// What discards the page waiting hidden after a sheet (§6), and what does not.
    enum Cause: String, CaseIterable, Sendable {
        case catalogWithdrawnOrNewDocument, loginOrSignOut, memoryPressure, processDied, sessionClosed
    }

    @Test("the hidden page is discarded only for §6's reasons", arguments: Cause.allCases)
    func discardReasons(_ cause: Cause) {
        var life = T.prewarmed()
        _ = Self.openAndShow(&life, 1)
        _ = life.reduce(.dismissRequested)
        #expect(life.page?.id == 1)
        let effects: [Life.Effect]
        switch cause {
        case .catalogWithdrawnOrNewDocument: effects = life.reduce(.mainReady(false))
        case .loginOrSignOut: effects = life.reduce(.discardHidden)
        case .memoryPressure: effects = life.reduce(.memoryPressure)
        case .processDied: effects = life.reduce(.pageFailed(page: 1))
        case .sessionClosed: effects = life.reduce(.close)
        }
        #expect(T.discarded(effects) == [1], "\(cause)")
        #expect(life.page?.id != 1)
    }

    @Test("a hidden page lost with its process is rebuilt on main's next open, or prewarmed for main's next document")
    func lostHiddenPage() {
        // Main lives on (the sheet page had a process of its own): rebuilt on the next open.
        var alone = T.prewarmed()
        _ = alone.reduce(.pageFailed(page: 1))
        #expect(T.made(alone.reduce(.mainReady(true))).isEmpty && alone.rebuildOnOpen)
        #expect(T.made(alone.reduce(.open(Self.request(1), now: 0))) == [2] && !alone.rebuildOnOpen)
        // Main's page died with it and reloaded: its new document gets a prewarmed page.
        var both = T.prewarmed()
        _ = both.reduce(.pageFailed(page: 1))
        #expect(T.made(both.reduce(.mainDocumentChanged)).isEmpty && !both.rebuildOnOpen)
        #expect(T.made(both.reduce(.mainReady(true))) == [2])
        #expect(both.pagesMade == 2)
    }

    @Test("main's process died: no page is made beside main until its new document says it is ready, even after a stale readiness report")
    func noPageBesideDeadMain() {
        var life = T.prewarmed()
        _ = life.reduce(.pageFailed(page: 1))
        // Main's session has not heard of the death yet: it still reports the old document ready.
        #expect(T.made(life.reduce(.mainReady(true))).isEmpty)
        // Then it hears (a new document count) — before main's reload is asked for.
        #expect(T.made(life.reduce(.mainDocumentChanged)).isEmpty, "a page made now would start main a blank process")
        #expect(!life.mainReady)
        #expect(T.made(life.reduce(.mainReady(true))) == [2], "main's new document is ready: prewarmed afresh")
    }

    @Test("sign-out or /login: the hidden page goes and none is made beside the leaving document; main's next one gets exactly one")
    func noPageForLeavingDocument() {
        var life = T.prewarmed()
        _ = Self.openAndShow(&life, 1)
        _ = life.reduce(.dismissRequested)
        let discarded = life.reduce(.discardHidden)
        #expect(T.discarded(discarded) == [1] && T.made(discarded).isEmpty, "no page boots with the sign-in that is ending")
        // Main's session keeps reporting the old document ready until it is replaced.
        #expect(T.made(life.reduce(.mainReady(true))).isEmpty)
        #expect(T.toMain(life.reduce(.mainReady(true))).isEmpty, "sheets stay available: an open builds its page")
        #expect(life.availableToMain)
        #expect(T.made(life.reduce(.mainDocumentChanged)).isEmpty)
        #expect(T.made(life.reduce(.mainReady(true))) == [2], "main's next document is prewarmed once")
        #expect(T.made(life.reduce(.mainReady(true))).isEmpty)
        #expect(life.pagesMade == 2)
    }

    @Test("an open between a sign-out's discard and main's next document builds its own page")
    func openAfterDiscardHidden() {
        var life = T.prewarmed()
        _ = life.reduce(.discardHidden)
        let opened = life.reduce(.open(Self.request(1), now: 1))
        #expect(T.made(opened) == [2] && !life.rebuildOnOpen)
        #expect(life.shown?.waitingForReady == true)
    }

    @Test("while a sheet shows, nothing but its own failure or end takes its page")
    func shownPageKept() {
        var life = T.prewarmed()
        _ = Self.openAndShow(&life, 1)
        #expect(T.discarded(life.reduce(.mainReady(false))).isEmpty, "catalog withdrawn: the sheet keeps its page")
        #expect(T.discarded(life.reduce(.discardHidden)).isEmpty)
        #expect(T.discarded(life.reduce(.memoryPressure)).isEmpty)
        #expect(life.shown != nil && life.page?.id == 1)
        let ended = life.reduce(.dismissRequested)
        #expect(T.discarded(ended) == [1], "once it ended, main is not ready (and nothing is prewarmed): it goes")
    }

    enum Failure: String, CaseIterable, Sendable { case ended, unavailable, refused }

    @Test("a shown page that fails keeps the sheet open, failed, with Retry rebuilding the page", arguments: Failure.allCases)
    func failedSheetRetries(_ kind: Failure) {
        var life = T.prewarmed()
        var failed: [Life.Effect]
        switch kind {
        case .ended:
            _ = Self.openAndShow(&life, 1)
            failed = life.reduce(.pageFailed(page: 1))
            _ = life.reduce(.mainReady(true))  // main reported itself again
        case .unavailable:
            _ = life.reduce(.pageFailed(page: 1))  // hidden: rebuilt on the next open …
            _ = life.reduce(.mainReady(true))
            _ = life.reduce(.open(Self.request(1), now: 1))
            failed = life.reduce(.timerFired(.ready))  // … which never says ready
        case .refused:
            _ = life.reduce(.open(Self.request(1), now: 1))
            failed = life.reduce(.showAnswered(presentationId: "p1", accepted: false, now: 1))
        }
        let expected: PresentationFailure = switch kind { case .ended: .ended; case .unavailable: .unavailable; case .refused: .refused }
        #expect(failed.contains(.showFailure(expected)))
        #expect(T.toMain(failed).isEmpty && !failed.contains(.hideSheet), "the sheet stays open")
        let failedPage = kind == .unavailable ? 2 : 1
        #expect(T.discarded(failed) == [failedPage], "its page is let go of")
        #expect(life.shown?.failure == expected && life.shown?.navigationButton == .close)
        #expect(life.page == nil && !life.availableToMain)
        #expect(life.reduce(.actionPressed("refresh")).isEmpty, "nothing of Studio's is offered on a failed sheet")

        let boots = life.pagesMade
        let retried = life.reduce(.retryPressed(now: 5))
        #expect(T.made(retried) == [failedPage + 1] && life.pagesMade == boots + 1, "Retry builds a new page")
        #expect(retried.contains(.showSheet(Self.request(1))))
        #expect(life.shown?.failure == nil && life.shown?.waitingForReady == true)
        #expect(life.reduce(.retryPressed(now: 6)).isEmpty, "Retry only on a failed sheet")
        #expect(T.toSheet(life.reduce(.pageReady(page: failedPage + 1))) == [.showPresentation(presentationId: "p1", path: "/__native/modal/s1")])
        _ = life.reduce(.showAnswered(presentationId: "p1", accepted: true, now: 5.05))
        #expect(life.reduce(.painted(presentationId: "p1", now: 5.1, seen: true)) == [.reveal])
        _ = life.reduce(.dismissRequested)
        #expect(life.page?.id == failedPage + 1 && life.page?.ready == true, "the rebuilt page serves the next sheets")
    }

    @Test("a failed sheet may be dismissed even if Studio had said it may not; only main hears the end")
    func failedSheetDismisses() {
        var life = T.prewarmed()
        _ = life.reduce(.open(Self.request(1, dismissible: false), now: 0))
        #expect(life.reduce(.dismissRequested).isEmpty)
        _ = life.reduce(.showAnswered(presentationId: "p1", accepted: false, now: 1))
        let closed = life.reduce(.dismissRequested)
        #expect(T.toSheet(closed).isEmpty)
        #expect(T.toMain(closed).first == .presentationEnded(presentationId: "p1"))
        #expect(closed.contains(.hideSheet) && life.shown == nil)
        #expect(T.made(closed) == [2], "a fresh page is prewarmed for the next sheet")
    }
}
