import BridgeRuntime
import CGtk

/// A presentation's sheet inside the app window, over a dimmed page: on phone it rises from the
/// bottom (half the window's height for `compact`, nearly all of it otherwise); on tablet and
/// desktop it is a modal panel floating in the middle, as GNOME's own dialogs are. A click on the
/// dimmed page or Escape asks to dismiss it when Studio allows; the page behind takes no input.
///
/// It is built with its sheet page and waits in place, laid out but invisible and inert, so
/// opening it only shows it: the page never moves to another widget or window, which would make
/// WebKit set up its drawing again and cost the first frames.
@MainActor
final class InWindowSheet {
    enum Style: String { case bottomSheet = "bottom-sheet", panel }

    let content: SheetContent
    let style: Style
    private let overlay: WidgetPointer
    /// The dimmed layer over the whole window, holding the sheet.
    private let scrim: WidgetPointer
    private let sheet: WidgetPointer
    private(set) var isShown = false

    /// `size`: the size it waits at (the page is laid out for it already when a sheet of that
    /// size opens; another size costs a relayout at open).
    init(page: StudioPage, device: DeviceProfile, overlay: WidgetPointer, size: PresentationSize) {
        self.overlay = overlay
        style = device == .phone ? .bottomSheet : .panel
        content = SheetContent(page: page)
        sheet = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(sheet, style == .panel ? "hostshell-panel" : "hostshell-sheet")
        gtk_widget_add_css_class(sheet, "background")
        gtk_widget_set_overflow(sheet, GTK_OVERFLOW_HIDDEN)
        gtk_box_append(cast(sheet), content.header)
        gtk_widget_set_vexpand(content.body, 1)
        gtk_box_append(cast(sheet), content.body)
        scrim = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(scrim, "hostshell-scrim")
        gtk_box_append(cast(scrim), sheet)
        gtk_overlay_add_overlay(cast(overlay), scrim)

        // Clicks on the dimmed page (not on the sheet) ask to dismiss.
        let click = gtk_gesture_click_new()!
        cgtk_connect_pressed(click, { _, _, x, y, data in
            let me = Unmanaged<InWindowSheet>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                let picked = gtk_widget_pick(me.scrim, x, y, GTK_PICK_DEFAULT)
                let onSheet = picked.map { $0 == me.sheet || gtk_widget_is_ancestor($0, me.sheet) != 0 } ?? false
                if me.isShown && !onSheet && me.content.dismissible { me.content.onDismiss?() }
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_widget_add_controller(scrim, click)
        // Escape, seen before the page does while focus is in the sheet.
        let keys = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let escape = gtk_callback_action_new({ _, _, data in
            let me = Unmanaged<InWindowSheet>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard me.isShown, me.content.dismissible else { return 0 }
                me.content.onDismiss?()
                return 1
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_shortcut_controller_add_shortcut(keys, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), escape))
        gtk_widget_add_controller(scrim, keys)
        apply(size: size)
        setShown(false)
    }

    /// Shows the sheet for `request` (the loading mark until Studio has painted).
    func show(_ request: PresentationOpen) {
        content.apply(title: request.title, subtitle: request.subtitle)
        content.apply(dismissible: request.dismissible)
        apply(size: request.size)
        setShown(true)
    }

    /// Waiting: laid out and mapped (WebKit keeps drawing it), but not drawn, not reachable by
    /// pointer or keyboard, and hidden from assistive technologies.
    private func setShown(_ shown: Bool) {
        isShown = shown
        gtk_widget_set_opacity(scrim, shown ? 1 : 0)
        gtk_widget_set_can_target(scrim, shown ? 1 : 0)
        gtk_widget_set_can_focus(scrim, shown ? 1 : 0)
        cgtk_accessible_set_hidden(scrim, shown ? 0 : 1)
        // Modal: the page behind cannot take the keyboard either while the sheet shows.
        if let behind = gtk_overlay_get_child(cast(overlay)) { gtk_widget_set_can_focus(behind, shown ? 0 : 1) }
        if shown { gtk_widget_grab_focus(content.web) }
    }

    func apply(size: PresentationSize) {
        let width = gtk_widget_get_width(overlay), height = max(gtk_widget_get_height(overlay), 400)
        switch style {
        case .bottomSheet:
            gtk_widget_set_vexpand(sheet, 1)  // the scrim's space; the sheet sits at its bottom
            gtk_widget_set_valign(sheet, size == .compact ? GTK_ALIGN_END : GTK_ALIGN_FILL)
            gtk_widget_set_size_request(sheet, -1, size == .compact ? height / 2 : -1)
            gtk_widget_set_margin_top(sheet, size == .compact ? 0 : 24)
        case .panel:
            // Narrower and shorter than the window: compact is half the room there is.
            let room = max(height - 96, 360)
            gtk_widget_set_vexpand(sheet, 1)
            gtk_widget_set_halign(sheet, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(sheet, GTK_ALIGN_CENTER)
            gtk_widget_set_size_request(sheet, min(max(width - 96, 360), 760), size == .compact ? room / 2 : room)
        }
    }

    /// Takes the sheet out of the window for good (its page is being discarded).
    func close() {
        setShown(false)
        gtk_overlay_remove_overlay(cast(overlay), scrim)
    }
}
