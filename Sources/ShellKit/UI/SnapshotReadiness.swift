import CGtk
import HostCore

/// When a snapshot may be taken: once the window shows what its state says. A state can be
/// true before the screen shows it — the window's size is its default size before it is mapped,
/// the page is the visible child while the stack still cross-fades from the loading mark, and
/// WebKit paints in its own process — so `ctl snapshot` right after `ctl wait` waits here first:
/// the widget mapped with a size, no stack transition running under it, the page's own frame
/// painted, then one more frame of the window drawn.
@MainActor
package enum SnapshotReadiness {
    /// Calls `done(true)` once `widget` is drawn as its state says, or `done(false)` when that
    /// has not happened within `limit` seconds (the window never shown).
    package static func whenDrawn(_ widget: WidgetPointer, page: WebPage?, limit: Double,
                                  _ done: @escaping @MainActor (Bool) -> Void) {
        let deadline = monotonicSeconds() + limit
        func poll() {
            guard isSettled(widget) else {
                guard monotonicSeconds() < deadline else { return done(false) }
                return MainLoop.after(milliseconds: 16) { poll() }
            }
            let pageView = page.map { cgtk_widget(UnsafeMutableRawPointer($0.view))! }
            if let page, let pageView, gtk_widget_get_mapped(pageView) != 0 {
                page.whenPainted(limit: max(0.5, deadline - monotonicSeconds())) { _ in nextFrame(of: widget, done) }
            } else {
                nextFrame(of: widget, done)
            }
        }
        poll()
    }

    /// Mapped, with a size, and no GtkStack under it in the middle of a transition.
    static func isSettled(_ widget: WidgetPointer) -> Bool {
        guard gtk_widget_get_mapped(widget) != 0, gtk_widget_get_width(widget) > 0, gtk_widget_get_height(widget) > 0 else {
            return false
        }
        return !hasRunningTransition(widget)
    }

    private static func hasRunningTransition(_ widget: WidgetPointer) -> Bool {
        let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
        if g_type_check_instance_is_a(instance, gtk_stack_get_type()) != 0,
           gtk_stack_get_transition_running(OpaquePointer(widget)) != 0 {
            return true
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_get_mapped(current) != 0, hasRunningTransition(current) { return true }
            child = gtk_widget_get_next_sibling(current)
        }
        return false
    }

    /// After the window's frame clock has painted once more (what changed last is on screen), or
    /// after a quarter second when no frame comes.
    private static func nextFrame(of widget: WidgetPointer, _ done: @escaping @MainActor (Bool) -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return done(true) }
        let once = FireOnce(done)
        var connection: SignalConnection?
        connection = onSignal(UnsafeMutableRawPointer(clock), "after-paint") {
            connection?.disconnect()
            once.fire(true)
        }
        MainLoop.after(milliseconds: 250) {
            connection?.disconnect()
            once.fire(true)
        }
        gtk_widget_queue_draw(widget)
    }
}
