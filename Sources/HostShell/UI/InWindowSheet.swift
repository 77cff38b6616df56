import BridgeRuntime
import CGtk

/// A presentation as a sheet inside the app window (phone): it rises from the bottom over a
/// dimmed page, half the window's height for `compact` and nearly all of it otherwise. A click
/// on the dimmed page or Escape asks to dismiss it when Studio allows; the page behind takes no
/// input while it shows.
@MainActor
final class InWindowSheet: SheetHost {
    let content: SheetContent
    private let overlay: WidgetPointer
    /// The dimmed layer over the whole window, holding the sheet.
    private let scrim: WidgetPointer
    private let sheet: WidgetPointer
    private var size: PresentationSize

    init(page: StudioPage, request: PresentationOpen, overlay: WidgetPointer) {
        self.overlay = overlay
        size = request.size
        content = SheetContent(page: page, request: request)
        sheet = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(sheet, "hostshell-sheet")
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
        cgtk_connect_pressed(click, { gesture, _, x, y, data in
            let me = Unmanaged<InWindowSheet>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                let picked = gtk_widget_pick(me.scrim, x, y, GTK_PICK_DEFAULT)
                let onSheet = picked.map { $0 == me.sheet || gtk_widget_is_ancestor($0, me.sheet) != 0 } ?? false
                if !onSheet && me.content.dismissible { me.content.onDismiss?() }
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_widget_add_controller(scrim, click)
        // Escape, seen before the page does while focus is in the sheet.
        let keys = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let escape = gtk_callback_action_new({ _, _, data in
            let me = Unmanaged<InWindowSheet>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard me.content.dismissible else { return 0 }
                me.content.onDismiss?()
                return 1
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_shortcut_controller_add_shortcut(keys, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), escape))
        gtk_widget_add_controller(scrim, keys)
        apply(size: request.size)
        gtk_widget_grab_focus(content.web)
    }

    func apply(size: PresentationSize) {
        self.size = size
        let height = max(gtk_widget_get_height(overlay), 400)
        gtk_widget_set_vexpand(sheet, 1)  // the scrim's space; the sheet sits at its bottom
        if size == .compact {
            gtk_widget_set_valign(sheet, GTK_ALIGN_END)
            gtk_widget_set_size_request(sheet, -1, height / 2)
            gtk_widget_set_margin_top(sheet, 0)
        } else {
            gtk_widget_set_valign(sheet, GTK_ALIGN_FILL)
            gtk_widget_set_size_request(sheet, -1, -1)
            gtk_widget_set_margin_top(sheet, 24)
        }
    }

    func close() {
        gtk_overlay_remove_overlay(cast(overlay), scrim)
    }
}
