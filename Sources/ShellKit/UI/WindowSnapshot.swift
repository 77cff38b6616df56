import CGtk

/// A PNG of a whole window — native chrome and page together, with what shows over it as a
/// person sees it: its open popovers and menus (surfaces of their own in GTK 4) at their places,
/// and its dialogs (alerts, permission questions, About, Keyboard Shortcuts, …) centred over a
/// dimmed window, as GNOME attaches them — or of one widget in it alone. Rendered by the
/// window's own GSK renderer from snapshots of the widget trees.
@MainActor
package enum WindowSnapshot {
    package static func savePNG(_ widget: WidgetPointer, to path: String) -> Bool {
        guard let texture = render(widget) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return gdk_texture_save_to_png(texture, path) != 0
    }

    /// The picture of `widget` as a texture (the caller unrefs it), or nil when it has no size
    /// or is not shown in a window.
    package static func render(_ widget: WidgetPointer) -> OpaquePointer? {
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let native = gtk_widget_get_native(widget),
              let renderer = gtk_native_get_renderer(native) else { return nil }
        // At the display's scale: a device's picture at its resolution (3 pixels a point on an iPhone 16).
        let scale = max(1, gtk_widget_get_scale_factor(widget))
        let snapshot = gtk_snapshot_new()
        gtk_snapshot_scale(snapshot, Float(scale), Float(scale))
        append(widget, to: snapshot, width: width, height: height)
        if gtk_widget_get_root(widget).map({ UnsafeMutableRawPointer($0) }) == UnsafeMutableRawPointer(widget) {
            for popover in openPopovers(under: widget) { appendPopover(popover, over: widget, to: snapshot) }
            appendDialogs(over: widget, width: width, height: height, to: snapshot)
        }
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        var viewport = graphene_rect_t()
        graphene_rect_init(&viewport, 0, 0, Float(width * scale), Float(height * scale))
        return gsk_renderer_render_texture(renderer, node, &viewport)
    }

    /// What `widget` draws, at the snapshot's origin.
    private static func append(_ widget: WidgetPointer, to snapshot: OpaquePointer?, width: Int32, height: Int32) {
        let paintable = gtk_widget_paintable_new(widget)
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        g_object_unref(UnsafeMutableRawPointer(paintable))
    }

    /// The popovers shown in `root`'s widget tree, outermost first (a submenu after its menu).
    static func openPopovers(under root: WidgetPointer) -> [WidgetPointer] {
        var found: [WidgetPointer] = []
        func walk(_ widget: WidgetPointer) {
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self), gtk_popover_get_type()) != 0 {
                    if gtk_widget_get_mapped(current) != 0 { found.append(current) }
                }
                walk(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        walk(root)
        return found
    }

    /// Where a popover shows over `window`, in the window's coordinates: its surface's place
    /// relative to the window's surface, and each widget's place in its own surface (shadows
    /// and arrows around it).
    static func frame(of popover: WidgetPointer, over window: WidgetPointer) -> (x: Double, y: Double, width: Int32, height: Int32)? {
        guard let popoverNative = gtk_widget_get_native(popover), let windowNative = gtk_widget_get_native(window),
              let surface = gtk_native_get_surface(popoverNative), let windowSurface = gtk_native_get_surface(windowNative),
              let offset = surfaceOffset(surface, from: windowSurface) else { return nil }
        var (px, py, wx, wy) = (0.0, 0.0, 0.0, 0.0)
        gtk_native_get_surface_transform(popoverNative, &px, &py)
        gtk_native_get_surface_transform(windowNative, &wx, &wy)
        let width = gtk_widget_get_width(popover), height = gtk_widget_get_height(popover)
        guard width > 0, height > 0 else { return nil }
        return (offset.x + px - wx, offset.y + py - wy, width, height)
    }

    private static func appendPopover(_ popover: WidgetPointer, over window: WidgetPointer, to snapshot: OpaquePointer?) {
        guard let frame = frame(of: popover, over: window) else { return }
        gtk_snapshot_save(snapshot)
        var point = graphene_point_t(x: Float(frame.x), y: Float(frame.y))
        gtk_snapshot_translate(snapshot, &point)
        append(popover, to: snapshot, width: frame.width, height: frame.height)
        gtk_snapshot_restore(snapshot)
    }

    /// What shows over `window` now, for `ctl state`: each open popover's frame in the
    /// window's coordinates, and each dialog's size.
    package static func overlays(of window: WidgetPointer) -> [(kind: String, x: Int, y: Int, width: Int, height: Int)] {
        var found = openPopovers(under: window).compactMap { popover in
            frame(of: popover, over: window).map { ("popover", Int($0.x.rounded()), Int($0.y.rounded()), Int($0.width), Int($0.height)) }
        }
        let width = gtk_widget_get_width(window), height = gtk_widget_get_height(window)
        for dialog in dialogs(of: window) {
            let w = gtk_widget_get_width(dialog), h = gtk_widget_get_height(dialog)
            found.append(("dialog", Int(max(0, (width - w) / 2)), Int(max(0, (height - h) / 2)), Int(w), Int(h)))
        }
        return found
    }

    /// Where `surface` lies in `window`'s surface. GTK 4.8 has no call for a popover surface's
    /// place; the pointer, read relative to both surfaces at once, gives it exactly (the same
    /// point in two coordinate systems).
    private static func surfaceOffset(_ surface: OpaquePointer, from window: OpaquePointer) -> (x: Double, y: Double)? {
        guard let display = gdk_surface_get_display(window), let seat = gdk_display_get_default_seat(display),
              let pointer = gdk_seat_get_pointer(seat) else { return nil }
        var (ax, ay, bx, by) = (0.0, 0.0, 0.0, 0.0)
        var modifiers = GdkModifierType(rawValue: 0)
        _ = gdk_surface_get_device_position(window, pointer, &ax, &ay, &modifiers)
        _ = gdk_surface_get_device_position(surface, pointer, &bx, &by, &modifiers)
        return (ax - bx, ay - by)
    }

    /// The window's dialogs: visible toplevels transient for it, centred over it (a modal one
    /// dims the window first), each with its own popovers.
    private static func appendDialogs(over window: WidgetPointer, width: Int32, height: Int32, to snapshot: OpaquePointer?) {
        for dialog in dialogs(of: window) {
            let handle = cgtk_window(UnsafeMutableRawPointer(dialog))
            if gtk_window_get_modal(handle) != 0 {
                var rect = graphene_rect_t()
                graphene_rect_init(&rect, 0, 0, Float(width), Float(height))
                var dim = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 0.3)
                gtk_snapshot_append_color(snapshot, &dim, &rect)
            }
            let dialogWidth = gtk_widget_get_width(dialog), dialogHeight = gtk_widget_get_height(dialog)
            guard dialogWidth > 0, dialogHeight > 0 else { continue }
            gtk_snapshot_save(snapshot)
            var point = graphene_point_t(x: Float(max(0, (width - dialogWidth) / 2)), y: Float(max(0, (height - dialogHeight) / 2)))
            gtk_snapshot_translate(snapshot, &point)
            append(dialog, to: snapshot, width: dialogWidth, height: dialogHeight)
            for popover in openPopovers(under: dialog) { appendPopover(popover, over: dialog, to: snapshot) }
            gtk_snapshot_restore(snapshot)
        }
    }

    /// The shown toplevels transient for `window`: its dialogs.
    static func dialogs(of window: WidgetPointer) -> [WidgetPointer] {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var dialogs: [WidgetPointer] = []
        var node = list
        while let current = node {
            let candidate: WidgetPointer = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            let handle = cgtk_window(UnsafeMutableRawPointer(candidate))
            if candidate != window, gtk_widget_get_visible(candidate) != 0, gtk_widget_get_mapped(candidate) != 0,
               let parent = gtk_window_get_transient_for(handle), UnsafeMutableRawPointer(mutating: UnsafeRawPointer(parent)) == UnsafeMutableRawPointer(window) {
                dialogs.append(candidate)
            }
            node = current.pointee.next
        }
        return dialogs
    }
}
