import BridgeRuntime
import CGtk

/// A presentation's native sheet: a modal window over the app window with the sheet page, a
/// header with the title and subtitle Studio gives, Close (when dismissible), header actions and
/// a menu; the loading mark until Studio has painted. `compact` is medium height, anything else
/// the parent's full size.
@MainActor
final class SheetWindow {
    let window: WidgetPointer
    private let stack: WidgetPointer
    private let title: OpaquePointer
    private let closeButton: WidgetPointer
    private let actions: WidgetPointer
    private let parent: WidgetPointer?
    private var dismissible = true
    private var closing = false
    var onDismiss: (() -> Void)?
    var onAction: ((String) -> Void)?

    init(page: StudioPage, request: PresentationOpen, parent: WidgetPointer?) {
        self.parent = parent
        window = gtk_window_new()!
        gtk_window_set_modal(cast(window), 1)
        if let parent { gtk_window_set_transient_for(cast(window), cast(parent)) }
        let header = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cast(header), 0)
        title = OpaquePointer(adw_window_title_new(request.title, request.subtitle ?? ""))
        gtk_header_bar_set_title_widget(cast(header), cgtk_widget(UnsafeMutableRawPointer(title)))
        closeButton = gtk_button_new_with_mnemonic("_Close")!
        gtk_header_bar_pack_start(cast(header), closeButton)
        actions = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_header_bar_pack_end(cast(header), actions)
        gtk_window_set_titlebar(cast(window), header)
        stack = gtk_stack_new()!
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(cast(spinner))
        gtk_widget_set_size_request(spinner, 32, 32)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        gtk_stack_add_named(cast(stack), spinner, "loading")
        let web = cgtk_widget(UnsafeMutableRawPointer(page.view))!
        gtk_widget_set_vexpand(web, 1)
        if gtk_widget_get_parent(web) != nil { gtk_widget_unparent(web) }
        gtk_stack_add_named(cast(stack), web, "page")
        gtk_stack_set_visible_child_name(cast(stack), "loading")
        gtk_window_set_child(cast(window), stack)
        apply(size: request.size, dismissible: request.dismissible)
        onSignal(raw(closeButton), "clicked") { [weak self] in self?.onDismiss?() }
        cgtk_connect_close_request(window, { _, data in
            let sheet = Unmanaged<SheetWindow>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard !sheet.closing else { return 0 }
                if sheet.dismissible { sheet.onDismiss?() }
                return 1  // the controller closes it, or it is not dismissible
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        let escape = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(escape, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                      gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, escape)
        gtk_window_present(cast(window))
    }

    /// Studio has painted the presentation: show the page instead of the loading mark.
    func reveal() { gtk_stack_set_visible_child_name(cast(stack), "page") }

    var isRevealed: Bool { gtk_stack_get_visible_child_name(cast(stack)).map { String(cString: $0) } == "page" }

    func apply(size: PresentationSize?, dismissible: Bool?) {
        if let dismissible {
            self.dismissible = dismissible
            gtk_widget_set_visible(closeButton, dismissible ? 1 : 0)
            gtk_window_set_deletable(cast(window), dismissible ? 1 : 0)
        }
        if let size {
            let width = parent.map { max(gtk_widget_get_width($0), 360) } ?? 480
            let height = parent.map { max(gtk_widget_get_height($0), 480) } ?? 720
            gtk_window_set_default_size(cast(window), width, size == .compact ? height / 2 : height)
        }
    }

    /// The header Studio describes: title, subtitle and up to four actions.
    func apply(header: PresentationHeader) {
        adw_window_title_set_title(title, header.title)
        adw_window_title_set_subtitle(title, header.subtitle ?? "")
        while let child = gtk_widget_get_first_child(actions) { gtk_box_remove(cast(actions), child) }
        for action in header.actions {
            let button = gtk_button_new_from_icon_name(IconTokens.symbolicName(for: action.icon))!
            gtk_widget_set_tooltip_text(button, action.label)
            let id = action.id
            onSignal(raw(button), "clicked") { [weak self] in self?.onAction?(id) }
            gtk_box_append(cast(actions), button)
        }
    }

    var titleText: String { String(cString: adw_window_title_get_title(title)) }
    var isDismissible: Bool { dismissible }

    /// Closes the sheet for good (the controller decided), giving the page's view back.
    func close() {
        closing = true
        gtk_window_destroy(cast(window))
    }
}
