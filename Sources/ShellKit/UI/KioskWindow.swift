import CGtk
import HostCore

/// The app window as a kiosk shows it: full screen, without the header bar unless asked, the
/// pointer hidden after a few seconds without movement, and the screen kept awake where the
/// session offers a screen saver to hold off (org.freedesktop.ScreenSaver).
@MainActor
package final class KioskWindow {
    let options: KioskOptions
    private let window: WidgetPointer
    private(set) var cursorHidden = false
    private var lastMotion = 0.0
    /// What keeping the screen awake came to, for state dumps.
    private(set) var awake = "asking the session's screen saver"

    package init(_ window: HostWindow, options: KioskOptions) {
        self.options = options
        self.window = window.window
        if !options.chrome {
            gtk_window_set_decorated(cast(self.window), 0)
            if let titlebar = gtk_window_get_titlebar(cast(self.window)) { gtk_widget_set_visible(titlebar, 0) }
        }
        // Full screen, and the monitor's size as its own: with no window manager (a bare X
        // server, as kiosks and CI run) nobody carries out the full-screen request, and the
        // window would keep the device's size in a corner of the screen.
        if let size = Self.monitorSize(of: self.window) { gtk_window_set_default_size(cast(self.window), size.width, size.height) }
        gtk_window_fullscreen(cast(self.window))
        let motion = gtk_event_controller_motion_new()!
        onMotion(motion) { [weak self] in self?.moved() }
        gtk_event_controller_set_propagation_phase(motion, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(self.window, motion)
        lastMotion = monotonicSeconds()
        scheduleHide()
        keepAwake()
    }

    var isFullscreen: Bool { gtk_window_is_fullscreen(cast(window)) != 0 }

    /// The size of the display's first monitor (the one a kiosk shows on), in logical pixels.
    static func monitorSize(of window: WidgetPointer) -> (width: Int32, height: Int32)? {
        guard let display = gtk_widget_get_display(window), let monitors = gdk_display_get_monitors(display),
              g_list_model_get_n_items(monitors) > 0, let first = g_list_model_get_item(monitors, 0) else { return nil }
        defer { g_object_unref(first) }
        var geometry = GdkRectangle()
        gdk_monitor_get_geometry(OpaquePointer(first), &geometry)
        return geometry.width > 0 && geometry.height > 0 ? (geometry.width, geometry.height) : nil
    }

    private func moved() {
        lastMotion = monotonicSeconds()
        if cursorHidden {
            cursorHidden = false
            gtk_widget_set_cursor(window, nil)
        }
        scheduleHide()
    }

    private var hidePending = false

    private func scheduleHide() {
        guard !hidePending else { return }
        hidePending = true
        let wait = max(0.05, options.cursorTimeout - (monotonicSeconds() - lastMotion))
        MainLoop.after(milliseconds: UInt32(wait * 1000)) { [weak self] in
            guard let self else { return }
            self.hidePending = false
            if monotonicSeconds() - self.lastMotion >= self.options.cursorTimeout {
                self.cursorHidden = true
                gtk_widget_set_cursor_from_name(self.window, "none")
            } else {
                self.scheduleHide()
            }
        }
    }

    /// Asks the session's screen saver not to blank the screen while the kiosk runs (the
    /// inhibition ends with the process).
    private func keepAwake() {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            awake = "not kept awake: no session bus (\(error.map { String(cString: $0.pointee.message) } ?? "unknown"))"
            g_clear_error(&error)
            return
        }
        var arguments: [OpaquePointer?] = [g_variant_new_string("hostshell"), g_variant_new_string("kiosk: showing a Studio")]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        g_dbus_connection_call(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver",
                               "Inhibit", parameters, g_variant_type_new("(u)"), G_DBUS_CALL_FLAGS_NONE, 5_000, nil,
                               AsyncReply.callback, AsyncReply.data { [self] source, result in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            awake = reply != nil ? "kept awake (the session's screen saver is inhibited)"
                : "not kept awake: the session has no screen saver to inhibit (\(error.map { String(cString: $0.pointee.message) } ?? "no answer"))"
            if let reply { g_variant_unref(reply) }
            g_clear_error(&error)
        })
        self.bus = bus  // the inhibition lasts as long as this connection
    }

    private var bus: OpaquePointer?

    package var stateJSON: JSONValue {
        ["chrome": .bool(options.chrome), "fullscreen": .bool(isFullscreen), "cursorHidden": .bool(cursorHidden),
         "awake": .string(awake)]
    }
}
