import CapacitorContract
import HostCore
import ShellKit

/// `hostshell replay LOG` of a Capacitor app's log, in a fresh run of the app: carries out
/// `CapacitorReplaySession` — tells it when the page shows (or an error screen does), posts each
/// call from the page's main world through `window.webkit.messageHandlers.bridge` exactly as
/// the app's own code does, hands it every result the page is sent, prints its lines, and ends
/// with its verdict.
@MainActor
package final class CapacitorReplayRun {
    private let session: MachineLoop<CapacitorReplaySession>
    private let app: CapacitorApp
    private let done: (Int32) -> Void
    private lazy var timers = TimerBank<CapacitorReplaySession.Timer> { [weak self] timer in self?.apply(.timerFired(timer)) }

    init(calls: [CapacitorReplayCall], verbose: Bool, permissions: [CapacitorReplayPermission], app: CapacitorApp,
         done: @escaping (Int32) -> Void) {
        session = MachineLoop(CapacitorReplaySession(calls: calls, verbose: verbose, permissions: permissions))
        self.app = app
        self.done = done
    }

    /// Call before `app.start()`: the page's results and screens are followed from its first load.
    /// The app stays active and in the foreground throughout: the focus of a window on the
    /// replay's display is not the recorded session's, and must not change `App.getState`.
    package func start(timeout: Double) {
        app.lifecycleEvent(.drivenBy(.replay))
        app.page.onResult = { [weak self] result in self?.apply(.answered(result.json)) }
        app.onScreenChanged = { [weak self] in self?.screenChanged() }
        // A question the recorded session answered gets the same answer (as `ctl permission`).
        app.page.web.permissions.onOpened = { [weak self] question in
            self?.apply(.questionOpened(kinds: question.kinds.map(\.rawValue), byApp: question.byApp))
        }
        apply(.start(readyWithin: timeout))
    }

    private func screenChanged() {
        switch app.screen {
        case .page: apply(.ready)
        case .error(let error): apply(.failed("\(error.title): \(error.detail)"))
        default: break
        }
    }

    private func apply(_ event: CapacitorReplaySession.Event) {
        session.send(event) { self.perform($0) }
    }

    private func perform(_ effect: CapacitorReplaySession.Effect) {
        switch effect {
        case .post(let message): post(message)
        case .timer(let command): timers.perform(command)
        case .report(let line): printOut(line)
        case .answerQuestion(let grant): _ = app.page.web.permissions.controlAnswer(grant)
        case .finish(let success):
            app.page.onResult = nil
            app.page.web.permissions.onOpened = nil
            done(success ? ExitCode.success : ExitCode.failure)
        }
    }

    /// The message as a JSON literal in the page's own world, where the runtime's handler is.
    private func post(_ message: JSONValue) {
        app.page.web.callAsync("window.webkit.messageHandlers.\(CapacitorScripts.handlerName).postMessage(\(JSONWriter.string(message))); return true;",
                               world: nil) { [weak self] outcome in
            switch outcome {
            case .success(.bool(true)): self?.apply(.posted)
            case .success(let value): self?.apply(.postFailed("the page has no Capacitor runtime (\(JSONWriter.string(value)))"))
            case .failure(let error): self?.apply(.postFailed(error.message))
            }
        }
    }
}
