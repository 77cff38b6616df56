import HomeSec
import HostCore
import ShellKit

/// The reference server's notifier glue: the runs `HomeSecServer` decides (BridgeRuntime) are
/// carried out here — each `send` through the APNs client, each answer handed back, each retry
/// timed on the main loop.
extension HomeSecFixtureServer {
    /// Begins the first attempt of every event raised by the last request.
    func startRaisedRuns() {
        for run in rules.takeRaisedRuns() { beginAttempt(run) }
    }

    private func beginAttempt(_ run: Int) {
        let now = wallClockSeconds()
        perform(rules.beginAttempt(run: run, providerToken: apnsClient?.providerToken(now: now), now: now))
    }

    private func perform(_ effects: [HomeSecNotifyEffect]) {
        for effect in effects {
            switch effect {
            case .send(let run, let device, let request):
                guard let apnsClient else {
                    perform(rules.answered(run: run, deviceID: device, outcome: HomeSecNotifier.outcome(status: nil, body: [], transportError: "NoClient")))
                    continue
                }
                apnsClient.post(request) { [weak self] status, body, failure in
                    guard let self else { return }
                    let outcome = HomeSecNotifier.outcome(status: status, body: body, transportError: failure)
                    self.perform(self.rules.answered(run: run, deviceID: device, outcome: outcome))
                }
            case .retry(let run, let seconds):
                MainLoop.after(milliseconds: UInt32(seconds * 1000)) { [weak self] in self?.beginAttempt(run) }
            }
        }
    }
}
