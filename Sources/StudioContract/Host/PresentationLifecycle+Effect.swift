import HostCore

extension PresentationLifecycle {
    /// What the host carries out for the presentation life cycle (`PresentationController`).
    public enum Effect: Sendable, Equatable {
        /// Make sheet page `id` (at `/__native/modal`, its sheet laid out at `size`, hidden).
        case makePage(id: Int, size: PresentationSize)
        /// Let go of sheet page `id`: its sheet goes, nothing of it shows or can be reached, its
        /// bridge is closed (what it posts from now on is answered `unavailable` in the page) and
        /// nothing it asks beyond its own document is allowed. Its document runs on until
        /// `.releasePage`.
        case discardPage(id: Int)
        /// Ask page `id`, let go of, to say (`.repliesRun`) once the replies to every message it
        /// posted have run in it.
        case confirmRepliesRun(page: Int)
        /// Drop page `id`, let go of before: its web view and its document end.
        case releasePage(id: Int)
        /// Show the sheet for the request, under the loading mark (in place of a failed one).
        case showSheet(PresentationOpen)
        /// The sheet goes (and a failed one with it); its page, if kept, waits hidden for the next.
        case hideSheet
        /// The shown sheet's page failed: the sheet stays, saying so, with Retry and Close (it
        /// may always be dismissed now); its page is let go of next.
        case showFailure(PresentationFailure)
        /// Report (`.painted`) once the sheet page has painted after the `presentation/show`
        /// just sent to it (its receiver runs before the wait's frames).
        case waitForPaint(presentationId: String)
        case reveal
        case applyHeader(PresentationHeader, navigation: HeaderNavigation?)
        case applySize(PresentationSize)
        case applyDismissible(Bool, navigation: HeaderNavigation?)
        /// An event for the sheet page's or main's page session.
        case toSheet(PageEvent)
        case toMain(PageEvent)
        case timer(TimerCommand<Timer>)
        /// Say this on standard error (the host has no one else to tell).
        case report(String)
    }
}
