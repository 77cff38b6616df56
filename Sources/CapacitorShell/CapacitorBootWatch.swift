import CapacitorContract
import HostCore
import ShellKit

/// `hostshell capacitor --check`: runs `CapacitorBootCheck` (which decides when the app has
/// booted) on the app's screen changes, the page's bridge calls and its first paint, then prints
/// `ctl state`'s JSON with what the app did under `boot` (plugin calls, console errors,
/// unimplemented calls) and a line for a person on standard error, and ends the run: exit 0
/// when the page showed, 1 for an error screen or nothing within the limit.
@MainActor
final class CapacitorBootWatch {
    private let app: CapacitorApp
    private let finish: @MainActor (Int32) -> Void
    private let machine: MachineLoop<CapacitorBootCheck>
    private let started = monotonicSeconds()
    private lazy var timers = TimerBank<CapacitorBootCheck.Timer> { [weak self] timer in self?.send(.timerFired(timer)) }

    init(_ app: CapacitorApp, timeoutSeconds: Double, finish: @escaping @MainActor (Int32) -> Void) {
        self.app = app
        self.finish = finish
        machine = MachineLoop(CapacitorBootCheck(limit: timeoutSeconds))
        app.onScreenChanged = { [weak self] in self?.screenChanged() }
        app.page.onBridgeCall = { [weak self] in self?.send(.bridgeCall) }
        send(.start)
    }

    private func screenChanged() {
        switch app.screen.name {
        case "page": send(.pageShown)
        case "error": send(.errorShown)
        default: break
        }
    }

    private func send(_ event: CapacitorBootCheck.Event) {
        machine.send(event) { self.perform($0) }
    }

    private func perform(_ effect: CapacitorBootCheck.Effect) {
        switch effect {
        case .timer(let command): timers.perform(command)
        case .waitForPaint:
            app.page.web.whenPainted(limit: 5) { [weak self] painted in self?.send(.painted(painted)) }
        case .report(let verdict): report(verdict)
        }
    }

    private func report(_ verdict: CapacitorBootCheck.Verdict) {
        let seconds = monotonicSeconds() - started
        let bridge = app.page.bridge
        let console = app.page.console
        var state = HostState.json(app).objectValue ?? [:]
        state["boot"] = CapacitorBootCheck.report(verdict: verdict, seconds: seconds, calls: bridge.calls, console: console,
                                                  unimplemented: bridge.unimplemented)
        let errors = CapacitorBootCheck.report(verdict: verdict, seconds: seconds, calls: [:], console: console, unimplemented: [:])
            .objectValue?["consoleErrors"]?.arrayValue?.count ?? 0
        printError("hostshell: " + CapacitorBootCheck.summary(verdict: verdict, seconds: seconds, calls: bridge.calls, consoleErrors: errors,
                                                              unimplemented: bridge.unimplemented))
        printJSON(JSONWriter.string(.object(state)))
        app.page.onBridgeCall = nil
        finish(verdict.passed ? ExitCode.success : ExitCode.failure)
    }
}
