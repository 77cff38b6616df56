import CGtk
import HostCore

/// Carries out a state machine's `TimerCommand`s on the GLib main loop: one source per timer
/// name (a start replaces the running one), removed on cancel, and a fire reported through
/// `fire`. The machine decides; this only keeps time.
@MainActor
package final class TimerBank<Name: Hashable & Sendable> {
    private var sources: [Name: UInt32] = [:]
    private let fire: @MainActor (Name) -> Void

    package init(fire: @escaping @MainActor (Name) -> Void) { self.fire = fire }

    isolated deinit { cancelAll() }

    package func perform(_ command: TimerCommand<Name>) {
        switch command {
        case .start(let name, let seconds):
            remove(name)
            let milliseconds = UInt32(min(max(0, seconds), 86_400) * 1000)
            sources[name] = MainLoop.timeout(milliseconds: milliseconds) { [weak self] in  // each timer fires once
                guard let self else { return }
                self.sources[name] = nil
                self.fire(name)
            }
        case .cancel(let name):
            remove(name)
        }
    }

    /// Names of the timers waiting to fire (for state dumps).
    var pending: [Name] { Array(sources.keys) }

    package func cancelAll() {
        for id in sources.values { g_source_remove(id) }
        sources = [:]
    }

    private func remove(_ name: Name) {
        if let id = sources.removeValue(forKey: name) { g_source_remove(id) }
    }
}
