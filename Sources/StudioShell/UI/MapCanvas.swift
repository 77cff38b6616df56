import CGtk
import ShellKit
import StudioContract

/// The system map's drawing: the points by their coordinates (`MapProjection`: equirectangular,
/// fit to their bounds) on a neutral background with a graticule — there are no map tiles
/// here — each a dot in its tone's colour with its title and subtitle beside it where there is
/// room (labels never overlap; every point is in the list beside the canvas all the same). The
/// selected point gets a ring. Colours follow libadwaita's light or dark style.
@MainActor
final class MapCanvas {
    let widget: WidgetPointer
    private(set) var points: [MapPoint] = []
    var selectedId: String? { didSet { if selectedId != oldValue, !closed { gtk_widget_queue_draw(widget) } } }
    private var closed = false
    /// A click on a point (the nearest within reach).
    var onPointClicked: ((MapPoint) -> Void)?
    /// Called after each draw, with how long it took (the bench's first paint).
    var onDrawn: (() -> Void)?
    /// Run once, at the end of the next draw (what waits for the map to be on screen).
    private var afterNextDraw: [@MainActor () -> Void] = []
    /// The labels, made once per map (a draw only places them).
    private var labels: [OpaquePointer?] = []
    private var projection: MapProjection?

    static let margin = 28.0, dot = 6.0

    init() {
        widget = gtk_drawing_area_new()!
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_set_size_request(widget, 240, 200)
        gtk_widget_add_css_class(widget, "hostshell-map-canvas")
        cgtk_accessible_set_hidden(widget, 1)  // the list beside it is the accessible form
        let body: @MainActor (OpaquePointer, Int32, Int32) -> Void = { [weak self] cr, width, height in
            self?.draw(cr, width: Double(width), height: Double(height))
        }
        gtk_drawing_area_set_draw_func(cast(widget), { _, cr, width, height, data in
            guard let cr else { return }
            let body = Callback<@MainActor (OpaquePointer, Int32, Int32) -> Void>.body(data)
            MainActor.assumeIsolated { body(cr, width, height) }
        }, Callback.retained(body), CallbackRelease.destroyNotify)
        let click = gtk_gesture_click_new()!
        onPressed(click) { [weak self] _, x, y in
            guard let self, let projection = self.projection,
                  let point = projection.point(at: x, y, in: self.points, radius: Self.dot * 2.5) else { return }
            self.onPointClicked?(point)
        }
        gtk_widget_add_controller(widget, click)
    }

    /// Draws these points from now on (a replaced map keeps the canvas).
    func show(_ points: [MapPoint]) {
        dropLabels()
        self.points = points
        labels = points.map { point in
            let layout = gtk_widget_create_pango_layout(widget, nil)
            let subtitle = point.subtitle.map { "\n<small>\(markupEscaped($0))</small>" } ?? ""
            pango_layout_set_markup(layout, markupEscaped(point.title) + subtitle, -1)
            return layout
        }
        projection = nil
        gtk_widget_queue_draw(widget)
    }

    /// Runs `body` once, at the end of the canvas's next draw: the frame that shows the map is
    /// being painted then.
    func whenDrawn(_ body: @escaping @MainActor () -> Void) { afterNextDraw.append(body) }

    /// Its widget is leaving the window: nothing is drawn or asked of it any more.
    func close() {
        closed = true
        onDrawn = nil
        afterNextDraw = []
        dropLabels()
    }

    private func dropLabels() {
        for layout in labels { if let layout { g_object_unref(UnsafeMutableRawPointer(layout)) } }
        labels = []
    }

    private func markupEscaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    private var dark: Bool { adw_style_manager_get_default().map { adw_style_manager_get_dark($0) != 0 } ?? false }

    private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
        let palette = MapPalette(dark: dark)
        palette.background.fill(cr)
        cairo_paint(cr)
        let projection = MapProjection(points: points, width: width, height: height, margin: Self.margin)
        self.projection = projection
        // The graticule: round degrees, faint.
        palette.grid.fill(cr)
        cairo_set_line_width(cr, 1)
        for lat in MapProjection.gridLines(projection.bounds.south, projection.bounds.north) {
            let y = projection.place(latitude: lat, longitude: projection.bounds.west).y.rounded() + 0.5
            cairo_move_to(cr, 0, y); cairo_line_to(cr, width, y)
        }
        for lon in MapProjection.gridLines(projection.bounds.west, projection.bounds.east) {
            let x = projection.place(latitude: projection.bounds.south, longitude: lon).x.rounded() + 0.5
            cairo_move_to(cr, x, 0); cairo_line_to(cr, x, height)
        }
        cairo_stroke(cr)
        // Dots first, then the labels that fit, so no label hides a dot.
        let places = points.map { projection.place(latitude: $0.latitude, longitude: $0.longitude) }
        for (point, at) in zip(points, places) {
            palette.tone(point.effectiveTone).fill(cr)
            cairo_new_path(cr)
            cairo_arc(cr, at.x, at.y, Self.dot, 0, 2 * Double.pi)
            cairo_fill_preserve(cr)
            palette.background.fill(cr)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
        }
        var placer = MapLabelPlacer(width: width, height: height)
        for at in places { placer.reserve(MapRect(x: at.x - Self.dot, y: at.y - Self.dot, width: 2 * Self.dot, height: 2 * Self.dot)) }
        // The selected point's label first (it always shows), then in Studio's order.
        let order = points.indices.sorted { (points[$0].id == selectedId ? 0 : 1, $0) < (points[$1].id == selectedId ? 0 : 1, $1) }
        palette.text.fill(cr)
        for index in order {
            guard index < labels.count, let layout = labels[index] else { continue }
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_pixel_size(layout, &w, &h)
            let at = places[index], size = (w: Double(w), h: Double(h))
            let right = MapRect(x: at.x + Self.dot + 4, y: at.y - size.h / 2, width: size.w, height: size.h)
            let left = MapRect(x: at.x - Self.dot - 4 - size.w, y: right.y, width: size.w, height: size.h)
            guard let box = placer.place([right, left], force: points[index].id == selectedId) else { continue }
            cairo_move_to(cr, box.x, box.y)
            pango_cairo_show_layout(cr, layout)
        }
        if let selectedId, let index = points.firstIndex(where: { $0.id == selectedId }) {
            palette.text.fill(cr)
            cairo_set_line_width(cr, 2)
            cairo_new_path(cr)  // the last label left a current point: no line to the ring
            cairo_arc(cr, places[index].x, places[index].y, Self.dot + 4, 0, 2 * Double.pi)
            cairo_stroke(cr)
        }
        onDrawn?()
        let waiting = afterNextDraw
        afterNextDraw = []
        for body in waiting { body() }
    }
}

/// The map's colours in libadwaita's light and dark styles (GNOME's palette).
struct MapPalette {
    struct Colour {
        var r: Double, g: Double, b: Double, a: Double = 1
        init(_ hex: UInt32, alpha: Double = 1) {
            r = Double((hex >> 16) & 0xff) / 255; g = Double((hex >> 8) & 0xff) / 255; b = Double(hex & 0xff) / 255; a = alpha
        }
        func fill(_ cr: OpaquePointer) { cairo_set_source_rgba(cr, r, g, b, a) }
        /// As Pango markup writes a colour.
        var markup: String {
            let hex = [r, g, b].map { String(Int(($0 * 255).rounded()), radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
            return "#" + hex.joined()
        }
    }

    let dark: Bool
    var background: Colour { dark ? Colour(0x2a2a2e) : Colour(0xeeedec) }
    var grid: Colour { dark ? Colour(0xffffff, alpha: 0.08) : Colour(0x000000, alpha: 0.07) }
    var text: Colour { dark ? Colour(0xffffff, alpha: 0.92) : Colour(0x000000, alpha: 0.8) }

    func tone(_ tone: MapTone) -> Colour {
        switch tone {
        case .default: return dark ? Colour(0x78aeed) : Colour(0x1c71d8)
        case .positive: return dark ? Colour(0x57e389) : Colour(0x26a269)
        case .warning: return dark ? Colour(0xf8e45c) : Colour(0xc88800)
        case .critical: return dark ? Colour(0xff7b63) : Colour(0xc01c28)
        case .muted: return dark ? Colour(0x9a9996) : Colour(0x77767b)
        }
    }

    static func name(_ tone: MapTone) -> String {
        switch tone {
        case .default: return "Default"
        case .positive: return "Positive"
        case .warning: return "Warning"
        case .critical: return "Critical"
        case .muted: return "Muted"
        }
    }
}
