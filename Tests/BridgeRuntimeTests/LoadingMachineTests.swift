import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Loading: identity, reveal, failures, crashes, kiosk retries")
struct LoadingMachineTests {
    static let origin = "http://127.0.0.1:8080/"

    /// Started and identified: Studio's start page is loading, nothing committed yet.
    static func identified(kiosk: Bool = false) -> LoadingMachine {
        var machine = LoadingMachine(serverName: "North")
        if kiosk { _ = machine.reduce(.kioskMode) }
        _ = machine.reduce(.start)
        _ = machine.reduce(.identityAnswered(request: machine.identityRequest, .matches))
        return machine
    }

    /// Identified and Studio's document committed with `status`.
    static func committed(_ status: Int = 200, kiosk: Bool = false) -> LoadingMachine {
        var machine = identified(kiosk: kiosk)
        _ = machine.reduce(.loadCommitted(status: status, uri: origin))
        return machine
    }

    /// Loaded, with its catalog: the page shows.
    static func revealed(kiosk: Bool = false) -> LoadingMachine {
        var machine = committed(kiosk: kiosk)
        _ = machine.reduce(.catalogArrived)
        _ = machine.reduce(.loadFinished)
        return machine
    }

    static func shownError(_ effects: [LoadingEffect]) -> ScreenError? {
        for case .show(.error(let error)) in effects { return error }
        return nil
    }

    @Test("start shows the loading mark and asks who the server is; a matching identity loads Studio")
    func start() {
        var machine = LoadingMachine(serverName: "North")
        #expect(machine.screen == .loading("Connecting to North…"), "the window shows the loading mark from the start")
        let started = machine.reduce(.start)
        #expect(started == [.show(.loading("Connecting to North…")), .fetchIdentity(request: 1)])
        #expect(machine.phase == .verifying(request: 1))
        let answered = machine.reduce(.identityAnswered(request: 1, .matches))
        #expect(answered == [.show(.loading("Loading North…")), .loadStartPage])
        #expect(machine.phase == .loading(nil))
        #expect(machine.screen.name == "loading" && machine.screen.statusJSON == ["title": "Loading North…", "detail": ""])
    }

    @Test("a catalog before the load finished reveals at once, without a timer")
    func revealWithCatalog() {
        var machine = Self.committed()
        #expect(machine.reduce(.catalogArrived) == [], "not finished yet")
        #expect(machine.reduce(.loadFinished) == [.show(.page)])
        #expect(machine.phase == .shown && machine.screen == .page)
        #expect(machine.screen.statusJSON == .null)
        #expect(machine.timers.running.isEmpty)
    }

    @Test("finished without a catalog: the 300 ms timer starts once; a catalog reveals and cancels it; a stale fire is ignored")
    func revealAfterCatalogCancelsTimer() {
        var machine = Self.committed()
        #expect(machine.reduce(.loadFinished) == [.timer(.start(.revealDelay, after: 0.3))])
        #expect(machine.screen.name == "loading")
        #expect(machine.reduce(.loadFinished) == [], "a load finishing twice starts nothing more")
        #expect(machine.timers.running == [.revealDelay: 0.3])
        #expect(machine.reduce(.catalogArrived) == [.timer(.cancel(.revealDelay)), .show(.page)])
        #expect(machine.reduce(.timerFired(.revealDelay)) == [], "the fire raced the cancel: stale")
        #expect(machine.reduce(.catalogArrived) == [], "a catalog reported again changes nothing")
        #expect(machine.screen == .page)
    }

    @Test("finished without a catalog: the page shows when 300 ms passed")
    func revealAfterDelay() {
        var machine = Self.committed()
        _ = machine.reduce(.loadFinished)
        #expect(machine.reduce(.timerFired(.revealDelay)) == [.show(.page)])
        #expect(machine.phase == .shown)
        #expect(machine.reduce(.timerFired(.revealDelay)) == [], "fired once")
        #expect(machine.reduce(.catalogArrived) == [], "already shown")
    }

    @Test("a new document before the reveal starts the rule again: the old pause is cancelled, the old catalog does not count")
    func secondDocument() {
        var machine = Self.committed()
        _ = machine.reduce(.catalogArrived)
        #expect(machine.reduce(.loadCommitted(status: 200, uri: Self.origin + "login")) == [])
        var fresh = Self.committed()
        _ = fresh.reduce(.loadFinished)
        #expect(fresh.reduce(.loadCommitted(status: 200, uri: Self.origin + "login")) == [.timer(.cancel(.revealDelay))])
        #expect(machine.reduce(.loadFinished) == [.timer(.start(.revealDelay, after: 0.3))], "the catalog was the old document's")
    }

    @Test("a finish before Studio's document committed is the replaced load's, and is ignored")
    func finishBeforeCommit() {
        var machine = Self.identified()
        #expect(machine.reduce(.catalogArrived) == [])
        #expect(machine.reduce(.loadFinished) == [])
        #expect(machine.screen.name == "loading" && machine.timers.running.isEmpty)
    }

    @Test("Studio's page with HTTP 400 or more is an error screen with the status; 5xx says it is a server problem", arguments: [404, 503])
    func httpError(status: Int) throws {
        var machine = Self.committed(status)
        _ = machine.reduce(.catalogArrived)
        let effects = machine.reduce(.loadFinished)
        let error = try #require(Self.shownError(effects))
        #expect(error.kind == .httpError(status))
        #expect(error.title == "North answered with an error")
        #expect(error.detail.contains("HTTP \(status)") && error.detail.contains(Self.origin))
        #expect(error.detail.contains("a problem on the server") == (status >= 500))
        #expect(error.icon == "dialog-error-symbolic")
        #expect(machine.screen == .error(error) && machine.phase == .failed)
        #expect(machine.reduce(.loadFinished) == [] && machine.reduce(.timerFired(.revealDelay)) == [], "the error page is never revealed")
        let json = machine.screen.statusJSON.objectValue
        #expect(json?["kind"] == "httpError" && json?["httpStatus"] == .number(Double(status)))
        #expect(json?["title"] == .string(error.title) && json?["icon"] == "dialog-error-symbolic")
    }

    @Test("each identity failure has its screen with Retry", arguments: [
        (IdentityFailureKind.insecure, ScreenError.Kind.insecure, "The connection to North isn't secure", "channel-insecure-symbolic"),
        (.unreachable, .unreachable, "Can't reach North", "network-offline-symbolic"),
        (.refused, .notIdentified, "North did not say who it is", "dialog-warning-symbolic"),
    ])
    func identityFailures(failure: IdentityFailureKind, kind: ScreenError.Kind, title: String, icon: String) throws {
        var machine = LoadingMachine(serverName: "North")
        _ = machine.reduce(.start)
        let effects = machine.reduce(.identityFailed(request: 1, failure, message: "what the check said"))
        let error = try #require(Self.shownError(effects))
        #expect(error.kind == kind && error.title == title && error.icon == icon)
        #expect(error.detail.hasPrefix("what the check said"))
        #expect(!effects.contains(.loadStartPage), "nothing is loaded")
        #expect(machine.screen.name == "error")
        #expect(machine.screen.statusJSON.objectValue?["kind"] == .string(kind.name))
    }

    @Test("another installation at the saved address blocks loading, with the verdict's explanation")
    func mismatch() throws {
        var machine = LoadingMachine(serverName: "North")
        _ = machine.reduce(.start)
        let verdict = IdentityVerdict.installationChanged(saved: "aaaa", now: "bbbb")
        let effects = machine.reduce(.identityAnswered(request: 1, verdict))
        let error = try #require(Self.shownError(effects))
        #expect(error.kind == .wrongServer && error.title == "This is not the server you saved")
        #expect(error.detail == verdict.explanation)
        #expect(!effects.contains(.loadStartPage))
    }

    @Test("an identity answer to a check that was retried meanwhile is stale")
    func staleIdentity() {
        var machine = LoadingMachine(serverName: "North")
        _ = machine.reduce(.start)
        #expect(machine.reduce(.start) == [.show(.loading("Connecting to North…")), .fetchIdentity(request: 2)])
        #expect(machine.reduce(.identityFailed(request: 1, .unreachable, message: "down")) == [])
        #expect(machine.reduce(.identityAnswered(request: 1, .matches)) == [])
        #expect(machine.phase == .verifying(request: 2))
        #expect(machine.reduce(.identityAnswered(request: 2, .matches)) == [.show(.loading("Loading North…")), .loadStartPage])
        #expect(machine.reduce(.identityAnswered(request: 2, .matches)) == [], "answered already")
        var signedIn = LoadingMachine(serverName: "North")
        _ = signedIn.reduce(.start)
        _ = signedIn.reduce(.loadAgain)
        #expect(signedIn.reduce(.identityAnswered(request: 1, .matches)) == [], "a load after sign-in overtook the check")
    }

    @Test("cancelled and policy load failures are not failures; others are, also once the page shows")
    func loadFailures() throws {
        var machine = Self.committed()
        #expect(machine.reduce(.loadFailed(.cancelled, uri: Self.origin)) == [])
        #expect(machine.reduce(.loadFailed(.policy, uri: "https://elsewhere.example/")) == [])
        #expect(machine.screen.name == "loading")
        let error = try #require(Self.shownError(machine.reduce(.loadFailed(.other("Could not connect"), uri: Self.origin))))
        #expect(error.kind == .loadFailed && error.title == "North could not be loaded")
        #expect(error.detail == "Could not connect\n" + Self.origin)
        var shown = Self.revealed()
        #expect(Self.shownError(shown.reduce(.loadFailed(.other("gone"), uri: Self.origin)))?.kind == .loadFailed)
        var verifying = Self.revealed()
        _ = verifying.reduce(.start)
        #expect(verifying.reduce(.loadFailed(.other("old page"), uri: Self.origin)) == [], "the old page's failure while verifying")
    }

    @Test("a web-process death reloads twice; a third within 30 s is an error screen")
    func crashLimit() throws {
        var machine = Self.revealed()
        for (death, time) in [(1, 0.0), (2, 10.0)] {
            #expect(machine.reduce(.webProcessEnded(.crashed, at: time)) == [.show(.loading("Studio stopped unexpectedly; reloading…")), .reload],
                    "death \(death)")
            _ = machine.reduce(.loadCommitted(status: 200, uri: Self.origin))
            _ = machine.reduce(.catalogArrived)
            #expect(machine.reduce(.loadFinished) == [.show(.page)])
        }
        let error = try #require(Self.shownError(machine.reduce(.webProcessEnded(.exceededMemory, at: 20))))
        #expect(error.kind == .keepsCrashing && error.title == "Studio keeps stopping")
        #expect(error.detail.contains("more than 2 times in 30 seconds") && error.detail.contains("out of memory"))
        #expect(machine.reduce(.loadFinished) == [] && machine.reduce(.catalogArrived) == [], "the error screen stays")
        #expect(machine.reduce(.webProcessEnded(.crashed, at: 21)) == [], "nothing to reload behind the error screen")
    }

    @Test("a hung web process: ended after the limit unless it answers again; its end reloads, and one that hangs every time stops on the error screen")
    func hungProcess() throws {
        var machine = Self.revealed()
        let limit = LoadingPolicy.unresponsiveLimit
        #expect(machine.reduce(.webProcessResponsive(false)) == [.timer(.start(.unresponsive, after: limit))])
        #expect(machine.reduce(.webProcessResponsive(false)) == [], "one timer, not restarted")
        #expect(machine.reduce(.webProcessResponsive(true)) == [.timer(.cancel(.unresponsive))], "it answered again: nothing ended")
        #expect(machine.reduce(.timerFired(.unresponsive)) == [], "a stale fire ends nothing")
        #expect(machine.reduce(.webProcessResponsive(true)) == [], "responsive while nothing runs")

        for (hang, time) in [(1, 0.0), (2, 20.0)] {
            _ = machine.reduce(.webProcessResponsive(false))
            #expect(machine.reduce(.timerFired(.unresponsive)) == [.endWebProcess], "hang \(hang)")
            #expect(machine.hang.endingHungProcess && machine.reduce(.webProcessResponsive(false)) == [], "no second timer while it ends")
            // WebKit reports the end the host asked for as ended by the app: the machine knows why.
            #expect(machine.reduce(.webProcessEnded(.terminatedByHost, at: time)) == [.show(.loading("Studio stopped responding; reloading…")), .reload])
            #expect(!machine.hang.endingHungProcess && !machine.timers.isRunning(.unresponsive))
            _ = machine.reduce(.loadCommitted(status: 200, uri: Self.origin))
            _ = machine.reduce(.catalogArrived)
            _ = machine.reduce(.loadFinished)
        }
        _ = machine.reduce(.webProcessResponsive(false))
        _ = machine.reduce(.timerFired(.unresponsive))
        let error = try #require(Self.shownError(machine.reduce(.webProcessEnded(.terminatedByHost, at: 25))))
        #expect(error.kind == .keepsCrashing && error.detail.contains("stopped responding"))
        #expect(machine.hang.processesEnded == 3)

        // A crash while the limit runs: a crash, and the new process's timer is not the old one's.
        var crashed = Self.revealed()
        _ = crashed.reduce(.webProcessResponsive(false))
        #expect(crashed.reduce(.webProcessEnded(.crashed, at: 0)) == [.timer(.cancel(.unresponsive)), .show(.loading("Studio stopped unexpectedly; reloading…")), .reload])
        // Behind an error screen a hung process is still ended (a Retry would load into it), without a reload.
        var failed = Self.committed(500)
        _ = failed.reduce(.loadFinished)
        _ = failed.reduce(.webProcessResponsive(false))
        #expect(failed.reduce(.timerFired(.unresponsive)) == [.endWebProcess])
        #expect(failed.reduce(.webProcessEnded(.terminatedByHost, at: 0)) == [])
        var closed = Self.revealed()
        _ = closed.reduce(.webProcessResponsive(false))
        #expect(closed.reduce(.closed) == [.timer(.cancel(.unresponsive))] && closed.reduce(.timerFired(.unresponsive)) == [])
    }

    @Test("deaths older than 30 s are forgotten")
    func oldDeathsForgotten() {
        var machine = Self.revealed()
        for time in [0.0, 20, 40, 60] {
            #expect(machine.reduce(.webProcessEnded(.crashed, at: time)).contains(.reload), "death at \(time) s")
            _ = machine.reduce(.loadCommitted(status: 200, uri: Self.origin))
            _ = machine.reduce(.loadFinished)
            _ = machine.reduce(.timerFired(.revealDelay))
        }
        #expect(machine.crashes.deaths == [40, 60])
    }

    @Test("a kiosk retries every failure behind the loading mark: 1, 2, 4 … 60 s; a reveal resets the count")
    func kioskBackoff() {
        var machine = LoadingMachine(serverName: "North")
        _ = machine.reduce(.kioskMode)
        _ = machine.reduce(.start)
        var delays: [Double] = []
        for attempt in 1...8 {
            let effects = machine.reduce(.identityFailed(request: machine.identityRequest, .unreachable, message: "down"))
            let delay = KioskBackoff.delay(attempt: attempt)
            delays.append(delay)
            #expect(effects == [.show(.loading("Can't reach North. Trying again in \(Int(delay)) s…")), .timer(.start(.kioskRetry, after: delay))])
            #expect(machine.retry == KioskRetry(attempt: attempt, inSeconds: delay, reason: "Can't reach North"))
            #expect(machine.screen.name == "loading", "nobody would press Retry")
            #expect(machine.reduce(.timerFired(.kioskRetry)) == [.show(.loading("Connecting to North…")), .fetchIdentity(request: machine.identityRequest)])
        }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(machine.retry?.json == ["attempt": 8, "inSeconds": 60, "reason": "Can't reach North"], "kept for dumps while trying again")
        _ = machine.reduce(.identityAnswered(request: machine.identityRequest, .matches))
        _ = machine.reduce(.loadCommitted(status: 200, uri: Self.origin))
        _ = machine.reduce(.loadFinished)
        _ = machine.reduce(.timerFired(.revealDelay))
        #expect(machine.screen == .page && machine.retry == nil)
        let again = machine.reduce(.loadFailed(.other("reset"), uri: Self.origin))
        #expect(again.contains(.timer(.start(.kioskRetry, after: 1))), "the count starts again after a reveal")
        #expect(machine.retry?.attempt == 1)
    }

    @Test("a kiosk retries an HTTP error page and a web process that keeps stopping too")
    func kioskRetriesEveryFailure() {
        var http = Self.committed(500, kiosk: true)
        #expect(http.reduce(.loadFinished).contains(.timer(.start(.kioskRetry, after: 1))))
        #expect(http.retry?.reason == "North answered with an error")
        var crashing = Self.revealed(kiosk: true)
        for time in [0.0, 1] {
            _ = crashing.reduce(.webProcessEnded(.crashed, at: time))
            _ = crashing.reduce(.loadCommitted(status: 200, uri: Self.origin))
        }
        #expect(crashing.reduce(.webProcessEnded(.crashed, at: 2)).contains(.timer(.start(.kioskRetry, after: 1))))
        #expect(crashing.retry?.reason == "Studio keeps stopping" && crashing.screen.name == "loading")
    }

    @Test("Retry overtakes a kiosk's pending retry: its timer is cancelled and a late fire is ignored")
    func retryOvertakesKioskRetry() {
        var machine = LoadingMachine(serverName: "North")
        _ = machine.reduce(.kioskMode)
        _ = machine.reduce(.start)
        _ = machine.reduce(.identityFailed(request: 1, .unreachable, message: "down"))
        #expect(machine.timers.isRunning(.kioskRetry))
        #expect(machine.reduce(.start) == [.timer(.cancel(.kioskRetry)), .show(.loading("Connecting to North…")), .fetchIdentity(request: 2)])
        #expect(machine.reduce(.timerFired(.kioskRetry)) == [], "stale: no second identity check")
        #expect(machine.identityRequest == 2)
        #expect(machine.retry?.attempt == 1, "the failures in a row are still counted until a reveal")
    }

    @Test("without a kiosk a failure waits for Retry: no timer")
    func attendedFailure() {
        var machine = LoadingMachine(serverName: "North")
        _ = machine.reduce(.start)
        _ = machine.reduce(.identityFailed(request: 1, .unreachable, message: "down"))
        #expect(machine.timers.running.isEmpty && machine.retry == nil)
        #expect(machine.reduce(.start).contains(.fetchIdentity(request: 2)), "Retry checks again")
    }

    @Test("loading again after sign-in skips the identity check and replaces a waiting failure")
    func loadAgain() {
        var machine = Self.revealed()
        #expect(machine.reduce(.loadAgain) == [.show(.loading("Loading North…")), .loadStartPage])
        var waiting = LoadingMachine(serverName: "North")
        _ = waiting.reduce(.kioskMode)
        _ = waiting.reduce(.start)
        _ = waiting.reduce(.identityFailed(request: 1, .unreachable, message: "down"))
        #expect(waiting.reduce(.loadAgain).first == .timer(.cancel(.kioskRetry)))
    }

    @Test("once revealed, later documents are Studio's own navigation: an error page after that is not an error screen")
    func laterDocuments() {
        var machine = Self.revealed()
        #expect(machine.reduce(.loadCommitted(status: 404, uri: Self.origin + "missing")) == [])
        #expect(machine.reduce(.loadFinished) == [])
        #expect(machine.screen == .page)
    }

    @Test("a closed session does nothing more and stops its timers")
    func closed() {
        var machine = Self.committed(kiosk: true)
        _ = machine.reduce(.loadFinished)
        #expect(machine.reduce(.closed) == [.timer(.cancel(.revealDelay))])
        #expect(machine.reduce(.timerFired(.revealDelay)) == [])
        #expect(machine.reduce(.start) == [])
        #expect(machine.reduce(.identityAnswered(request: machine.identityRequest, .matches)) == [])
    }
}
