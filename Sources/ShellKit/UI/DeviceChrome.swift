import CGtk
import HostCore

/// The phone's own chrome around a page: the status bar (time, carrier, cellular and Wi-Fi bars,
/// battery with its charging state) above and the home indicator below, drawn as iOS draws
/// them, light or dark text by the appearance, with the content laid out between them. The
/// whole is the device's screen in points (the window grows around it); the bars turn with the
/// device. A desktop
/// window and a kiosk have none.
@MainActor
final class DeviceChrome {
    let widget: WidgetPointer
    private let statusBar: WidgetPointer
    private let homeIndicator: WidgetPointer
    private let device: DeviceHost
    private var dark: Bool { adw_style_manager_get_default().map { adw_style_manager_get_dark($0) != 0 } ?? false }

    init(content: WidgetPointer, device: DeviceHost) {
        self.device = device
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(widget, "hostshell-device")
        statusBar = gtk_drawing_area_new()!
        homeIndicator = gtk_drawing_area_new()!
        for bar in [statusBar, homeIndicator] { gtk_widget_set_hexpand(bar, 1) }
        gtk_widget_set_vexpand(content, 1)
        gtk_box_append(cast(widget), statusBar)
        gtk_box_append(cast(widget), content)
        gtk_box_append(cast(widget), homeIndicator)
        draw(statusBar) { [weak self] cr, width, height in self?.drawStatusBar(cr, width: width, height: height) }
        draw(homeIndicator) { [weak self] cr, width, height in self?.drawHomeIndicator(cr, width: width, height: height) }
        layout()
        device.onChange.append { [weak self] in self?.layout() }
        device.onResizedByHand.append { [weak self] in self?.release() }
        // Light or dark text as the appearance changes.
        if let styles = adw_style_manager_get_default() {
            onNotify(UnsafeMutableRawPointer(styles), "dark") { [weak self] in
                guard let self else { return }
                for bar in [self.statusBar, self.homeIndicator] { gtk_widget_queue_draw(bar) }
            }
        }
    }

    /// Sizes for the orientation now: the screen, the bars (iPhones hide the status bar in landscape).
    private func layout() {
        let size = device.choice.size, metrics = device.choice.metrics
        // At least the device's screen (the window grows around it), until the window is resized
        // by hand (`release`).
        gtk_widget_set_size_request(widget, Int32(size.width), Int32(size.height))
        gtk_widget_set_size_request(statusBar, -1, Int32(metrics.statusBar))
        gtk_widget_set_visible(statusBar, metrics.statusBar > 0 ? 1 : 0)
        gtk_widget_set_size_request(homeIndicator, -1, Int32(metrics.homeIndicator))
        gtk_widget_set_visible(homeIndicator, metrics.homeIndicator > 0 ? 1 : 0)
        gtk_widget_queue_draw(statusBar)
        gtk_widget_queue_draw(homeIndicator)
    }

    /// Lets the window be made smaller than the device (`ctl resize`, a person's drag): the
    /// content takes what is left; turning the device sizes it again.
    func release() { gtk_widget_set_size_request(widget, -1, -1) }

    private func draw(_ area: WidgetPointer, _ body: @escaping @MainActor (OpaquePointer, Double, Double) -> Void) {
        let wrapped: @MainActor (OpaquePointer, Int32, Int32) -> Void = { cr, width, height in body(cr, Double(width), Double(height)) }
        gtk_drawing_area_set_draw_func(cast(area), { _, cr, width, height, data in
            guard let cr else { return }
            let body = Callback<@MainActor (OpaquePointer, Int32, Int32) -> Void>.body(data)
            MainActor.assumeIsolated { body(cr, width, height) }
        }, Callback.retained(wrapped), CallbackRelease.destroyNotify)
    }

    private func ink(_ cr: OpaquePointer, alpha: Double = 1) {
        let level = dark ? 1.0 : 0.0
        cairo_set_source_rgba(cr, level, level, level, alpha)
    }

    private func background(_ cr: OpaquePointer) {
        let level = dark ? 0.0 : 1.0
        cairo_set_source_rgb(cr, level, level, level)
        cairo_paint(cr)
    }

    private func text(_ cr: OpaquePointer, _ text: String, at x: Double, centerY: Double, size: Int, bold: Bool, alignRight: Bool = false) -> Double {
        let layout = gtk_widget_create_pango_layout(statusBar, text)
        let font = pango_font_description_from_string("\(bold ? "Sans Semi-Bold" : "Sans") \(size)px")
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_move_to(cr, alignRight ? x - Double(width) : x, centerY - Double(height) / 2)
        pango_cairo_show_layout(cr, layout)
        g_object_unref(UnsafeMutableRawPointer(layout))
        return Double(width)
    }

    private func drawStatusBar(_ cr: OpaquePointer, width: Double, height: Double) {
        background(cr)
        let values = device.statusBar
        let phone = device.choice.profile == .phone
        // A Dynamic Island's status bar sits beside the island, in its top half.
        let center = phone && height > 30 ? height * 0.45 : height / 2
        ink(cr)
        let margin = phone ? max(24, width * 0.08) : 20
        let clockWidth = text(cr, values.time, at: margin, centerY: center, size: phone ? 17 : 13, bold: true)
        if !phone && !values.carrier.isEmpty { _ = text(cr, values.carrier, at: margin + clockWidth + 8, centerY: center, size: 13, bold: false) }
        var x = width - margin
        x -= drawBattery(cr, right: x, centerY: center, values: values) + 6
        x -= drawWifi(cr, right: x, centerY: center, bars: values.wifi) + 6
        x -= drawCellular(cr, right: x, centerY: center, bars: values.cellular)
        if phone && !values.carrier.isEmpty && height <= 30 { _ = text(cr, values.carrier, at: x - 6, centerY: center, size: 13, bold: false, alignRight: true) }
    }

    /// Four bars rising left to right, the ones without signal faint; its width.
    private func drawCellular(_ cr: OpaquePointer, right: Double, centerY: Double, bars: Int) -> Double {
        let barWidth = 3.0, gap = 1.5, total = 4 * barWidth + 3 * gap
        for index in 0..<4 {
            let barHeight = 4.0 + Double(index) * 2.5
            ink(cr, alpha: index < bars ? 1 : 0.3)
            rounded(cr, x: right - total + Double(index) * (barWidth + gap), y: centerY + 6 - barHeight, width: barWidth, height: barHeight, radius: 1)
            cairo_fill(cr)
        }
        return total
    }

    /// Three arcs of the Wi-Fi fan, the ones without signal faint; its width.
    private func drawWifi(_ cr: OpaquePointer, right: Double, centerY: Double, bars: Int) -> Double {
        let width = 16.0, x = right - width / 2, y = centerY + 5.5
        cairo_set_line_width(cr, 2.2)
        for index in 0..<3 {
            ink(cr, alpha: index < bars ? 1 : 0.3)
            let radius = 3.0 + Double(index) * 4
            cairo_new_path(cr)
            cairo_arc(cr, x, y, radius, -Double.pi * 3 / 4, -Double.pi / 4)
            cairo_stroke(cr)
        }
        return width
    }

    /// The battery: an outline, its level filled (green while charging), a bolt when charging; its width.
    private func drawBattery(_ cr: OpaquePointer, right: Double, centerY: Double, values: StatusBarValues) -> Double {
        let width = 25.0, height = 12.0, x = right - width - 2, y = centerY - height / 2
        ink(cr, alpha: 0.4)
        cairo_set_line_width(cr, 1)
        rounded(cr, x: x + 0.5, y: y + 0.5, width: width - 1, height: height - 1, radius: 3.5)
        cairo_stroke(cr)
        rounded(cr, x: x + width + 0.5, y: centerY - 2, width: 1.5, height: 4, radius: 0.75)
        cairo_fill(cr)
        let level = Double(values.battery) / 100
        if values.charging { cairo_set_source_rgb(cr, 0.2, 0.78, 0.35) } else if values.battery <= 20 { cairo_set_source_rgb(cr, 1, 0.23, 0.19) } else { ink(cr) }
        rounded(cr, x: x + 2, y: y + 2, width: max(0, (width - 4) * level), height: height - 4, radius: 2)
        cairo_fill(cr)
        if values.charging {
            ink(cr)
            cairo_new_path(cr)
            cairo_move_to(cr, x + width / 2 + 1.5, y + 1.5)
            cairo_line_to(cr, x + width / 2 - 3, centerY + 1)
            cairo_line_to(cr, x + width / 2, centerY + 1)
            cairo_line_to(cr, x + width / 2 - 1.5, y + height - 1.5)
            cairo_line_to(cr, x + width / 2 + 3, centerY - 1)
            cairo_line_to(cr, x + width / 2, centerY - 1)
            cairo_close_path(cr)
            cairo_fill(cr)
        }
        return width + 2
    }

    /// The home indicator: a rounded bar, a third of the width, near the bottom.
    private func drawHomeIndicator(_ cr: OpaquePointer, width: Double, height: Double) {
        background(cr)
        ink(cr)
        let barWidth = min(width / 3, 140), barHeight = 5.0
        rounded(cr, x: (width - barWidth) / 2, y: height - 8 - barHeight, width: barWidth, height: barHeight, radius: barHeight / 2)
        cairo_fill(cr)
    }

    private func rounded(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = min(radius, width / 2, height / 2)
        cairo_new_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, Double.pi * 3 / 2)
        cairo_close_path(cr)
    }
}
