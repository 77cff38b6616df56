import CGtk
import HostCore

/// Whether the page's web process runs its scripts: WebKit's own judgement (it changes only
/// while WebKit waits on the process for input or closing) together with the host's ping
/// (`ResponsivenessProbe`: a trivial script in a world of its own, with a deadline), so a page
/// that spins with nobody touching it is judged too, and `HangWatch` recovers it unattended.
extension WebPage {
    /// Whether the process answers: WebKit's judgement and the last ping's.
    package var isResponsive: Bool { webkit_web_view_get_is_web_process_responsive(view) != 0 && probe.answering }

    /// Calls `body` with `isResponsive` each time the judgement changes.
    package func onResponsivenessChange(_ body: @escaping @MainActor (Bool) -> Void) {
        responsivenessListeners.append(body)
    }

    /// Follows WebKit's judgement and starts the pings.
    func watchResponsiveness() -> SignalConnection {
        scheduleProbe()
        return onNotify(UnsafeMutableRawPointer(view), "is-web-process-responsive") { [weak self] in self?.tellResponsiveness() }
    }

    func stopProbe() {
        if probeSource != 0 { g_source_remove(probeSource) }
        probeSource = 0
    }

    private func scheduleProbe() {
        probeSource = MainLoop.timeout(milliseconds: UInt32(ResponsivenessProbe.interval * 1000)) { [weak self] in
            guard let self else { return }
            self.probeSource = 0
            self.probeTick()
            self.scheduleProbe()
        }
    }

    private func probeTick() {
        switch probe.tick(now: monotonicSeconds()) {
        case .send(let id):
            callAsync("return true", world: "hostshell-ping") { [weak self] _ in
                guard let self, case .judged = self.probe.answered(id) else { return }
                self.tellResponsiveness()
            }
        case .judged:
            tellResponsiveness()
        case nil:
            break
        }
    }

    /// Tells the listeners when the combined judgement changed.
    private func tellResponsiveness() {
        let now = isResponsive
        guard now != toldResponsive else { return }
        toldResponsive = now
        for listener in responsivenessListeners { listener(now) }
    }
}
