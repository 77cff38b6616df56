import HostCore
import ShellKit
import StudioContract

/// `hostshell replay LOG`: once the app's Studio is ready, sends every recorded Studio-to-host
/// message again, in order, from the page of the same context (main, or the prewarmed sheet
/// page), and compares each reply with the recorded one. Prints a line per message that
/// differed (and, with `verbose`, per message that matched) and a summary; exit 0 only when
/// nothing differed.
@MainActor
package final class BridgeReplay {
    private let records: [ReplayRecord]
    private let app: ShellApp
    private let verbose: Bool
    private var index = 0
    private var same = 0, differed = 0, skipped = 0
    private let done: (Int32) -> Void

    init(records: [ReplayRecord], app: ShellApp, verbose: Bool, done: @escaping (Int32) -> Void) {
        self.records = records
        self.app = app
        self.verbose = verbose
        self.done = done
    }

    /// Waits (up to `timeout` s) for Studio to be ready, and for the sheet page when the log has
    /// sheet messages, then replays.
    package func start(timeout: Double) {
        let needsSheet = records.contains { $0.context == .presentation }
        let deadline = monotonicSeconds() + timeout
        func poll() {
            let session = app.session.page.session
            let ready = app.session.screen.name == "page" && session.frontendReady
                && (!needsSheet || app.session.presentations.ready)
            if ready { return next() }
            if app.session.screen.name == "error" || monotonicSeconds() > deadline {
                printError("hostshell replay: Studio was not ready within \(Int(timeout)) s (\(app.session.screen.name))"
                           + (needsSheet ? " with a prewarmed sheet page" : ""))
                return done(ExitCode.failure)
            }
            MainLoop.after(milliseconds: 50) { poll() }
        }
        poll()
    }

    private func next() {
        guard index < records.count else {
            printOut("\(records.count) replayed: \(same) same, \(differed) differed, \(skipped) skipped")
            return done(differed == 0 && skipped == 0 ? ExitCode.success : ExitCode.failure)
        }
        let record = records[index]
        index += 1
        let page = record.context == .main ? app.session.page : app.session.presentations.readyPage
        guard let page else {
            skipped += 1
            printOut("skip line \(record.line): no \(record.context.rawValue) page to send it from")
            return next()
        }
        let type = record.message.objectValue?["type"]?.stringValue ?? "(no type)"
        page.postAsStudio(record.message) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply) where reply == record.reply:
                self.same += 1
                if self.verbose { printOut("same line \(record.line) \(type)") }
            case .success(let reply):
                self.differed += 1
                printOut("DIFF line \(record.line) \(type)\(record.redacted ? " (the log redacted part of it)" : "")")
                printOut("  recorded: \(JSONWriter.string(record.reply))")
                printOut("  now:      \(JSONWriter.string(reply))")
            case .failure(let error):
                self.differed += 1
                printOut("DIFF line \(record.line) \(type): no reply (\(error.message))")
            }
            self.next()
        }
    }
}
