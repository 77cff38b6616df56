import CGtk
import ShellKit
import StudioContract

/// A presentation's sheet inside the app window, over a dimmed page: in a compact window (a
/// phone's) it rises from the
/// bottom (half the window's height for `compact`, nearly all of it otherwise); in a regular
/// one it is a modal panel floating in the middle, as GNOME's own dialogs are. A click on the
/// dimmed page or Escape asks to dismiss it when Studio allows; the page behind takes no input.
///
/// It is built with its sheet page and waits in place, laid out but invisible and inert, so
/// opening it only shows it: the page never moves to another widget or window, which would make
/// WebKit set up its drawing again and cost the first frames. Its place is worked out from the
/// window's size at every layout (`SheetLayout`), so it follows the window as it is resized.
@MainActor
package final class InWindowSheet {
    package typealias Style = SheetLayout.Style

    let content: SheetContent
    private(set) var style: Style
    private let overlay: WidgetPointer
    /// The dimmed layer over the whole window, under the sheet: a click on it asks to dismiss.
    private let scrim: WidgetPointer
    private let sheet: WidgetPointer
    private var size: PresentationSize
    private var position: SignalConnection?
    private(set) var isShown = false

    /// `size`: the size it waits at (the page is laid out for it already when a sheet of that
    /// size opens; another size costs a relayout at open).
    init(page: StudioPage, style: Style, overlay: WidgetPointer, size: PresentationSize) {
        self.overlay = overlay
        self.size = size
        self.style = style
        content = SheetContent(page: page)
        scrim = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(scrim, "hostshell-scrim")
        sheet = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(sheet, Self.cssClass(style))
        gtk_widget_add_css_class(sheet, "background")
        gtk_widget_set_overflow(sheet, GTK_OVERFLOW_HIDDEN)
        gtk_box_append(cast(sheet), content.header)
        gtk_widget_set_vexpand(content.body, 1)
        gtk_box_append(cast(sheet), content.body)
        gtk_overlay_add_overlay(cast(overlay), scrim)
        gtk_overlay_add_overlay(cast(overlay), sheet)
        position = onChildPosition(overlay) { [weak self] child in
            guard let self, child == self.sheet else { return nil }
            return self.place()
        }

        // A click on the dimmed page asks to dismiss (the sheet is above it, so its own clicks
        // never reach the scrim).
        let click = gtk_gesture_click_new()!
        onPressed(click) { [weak self] _, _, _ in
            guard let self, self.isShown, self.content.dismissible else { return }
            self.content.onDismiss?()
        }
        gtk_widget_add_controller(scrim, click)
        // Escape, seen before the page does while focus is in the sheet.
        let keys = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let escape = shortcutAction { [weak self] in
            guard let self, self.isShown, self.content.dismissible else { return false }
            self.content.onDismiss?()
            return true
        }
        gtk_shortcut_controller_add_shortcut(keys, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), escape))
        gtk_widget_add_controller(sheet, keys)
        setShown(false)
    }

    /// Shows the sheet for `request` (the loading mark until Studio has painted).
    func show(_ request: PresentationOpen) {
        content.apply(title: request.title, subtitle: request.subtitle)
        content.apply(dismissible: request.dismissible)  // for Escape and the dimmed page
        apply(size: request.size)
        setShown(true)
    }

    /// The presentation ended: the sheet goes, and waits in place, reset, with its page for the
    /// next one.
    func hide() {
        content.reset()
        setShown(false)
        releaseFocus(from: sheet, to: gtk_overlay_get_child(cast(overlay)))
    }

    /// Waiting: laid out and mapped (WebKit counts its page as visible, so it loads and runs at
    /// full speed), but not drawn, not reachable by pointer or keyboard, and hidden from
    /// assistive technologies.
    private func setShown(_ shown: Bool) {
        isShown = shown
        for layer in [scrim, sheet] {
            gtk_widget_set_opacity(layer, shown ? 1 : 0)
            gtk_widget_set_can_target(layer, shown ? 1 : 0)
            gtk_widget_set_can_focus(layer, shown ? 1 : 0)
            cgtk_accessible_set_hidden(layer, shown ? 0 : 1)
        }
        // Modal: the page behind cannot take the keyboard either while the sheet shows.
        if let behind = gtk_overlay_get_child(cast(overlay)) { gtk_widget_set_can_focus(behind, shown ? 0 : 1) }
        if shown { gtk_widget_grab_focus(content.web) }
    }

    private static func cssClass(_ style: Style) -> String { style == .panel ? "hostshell-panel" : "hostshell-sheet" }

    /// The window changed size class: the sheet (shown or waiting) takes the other style in
    /// place, with its page, header and state as they were.
    package func apply(style: Style) {
        guard style != self.style else { return }
        gtk_widget_remove_css_class(sheet, Self.cssClass(self.style))
        self.style = style
        gtk_widget_add_css_class(sheet, Self.cssClass(style))
        gtk_widget_queue_allocate(overlay)
    }

    package func apply(size: PresentationSize) {
        guard size != self.size else { return }
        self.size = size
        gtk_widget_queue_allocate(overlay)
    }

    /// The sheet's place in the window as it is now (see `SheetLayout`).
    private func place() -> GdkRectangle {
        var least: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(sheet, GTK_ORIENTATION_HORIZONTAL, -1, &least, &natural, nil, nil)
        let place = SheetLayout.place(style, size: size, windowWidth: Int(gtk_widget_get_width(overlay)),
                                      windowHeight: Int(gtk_widget_get_height(overlay)), minWidth: Int(least)) { width in
            gtk_widget_measure(self.sheet, GTK_ORIENTATION_VERTICAL, Int32(width), &least, &natural, nil, nil)
            return Int(least)
        }
        return GdkRectangle(x: Int32(place.x), y: Int32(place.y), width: Int32(place.width), height: Int32(place.height))
    }

    /// The sheet's bounds in the window's content (for state reports), once laid out.
    var bounds: (x: Int, y: Int, width: Int, height: Int)? {
        var rect = graphene_rect_t()
        guard gtk_widget_compute_bounds(sheet, overlay, &rect) != 0 else { return nil }
        return (Int(rect.origin.x.rounded()), Int(rect.origin.y.rounded()), Int(rect.size.width.rounded()), Int(rect.size.height.rounded()))
    }

    /// Takes the sheet out of the window for good (its page is being discarded).
    package func close() {
        content.menus.hide()
        setShown(false)
        // The keyboard goes back to the page behind (focusable again), if the sheet had it.
        releaseFocus(from: sheet, to: gtk_overlay_get_child(cast(overlay)))
        position?.disconnect()
        position = nil
        gtk_overlay_remove_overlay(cast(overlay), sheet)
        gtk_overlay_remove_overlay(cast(overlay), scrim)
    }
}
