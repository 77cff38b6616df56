import CGtk
import CapacitorContract
import HostCore
import ShellKit

/// The App plugin's glue for the window (issue 13 item 3): watches the window's focus
/// (GtkWindow `is-active`) and whether it is shown (mapped, and its toplevel surface not
/// minimised) and reports the lifecycle changes `WindowPresence` derives. The first facts seen
/// once the window is mapped are the baseline: nothing is reported for them.
@MainActor
package final class CapacitorWindowWatch {
    private let window: WidgetPointer
    private var facts: WindowPresence?
    private var watchedSurface: OpaquePointer?
    private let report: ([ControlCommand.LifecycleChange]) -> Void
    /// Changes reported so far (for `ctl state`).
    private(set) var reported = 0

    init(window: WidgetPointer, report: @escaping ([ControlCommand.LifecycleChange]) -> Void) {
        self.window = window
        self.report = report
        onNotify(raw(window), "is-active") { [weak self] in self?.update() }
        onSignal(raw(window), "map") { [weak self] in self?.update() }
        onSignal(raw(window), "unmap") { [weak self] in self?.update() }
        update()
    }

    private var current: WindowPresence {
        let focused = gtk_window_is_active(cast(window)) != 0
        var shown = gtk_widget_get_mapped(window) != 0
        if let surface = gtk_native_get_surface(OpaquePointer(window)) {
            if watchedSurface != surface {
                watchedSurface = surface
                onNotify(UnsafeMutableRawPointer(surface), "state") { [weak self] in self?.update() }
            }
            let state = gdk_toplevel_get_state(surface)
            if state.rawValue & GDK_TOPLEVEL_STATE_MINIMIZED.rawValue != 0 { shown = false }
        }
        return WindowPresence(focused: focused, shown: shown)
    }

    private func update() {
        let now = current
        guard let before = facts else {
            if now.shown { facts = now }  // the baseline
            return
        }
        facts = now
        let changes = WindowPresence.changes(from: before, to: now)
        guard !changes.isEmpty else { return }
        reported += changes.count
        report(changes)
    }

    var json: JSONValue {
        guard let facts else { return ["focused": .null, "shown": .null, "reported": .number(Double(reported))] }
        return ["focused": .bool(facts.focused), "shown": .bool(facts.shown), "reported": .number(Double(reported))]
    }
}
