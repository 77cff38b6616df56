import CGtk
import ShellKit
import StudioContract

/// Every point of the system map as a keyboard-navigable list — the map's accessible form: a
/// `GtkListView`, so rows are made only near what shows (GTK 4.8 keeps up to 200 of them, so
/// the list fills a batch at a time: `show`). Each row: the tone's dot, the title and
/// subtitle, and an arrow when the point offers an action. Arrows move, Enter (or a click) on
/// a point with an action chooses it; the selection follows the canvas and the canvas follows
/// the selection.
@MainActor
final class MapPointList {
    let widget: WidgetPointer
    private let view: WidgetPointer
    private let ids: OpaquePointer
    private let selection: OpaquePointer
    private(set) var points: [MapPoint] = []
    private var updating = false
    /// Enter or a click on a point (activatable rows only: those with an action).
    var onActivate: ((MapPoint) -> Void)?
    /// The selection moved (nil: none).
    var onSelect: ((String?) -> Void)?

    init() {
        ids = gtk_string_list_new(nil)!
        selection = gtk_single_selection_new(ids)!  // takes the model
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        let factory = gtk_signal_list_item_factory_new()!
        onListItem(factory, "setup") { item in
            let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
            for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(row, 4) }
            gtk_box_append(cast(row), gtk_label_new(nil))
            let text = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
            gtk_widget_set_hexpand(text, 1)
            for style in ["", "dim-label"] {
                let label = gtk_label_new(nil)!
                gtk_label_set_xalign(cast(label), 0)
                gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
                if !style.isEmpty { gtk_widget_add_css_class(label, style); gtk_widget_add_css_class(label, "caption") }
                gtk_box_append(cast(text), label)
            }
            gtk_box_append(cast(row), text)
            let arrow = gtk_image_new_from_icon_name("go-next-symbolic")!
            gtk_widget_set_tooltip_text(arrow, "Open")
            gtk_box_append(cast(row), arrow)
            gtk_list_item_set_child(item, row)
        }
        view = gtk_list_view_new(selection, factory)!  // takes the selection and the factory
        gtk_widget_add_css_class(view, "navigation-sidebar")
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(widget), view)
        gtk_widget_set_vexpand(widget, 1)
        onListItem(factory, "bind") { [weak self] item in
            guard let self, let row = gtk_list_item_get_child(item) else { return }
            let position = Int(gtk_list_item_get_position(item))
            guard self.points.indices.contains(position) else { return }
            self.bind(row, self.points[position])
            gtk_list_item_set_activatable(item, self.points[position].actionId == nil ? 0 : 1)
        }
        onListActivate(view) { [weak self] position in
            guard let self, self.points.indices.contains(Int(position)) else { return }
            self.onActivate?(self.points[Int(position)])
        }
        onNotify(UnsafeMutableRawPointer(selection), "selected") { [weak self] in
            guard let self, !self.updating else { return }
            let position = Int(gtk_single_selection_get_selected(self.selection))
            self.onSelect?(self.points.indices.contains(position) ? self.points[position].id : nil)
        }
    }

    private func bind(_ row: WidgetPointer, _ point: MapPoint) {
        let palette = MapPalette(dark: adw_style_manager_get_default().map { adw_style_manager_get_dark($0) != 0 } ?? false)
        guard let dot = gtk_widget_get_first_child(row), let text = gtk_widget_get_next_sibling(dot),
              let arrow = gtk_widget_get_next_sibling(text), let title = gtk_widget_get_first_child(text),
              let subtitle = gtk_widget_get_next_sibling(title) else { return }
        gtk_label_set_markup(cast(dot), "<span foreground=\"\(palette.tone(point.effectiveTone).markup)\">●</span>")
        gtk_widget_set_tooltip_text(dot, MapPalette.name(point.effectiveTone))
        gtk_label_set_text(cast(title), point.title)
        gtk_label_set_text(cast(subtitle), point.subtitle ?? "")
        gtk_widget_set_visible(subtitle, point.subtitle == nil ? 0 : 1)
        gtk_widget_set_visible(arrow, point.actionId == nil ? 0 : 1)
    }

    /// Points listed per turn of the main loop while the list fills.
    static let pointsPerTurn = 25
    /// Fills so far; a batch of an older one stops.
    private var fills = 0
    /// How many of `points` the list holds now.
    private var listed: Int { Int(g_list_model_get_n_items(ids)) }

    /// Lists these points from now on (a replaced map keeps the list), `pointsPerTurn` at a
    /// time, a batch per turn of the main loop at idle, and calls `filled` once all are in.
    /// GTK 4.8's list view makes a row for each of the first 200 items at once, not only for
    /// those on screen (0.3–1 ms each here): in one go the window would stop answering for
    /// 60–250 ms. A later `show` or `stop` ends this one's batches.
    func show(_ points: [MapPoint], filled: @escaping @MainActor () -> Void) {
        fills &+= 1
        self.points = points
        append(from: 0, fill: fills, filled: filled)
    }

    /// No more batches (the map is leaving the window).
    func stop() { fills &+= 1 }

    private func append(from start: Int, fill: Int, filled: @escaping @MainActor () -> Void) {
        guard fill == fills else { return }
        let end = min(start + Self.pointsPerTurn, points.count)
        // The first batch replaces what the list held: a replaced map is never an empty list.
        splice(at: start, removing: start == 0 ? listed : 0, points[start..<end].map(\.id))
        guard end < points.count else { return filled() }
        MainLoop.whenIdle { [weak self] in self?.append(from: end, fill: fill, filled: filled) }
    }

    private func splice(at position: Int, removing count: Int, _ added: [String]) {
        updating = true
        var strings = added.map { strdup($0) } + [nil]
        strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_string_list_splice(ids, UInt32(position), UInt32(count), $0)
            }
        }
        for s in strings { free(s) }
        updating = false
    }

    /// Selects the point `id` and brings it into view (nil: none), without reporting it; a
    /// point not listed yet is selected once it is (`show`'s `filled`).
    func select(_ id: String?) {
        updating = true
        let position = id.flatMap { id in points.firstIndex { $0.id == id } }.flatMap { $0 < listed ? $0 : nil }
        gtk_single_selection_set_selected(selection, position.map(UInt32.init) ?? UInt32(GTK_INVALID_LIST_POSITION))
        if let position {
            gtk_widget_activate_action_variant(view, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
        }
        updating = false
    }

    /// Activates the row of `id` as Enter on it does (the list view's own `list.activate-item`),
    /// after selecting it; false when the list does not hold it (yet).
    func activate(_ id: String) -> Bool {
        guard let position = points.firstIndex(where: { $0.id == id }), position < listed else { return false }
        select(id)
        gtk_widget_activate_action_variant(view, "list.activate-item", g_variant_new_uint32(UInt32(position)))
        return true
    }

    func focus() { gtk_widget_grab_focus(view) }
}
