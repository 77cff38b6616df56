import CGtk
import HostCore

/// Carries out control requests on the running app, whatever kind it is: the host core's own
/// commands — the native state and waiting on it, snapshots, `eval` in the main page, resizing,
/// memory pressure — here, and every other command by the hosted app (`HostedApp.handle`),
/// which drives its native side as a person would, so tests can assert what no DOM driver sees.
@MainActor
package final class ControlHandler {
    private let app: any HostedApp
    private let allowEval: Bool

    package init(app: any HostedApp, allowEval: Bool) {
        self.app = app
        self.allowEval = allowEval
        app.environment.events.stateSource = { [weak app] in app.map(HostState.json) ?? .null }
        app.environment.simulator.attachLocation()
        app.environment.simulator.attachPasteboard()
    }

    package func handle(_ request: ControlRequest, answer: @escaping @MainActor (String) -> Void) {
        let id = request.id
        func ok(_ result: JSONValue = .null) { answer(ControlResponse.ok(id, result)) }
        func fail(_ message: String) { answer(ControlResponse.failure(id, ControlError(message))) }
        switch request.command {
        case .state:
            ok(HostState.json(app))
        case .events:
            fail("events streams on its own connection")  // the connection handles it; never here
        case .memoryPressure:
            app.environment.memoryPressure.report()
            ok()
        case .resize(let width, let height):
            let window = cgtk_window(UnsafeMutableRawPointer(app.windowWidget))
            app.environment.device.resizedByHand()
            gtk_window_unmaximize(window)
            gtk_window_unfullscreen(window)
            gtk_window_set_default_size(window, Int32(width), Int32(height))
            ok()
        case .rotate(let orientation):
            switch app.environment.device.rotate(to: orientation) {
            case .success(let turned): ok(["orientation": .string(turned.rawValue), "size": app.environment.device.choice.size.json])
            case .failure(let error): fail(error.message)
            }
        case .statusBar(let change):
            if let error = app.environment.device.setStatusBar(change) { return fail(error.message) }
            ok(["statusBar": app.environment.device.statusBar.json])
        case .wait(let until, let timeout):
            wait(until, deadline: monotonicSeconds() + timeout, timeout: timeout, ok: ok, fail: fail)
        case .snapshot(let path, let target):
            let widget = target == .window ? app.windowWidget : cgtk_widget(UnsafeMutableRawPointer(app.mainWebPage.view))!
            // What the state says is on screen first (mapped, cross-fades over, painted).
            SnapshotReadiness.whenDrawn(widget, page: app.mainWebPage, limit: 10) { drawn in
                guard drawn else { return fail("the window was not shown within 10 s: nothing to take a picture of") }
                guard WindowSnapshot.savePNG(widget, to: path) else {
                    return fail("could not write \(path): is its directory there and writable?")
                }
                ok(["path": .string(path)])
            }
        case .eval(let script, let inSheet):
            guard allowEval else {
                return fail("eval is refused: start the app with --allow-eval (for tests only)")
            }
            guard !inSheet else { return app.handle(request.command, ok: ok, fail: fail) }
            app.mainWebPage.evaluate(script) { result in
                switch result {
                case .success(let value): ok(value)
                case .failure(let error): fail("the script failed: \(error.message)")
                }
            }
        case .simulator(let command):
            app.environment.simulator.handle(command, app: app, ok: ok, fail: fail)
        case .device(let control):
            app.environment.deviceControls.handle(control, app: app, ok: ok, fail: fail)
        case .app(let command) where command.refusal(by: app.controlVocabularies) != nil:
            fail(command.refusal(by: app.controlVocabularies)!.message)
        default:
            app.handle(request.command, ok: ok, fail: fail)
        }
    }

    /// Checks the predicate now and after every 25 ms until it holds or the time is up.
    private func wait(_ until: StatePredicate, deadline: Double, timeout: Double,
                      ok: @escaping @MainActor (JSONValue) -> Void, fail: @escaping @MainActor (String) -> Void) {
        let state = HostState.json(app)
        if until.holds(in: state) { return ok(state) }
        guard monotonicSeconds() < deadline else {
            return fail("timed out after \(timeout) s: " + until.unmet(in: state).joined(separator: "; "))
        }
        MainLoop.after(milliseconds: 25) { [weak self] in
            guard let self else { return fail("the app is closing") }
            self.wait(until, deadline: deadline, timeout: timeout, ok: ok, fail: fail)
        }
    }
}
