import CGtk

/// A whole exchange's deadline: a `GCancellable` for every step of it (connect, send, read),
/// cancelled when `seconds` pass. libsoup's own timeouts bound each wait for a byte, so a server
/// that trickles one byte every half second never trips them; this bounds the exchange.
@MainActor
package final class Deadline {
    package let cancellable: UnsafeMutablePointer<GCancellable>
    /// True once the time passed (the steps then fail as cancelled).
    package private(set) var passed = false
    private var source: UInt32 = 0

    package init(seconds: Double) {
        cancellable = g_cancellable_new()
        source = MainLoop.timeout(milliseconds: UInt32(max(0, seconds) * 1000)) { [weak self] in
            guard let self else { return }
            self.source = 0
            self.passed = true
            g_cancellable_cancel(self.cancellable)
        }
    }

    /// The exchange ended in time: the timer goes.
    package func end() {
        if source != 0 { g_source_remove(source) }
        source = 0
    }

    isolated deinit {
        end()
        g_object_unref(UnsafeMutableRawPointer(cancellable))
    }
}
