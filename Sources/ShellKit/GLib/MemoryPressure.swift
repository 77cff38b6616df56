import CGtk

/// The system's low-memory warnings (GLib's `GMemoryMonitor`: the desktop portal or
/// low-memory-monitor, where either runs), passed to whoever holds memory it can give back.
/// The control interface's `memory-pressure` reports one by hand, for tests and for machines
/// with no monitor.
@MainActor
package final class MemoryPressure {
    private var handlers: [ObjectIdentifier: @MainActor () -> Void] = [:]
    private var monitor: OpaquePointer?

    /// One per app (`AppEnvironment`); the monitor is watched from the first `watch`.
    package init() {}

    /// Calls `body` on each warning until `forget(owner)`.
    package func watch(_ owner: AnyObject, _ body: @escaping @MainActor () -> Void) {
        if monitor == nil, let found = g_memory_monitor_dup_default() {
            monitor = found
            // Any level, "low" included, is advice to trim caches; a prewarmed page is one.
            onLowMemory(found) { [weak self] in self?.report() }
        }
        handlers[ObjectIdentifier(owner)] = body
    }

    package func forget(_ owner: AnyObject) { handlers[ObjectIdentifier(owner)] = nil }

    /// Tells every holder that memory is short.
    func report() {
        for body in handlers.values { body() }
    }
}
