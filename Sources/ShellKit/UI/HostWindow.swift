import CGtk

/// The window every hosted app is shown in: a header bar with a title and subtitle (an app adds
/// its own controls at either end), short notices (toasts) over the content, and one content
/// widget at a time. Sized by the app; kiosk mode, snapshots and resizing work on `window`.
@MainActor
package final class HostWindow {
    package let window: WidgetPointer
    let header: WidgetPointer
    private let titleWidget: OpaquePointer
    /// Short notices over the content (a sign-in that failed, files that were not uploaded).
    private let toasts: OpaquePointer
    private var content: WidgetPointer
    /// Called with the window's size whenever it changes (a person dragging its edge, `ctl
    /// resize`, maximizing): GTK keeps the size a window has now as its default size.
    package var onSizeChanged: ((_ width: Int, _ height: Int) -> Void)?

    /// The phone's status bar and home indicator around the content (a named device, not in a kiosk).
    private var chrome: DeviceChrome?

    /// `device`: a named phone or tablet's chrome goes around the content, and the window takes
    /// the device's size (and turns with it) instead of `size`.
    package init(content: WidgetPointer, title: String, subtitle: String = "", size: (width: Int, height: Int), device: DeviceHost? = nil) {
        self.content = content
        window = gtk_window_new()!
        gtk_window_set_title(cast(window), title)
        let deviceSize = device.flatMap { $0.isDevice ? $0.choice.size : nil }
        gtk_window_set_default_size(cast(window), Int32(deviceSize?.width ?? size.width), Int32(deviceSize?.height ?? size.height))
        header = gtk_header_bar_new()!
        titleWidget = OpaquePointer(adw_window_title_new(title, subtitle))
        gtk_header_bar_set_title_widget(cast(header), cgtk_widget(UnsafeMutableRawPointer(titleWidget)))
        gtk_window_set_titlebar(cast(window), header)
        toasts = OpaquePointer(adw_toast_overlay_new())
        adw_toast_overlay_set_child(toasts, content)
        let toastsWidget = cgtk_widget(UnsafeMutableRawPointer(toasts))!
        if let device, device.isDevice {
            let chrome = DeviceChrome(content: toastsWidget, device: device)
            self.chrome = chrome
            gtk_window_set_child(cast(window), chrome.widget)
            fitDevice(device)
            device.onChange.append { [weak self] in
                guard let self else { return }
                gtk_window_unmaximize(cast(self.window))
                self.fitDevice(device)
            }
        } else {
            gtk_window_set_child(cast(window), toastsWidget)
        }
        for side in ["default-width", "default-height"] {
            onNotify(raw(window), side) { [weak self] in
                guard let self else { return }
                let size = self.size
                self.onSizeChanged?(size.width, size.height)
            }
        }
    }

    /// Sizes the window to the device's screen held as it is now: GTK makes it as much larger as
    /// its header bar (and frame) take, the chrome asking for the whole screen.
    private func fitDevice(_ device: DeviceHost) {
        let size = device.choice.size
        gtk_window_set_default_size(cast(window), Int32(size.width), Int32(size.height))
    }

    /// The window's size now, in logical pixels.
    package var size: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(cast(window), &width, &height)
        return (Int(width), Int(height))
    }

    package func packStart(_ widget: WidgetPointer) { gtk_header_bar_pack_start(cast(header), widget) }
    package func packEnd(_ widget: WidgetPointer) { gtk_header_bar_pack_end(cast(header), widget) }

    /// A short notice over the content.
    package func toast(_ text: String) {
        let toast = adw_toast_new(text)
        adw_toast_set_timeout(toast, 6)
        adw_toast_overlay_add_toast(toasts, toast)
    }

    /// A short notice with a button (Open, for a finished download).
    package func toast(_ text: String, button: String, _ pressed: @escaping @MainActor () -> Void) {
        let toast = adw_toast_new(text)
        adw_toast_set_timeout(toast, 10)
        adw_toast_set_button_label(toast, button)
        onSignal(UnsafeMutableRawPointer(toast!), "button-clicked", pressed)
        adw_toast_overlay_add_toast(toasts, toast)
    }

    package func present() { gtk_window_present(cast(window)) }

    /// Shows other content in this window (the previous content is removed from it, after the
    /// keyboard focus has left it).
    package func show(_ content: WidgetPointer, title: String, subtitle: String) {
        releaseFocus(from: self.content)
        self.content = content
        adw_toast_overlay_set_child(toasts, content)
        gtk_window_set_title(cast(window), title)
        adw_window_title_set_title(titleWidget, title)
        adw_window_title_set_subtitle(titleWidget, subtitle)
    }
}
