import CGtk
import HostCore
import ShellKit
import StudioContract

/// The system map on screen, inside the app window: in a compact (phone) window a sheet from
/// the bottom, in a regular one a panel along the right edge with the page beside it
/// (`MapSurfaceLayout`, worked out again at every layout so it follows the window). A header
/// with the map's title and Done; a notice that no tiles can be fetched; the canvas
/// (`MapCanvas`); a legend of the tones shown; and every point in a keyboard-navigable list
/// (`MapPointList`) — Tab reaches it, arrows move through it, Enter on a point with an action
/// chooses it. A click on a dot selects its point in the list. Escape is Done.
@MainActor
final class MapSurface {
    static let notice = "Map tiles are not available offline — points drawn by their coordinates"

    private(set) var map: MapPresent
    private(set) var sizeClass: SizeClass
    private let overlay: WidgetPointer
    private let root: WidgetPointer
    private let title: OpaquePointer
    let canvas = MapCanvas()
    private let list = MapPointList()
    private let legend: WidgetPointer
    private let done: WidgetPointer
    private var position: SignalConnection?
    /// Taken out of the window: its widgets are going, and report nothing more.
    private var closed = false
    /// The point selected in the list (and ringed on the canvas).
    private(set) var selectedId: String?
    /// Maps shown so far (the list fills for the latest only); the list holds the latest points.
    private var shows = 0
    private(set) var listReady = false
    /// The latest map the list was given (`shows`' count), and the fill's timer for a canvas
    /// that does not draw.
    private var listShown = 0
    private var listFallback: UInt32?
    static let listFallbackMilliseconds: UInt32 = 500
    /// From Studio's `map-present` to the canvas's first draw, once drawn.
    var firstPaintMilliseconds: Double?
    /// The person chose the action of a point; pressed Done (or Escape).
    var onChoose: ((String) -> Void)?
    var onDone: (() -> Void)?

    init(_ map: MapPresent, overlay: WidgetPointer, sizeClass: SizeClass) {
        self.map = map
        self.overlay = overlay
        self.sizeClass = sizeClass
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(root, "background")
        gtk_widget_add_css_class(root, Self.cssClass(sizeClass))
        gtk_widget_set_overflow(root, GTK_OVERFLOW_HIDDEN)

        let header = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cast(header), 0)
        title = OpaquePointer(adw_window_title_new("", ""))
        gtk_header_bar_set_title_widget(cast(header), cgtk_widget(UnsafeMutableRawPointer(title)))
        done = gtk_button_new_with_mnemonic("_Done")!
        gtk_widget_add_css_class(done, "suggested-action")
        gtk_header_bar_pack_end(cast(header), done)
        gtk_box_append(cast(root), header)

        let notice = gtk_label_new(Self.notice)!
        gtk_label_set_wrap(cast(notice), 1)
        gtk_label_set_xalign(cast(notice), 0)
        gtk_widget_add_css_class(notice, "dim-label")
        gtk_widget_add_css_class(notice, "caption")
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(notice, 12) }
        gtk_widget_set_margin_top(notice, 6)
        gtk_widget_set_margin_bottom(notice, 6)
        gtk_box_append(cast(root), notice)
        gtk_box_append(cast(root), canvas.widget)

        legend = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            side(legend, 8)
        }
        gtk_box_append(cast(root), legend)

        gtk_box_append(cast(root), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(cast(root), list.widget)

        gtk_overlay_add_overlay(cast(overlay), root)
        position = onChildPosition(overlay) { [weak self] child in
            guard let self, child == self.root else { return nil }
            let place = MapSurfaceLayout.place(self.sizeClass, windowWidth: Int(gtk_widget_get_width(overlay)),
                                               windowHeight: Int(gtk_widget_get_height(overlay)))
            return GdkRectangle(x: Int32(place.x), y: Int32(place.y), width: Int32(place.width), height: Int32(place.height))
        }
        onSignal(raw(done), "clicked") { [weak self] in self?.onDone?() }
        list.onSelect = { [weak self] id in
            guard let self, !self.closed else { return }
            self.selectedId = id
            self.canvas.selectedId = id
        }
        list.onActivate = { [weak self] point in
            guard let self, !self.closed, let actionId = point.actionId else { return }
            self.onChoose?(actionId)
        }
        canvas.onPointClicked = { [weak self] point in
            self?.select(point.id)
            self?.list.focus()
        }
        let keys = gtk_shortcut_controller_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        gtk_shortcut_controller_add_shortcut(keys, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), shortcutAction { [weak self] in
            self?.onDone?()
            return true
        }))
        gtk_widget_add_controller(root, keys)
        show(map)
        list.focus()
    }

    /// Shows `map`: the first one, or new points for the same `mapId` in place (the selection
    /// stays on its point when the point is still there).
    func show(_ map: MapPresent) {
        self.map = map
        adw_window_title_set_title(title, map.title)
        adw_window_title_set_subtitle(title, map.points.count == 1 ? "1 point" : "\(map.points.count) points")
        canvas.show(map.points)
        showLegend(map.points)
        fillListAfterDraw()
        let keep = selectedId.flatMap { id in map.points.contains { $0.id == id } ? id : nil }
        selectedId = nil
        select(keep)
    }

    /// Fills the list once the canvas has drawn these points: its rows cost more than the
    /// drawing (GTK 4.8's list view makes up to 200 rows at once, 60–250 ms here), so the map
    /// shows at once and the list right after that frame. Not merely at idle: while the frame
    /// clock waits for its next frame nothing else is ready, so an idle source runs first and
    /// the map's first paint waited for every row (about half the opens). A canvas that does
    /// not draw (the window hidden) has its list filled after `listFallbackMilliseconds`.
    private func fillListAfterDraw() {
        let generation = shows &+ 1
        shows = generation
        if let fallback = listFallback { g_source_remove(fallback) }
        let fill: @MainActor () -> Void = { [weak self] in
            guard let self, !self.closed, self.shows == generation, self.listShown != generation else { return }
            self.listShown = generation
            if let fallback = self.listFallback { g_source_remove(fallback) }
            self.listFallback = nil
            self.list.show(self.map.points) { [weak self] in
                guard let self, !self.closed else { return }
                self.list.select(self.selectedId)
                self.listReady = true
            }
        }
        // At idle after the draw: the frame the canvas drew in is painted to the end first.
        canvas.whenDrawn { MainLoop.whenIdle(fill) }
        listFallback = MainLoop.timeout(milliseconds: Self.listFallbackMilliseconds) { [weak self] in
            self?.listFallback = nil  // the source is gone once it ran
            fill()
        }
    }

    /// Chooses the point `id` through its row, as Enter on it would; false while the list is
    /// not filled yet.
    func activate(_ id: String) -> Bool { listReady && list.activate(id) }

    /// Selects the point `id` in the list and rings it on the canvas (nil: none).
    func select(_ id: String?) {
        selectedId = id
        canvas.selectedId = id
        list.select(id)
    }

    private func showLegend(_ points: [MapPoint]) {
        while let child = gtk_widget_get_first_child(legend) { gtk_box_remove(cast(legend), child) }
        let palette = MapPalette(dark: adw_style_manager_get_default().map { adw_style_manager_get_dark($0) != 0 } ?? false)
        for tone in MapTone.allCases {
            let count = points.filter { $0.effectiveTone == tone }.count
            guard count > 0 else { continue }
            let chip = gtk_label_new(nil)!
            gtk_label_set_markup(cast(chip), "<span foreground=\"\(palette.tone(tone).markup)\">●</span> \(MapPalette.name(tone)) \(count)")
            gtk_widget_add_css_class(chip, "caption")
            gtk_box_append(cast(legend), chip)
        }
    }

    private static func cssClass(_ sizeClass: SizeClass) -> String { sizeClass == .compact ? "hostshell-sheet" : "hostshell-map-panel" }

    /// The window changed size class: the sheet becomes a panel or back, in place.
    func apply(sizeClass: SizeClass) {
        guard sizeClass != self.sizeClass else { return }
        gtk_widget_remove_css_class(root, Self.cssClass(self.sizeClass))
        self.sizeClass = sizeClass
        gtk_widget_add_css_class(root, Self.cssClass(sizeClass))
        gtk_widget_queue_allocate(overlay)
    }

    /// What `ctl state` shows of it: the map, its points, how it sits, the point selected.
    var stateJSON: JSONValue {
        var object = map.stateJSON
        object["style"] = .string(sizeClass.sheetStyle == .bottomSheet ? "bottom-sheet" : "panel")
        object["selected"] = selectedId.map(JSONValue.string) ?? .null
        object["notice"] = .string(Self.notice)
        object["firstPaintMilliseconds"] = firstPaintMilliseconds.map(JSONValue.number) ?? .null
        object["listReady"] = .bool(listReady)
        return .object(object)
    }

    /// Takes the map out of the window.
    func close() {
        guard !closed else { return }
        closed = true
        position?.disconnect()
        position = nil
        list.stop()
        if let fallback = listFallback { g_source_remove(fallback) }
        listFallback = nil
        canvas.close()
        releaseFocus(from: root, to: gtk_overlay_get_child(cast(overlay)))
        gtk_overlay_remove_overlay(cast(overlay), root)
    }
}
