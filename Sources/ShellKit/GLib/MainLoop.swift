import CGtk
import Dispatch  // links libdispatch, which exports the main-queue SPI the bridge below uses
import Glibc
import HostCore

/// GLib owns the main thread. Swift's main actor enqueues on the Dispatch main queue, which
/// nobody drains while a GLib loop runs — so watch libdispatch's eventfd from GLib.
package enum MainLoop {
    /// Opens GTK on the display and installs the Dispatch bridge: what every windowed command
    /// does first. `adwaita: false` leaves Adwaita's styling (`adw_init`) to the caller, for
    /// callers that start loading a page before paying for it. `noDisplay` says what to do.
    /// The rendering choice made, for the app's `AppEnvironment`.
    @discardableResult
    package static func startGTK(noDisplay: String, adwaita: Bool = true) throws(UsageError) -> RenderingChoice {
        let rendering = RenderingSetup.apply()  // before GTK and WebKit read their variables
        guard gtk_init_check() != 0 else { throw UsageError(noDisplay) }
        if adwaita { adw_init() }  // Adwaita's stylesheet and light/dark handling
        MainActor.assumeIsolated { AppIcon.findable() }  // About's and the windows' icon, from a build tree too
        installDispatchBridge()
        return rendering
    }

    /// Call once before running any GLib loop.
    package static func installDispatchBridge() {
        g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, { fd, _, _ in
            // The handle is an eventfd: read it (reset it) or this source spins at 100% CPU and
            // starves WebKit's lower-priority IPC sources.
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return 1  // G_SOURCE_CONTINUE
        }, nil)
    }

    /// Runs `body` on the main loop after `milliseconds`.
    @MainActor package static func after(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) {
        after(milliseconds: milliseconds, priority: G_PRIORITY_DEFAULT, body)
    }

    /// Runs `body` once the main loop has nothing more urgent to do: after the answers and
    /// writes already under way (they run at the default priority).
    @MainActor package static func whenIdle(_ body: @escaping @MainActor () -> Void) {
        after(milliseconds: 0, priority: G_PRIORITY_LOW, body)
    }

    /// Runs `body` on the main loop after `milliseconds`, once; the source's id, for
    /// `g_source_remove` (which releases `body` too).
    @MainActor @discardableResult
    package static func timeout(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        after(milliseconds: milliseconds, priority: G_PRIORITY_DEFAULT, body)
    }

    /// Runs `body` on the main loop every `milliseconds` until it returns false or the source
    /// (the id returned) is removed; `body` is released with the source.
    @MainActor @discardableResult
    package static func every(milliseconds: UInt32, _ body: @escaping @MainActor () -> Bool) -> UInt32 {
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            let body = Callback<@MainActor () -> Bool>.body(data)
            return MainActor.assumeIsolated { body() } ? 1 : 0  // G_SOURCE_CONTINUE or G_SOURCE_REMOVE
        }, Callback.retained(body), CallbackRelease.destroyNotify)
    }

    @MainActor @discardableResult
    private static func after(milliseconds: UInt32, priority: Int32, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        g_timeout_add_full(priority, milliseconds, { data in
            let body = Callback<@MainActor () -> Void>.body(data)
            MainActor.assumeIsolated { body() }
            return 0  // G_SOURCE_REMOVE
        }, Callback.retained(body), CallbackRelease.destroyNotify)
    }

    /// Calls `body` whenever `fd` is ready for `condition`, until it returns false or the source
    /// (the id returned) is removed; `body` is released with the source.
    @MainActor @discardableResult
    package static func watch(_ fd: Int32, _ condition: GIOCondition, priority: Int32 = G_PRIORITY_DEFAULT,
                              _ body: @escaping @MainActor () -> Bool) -> UInt32 {
        g_unix_fd_add_full(priority, fd, condition, { _, _, data in
            let body = Callback<@MainActor () -> Bool>.body(data)
            return MainActor.assumeIsolated { body() } ? 1 : 0  // G_SOURCE_CONTINUE or G_SOURCE_REMOVE
        }, Callback.retained(body), CallbackRelease.destroyNotify)
    }
}
