import HostCore

/// `--check`, for any hosted app: the first page or error screen ends the run with `ctl state`'s
/// JSON printed — exit 0 for the page, 1 for an error screen or for nothing within the timeout.
@MainActor
package final class StartCheck {
    private let app: any HostedApp
    private let finish: @MainActor (Int32) -> Void
    private var done = false

    package init(_ app: any HostedApp, timeoutSeconds: Double, finish: @escaping @MainActor (Int32) -> Void) {
        self.app = app
        self.finish = finish
        MainLoop.after(milliseconds: UInt32(timeoutSeconds * 1000)) { [weak self] in self?.report(false) }
    }

    /// The app's screen changed: a page or an error screen decides.
    package func screenChanged() {
        switch app.screen.name {
        case "page": report(true)
        case "error": report(false)
        default: break
        }
    }

    private func report(_ ok: Bool) {
        guard !done else { return }
        done = true
        printJSON(JSONWriter.string(HostState.json(app)))
        finish(ok ? ExitCode.success : ExitCode.failure)
    }
}
