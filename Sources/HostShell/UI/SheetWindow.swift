import BridgeRuntime
import CGtk

/// Where a presentation's sheet is shown. The controller decides when it ends; a host only
/// reports the person's wish to dismiss it (Escape, a click outside, the window's close).
@MainActor
protocol SheetHost: AnyObject {
    var content: SheetContent { get }
    /// `compact` is medium height, anything else full.
    func apply(size: PresentationSize)
    /// Closes it for good, giving the page's view back.
    func close()
}

/// A presentation as a modal panel over the app window (tablet and desktop): Escape and the
/// window's close ask to dismiss it when Studio allows.
@MainActor
final class SheetWindow: SheetHost {
    let content: SheetContent
    let window: WidgetPointer
    private let parent: WidgetPointer?
    private var closing = false

    init(page: StudioPage, request: PresentationOpen, parent: WidgetPointer?) {
        self.parent = parent
        content = SheetContent(page: page, request: request)
        window = gtk_window_new()!
        gtk_window_set_modal(cast(window), 1)
        if let parent { gtk_window_set_transient_for(cast(window), cast(parent)) }
        gtk_window_set_titlebar(cast(window), content.header)
        gtk_window_set_child(cast(window), content.body)
        apply(size: request.size)
        cgtk_connect_close_request(window, { _, data in
            let sheet = Unmanaged<SheetWindow>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard !sheet.closing else { return 0 }
                if sheet.content.dismissible { sheet.content.onDismiss?() }
                return 1  // the controller closes it, or it is not dismissible
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        let escape = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(escape, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                      gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, escape)
        gtk_window_present(cast(window))
    }

    func apply(size: PresentationSize) {
        // A panel over the app window, narrower and shorter than it: compact is half its height.
        let width = min(max((parent.map { gtk_widget_get_width($0) } ?? 800) - 96, 360), 760)
        let height = max((parent.map { gtk_widget_get_height($0) } ?? 800) - 96, 400)
        gtk_window_set_default_size(cast(window), width, size == .compact ? height / 2 : height)
    }

    func close() {
        closing = true
        gtk_window_destroy(cast(window))
    }
}
