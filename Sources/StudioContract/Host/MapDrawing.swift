import Glibc
import HostCore

/// Where the system map's points go on its canvas: an equirectangular projection (longitude
/// scaled by the cosine of the middle latitude, north up) fit to the points' bounds, centred,
/// with `margin` pixels left on every side for the dots and their labels. There are no map
/// tiles here, so the bounds are the points' own; a single point (or points closer than
/// `minimumSpan` degrees) gets that span around it.
public struct MapProjection: Sendable, Equatable {
    public static let minimumSpan = 0.01

    public struct Bounds: Sendable, Equatable {
        public var south: Double, north: Double, west: Double, east: Double
    }

    /// The bounds drawn (the points', widened to `minimumSpan` where they are closer).
    public let bounds: Bounds
    /// Pixels per degree of latitude; a degree of longitude is `scale * cosine`.
    public let scale: Double
    public let cosine: Double
    private let originX: Double, originY: Double

    public init(points: [MapPoint], width: Double, height: Double, margin: Double) {
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0
        for p in points {
            south = min(south, p.latitude); north = max(north, p.latitude)
            west = min(west, p.longitude); east = max(east, p.longitude)
        }
        if points.isEmpty { (south, north, west, east) = (-60, 75, -180, 180) }
        func widened(_ low: Double, _ high: Double, limit: Double) -> (Double, Double) {
            guard high - low < Self.minimumSpan else { return (low, high) }
            let middle = min(max((low + high) / 2, -limit + Self.minimumSpan / 2), limit - Self.minimumSpan / 2)
            return (middle - Self.minimumSpan / 2, middle + Self.minimumSpan / 2)
        }
        (south, north) = widened(south, north, limit: 90)
        (west, east) = widened(west, east, limit: 180)
        bounds = Bounds(south: south, north: north, west: west, east: east)
        cosine = max(cos((south + north) / 2 * .pi / 180), 0.05)
        let roomX = max(width - 2 * margin, 1), roomY = max(height - 2 * margin, 1)
        let spanX = (east - west) * cosine, spanY = north - south
        scale = min(roomX / spanX, roomY / spanY)
        originX = (width - spanX * scale) / 2
        originY = (height - spanY * scale) / 2
    }

    /// The canvas position of a coordinate (x right, y down).
    public func place(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (originX + (longitude - bounds.west) * cosine * scale, originY + (bounds.north - latitude) * scale)
    }

    /// The point drawn nearest to (x, y) within `radius` pixels, for a click on the canvas.
    public func point(at x: Double, _ y: Double, in points: [MapPoint], radius: Double) -> MapPoint? {
        var best: (MapPoint, Double)?
        for p in points {
            let at = place(latitude: p.latitude, longitude: p.longitude)
            let d = ((at.x - x) * (at.x - x) + (at.y - y) * (at.y - y)).squareRoot()
            if d <= radius, d < (best?.1 ?? .infinity) { best = (p, d) }
        }
        return best?.0
    }

    /// Round degree values for the graticule inside `low...high`: a step of 1, 2 or 5 × 10ⁿ
    /// giving at most `most` lines.
    public static func gridLines(_ low: Double, _ high: Double, most: Int = 6) -> [Double] {
        let span = high - low
        guard span > 0, most > 0 else { return [] }
        var step = pow(10, floor(log10(span / Double(most))))
        for factor in [1.0, 2, 5, 10] where span / (step * factor) <= Double(most) { step *= factor; break }
        var lines: [Double] = []
        var value = ceil(low / step) * step
        while value <= high + step * 1e-9, lines.count <= most { lines.append(value); value += step }
        return lines
    }
}

/// A box on the map's canvas (a dot's or a label's), in pixels.
public struct MapRect: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }
    public func overlaps(_ o: MapRect) -> Bool { x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height }
}

/// Places the map's labels so none overlaps a dot or another label: each label takes the first
/// of its candidate places (right of its dot, then left) that is inside the canvas and free, or
/// none — its point is in the list all the same. The boxes taken are kept in a grid of cells, so
/// 500 points cost about as much per label as 5.
public struct MapLabelPlacer: Sendable {
    public let width: Double, height: Double
    private let cell: Double
    private var cells: [Int: [MapRect]] = [:]

    public init(width: Double, height: Double, cell: Double = 64) {
        self.width = width; self.height = height; self.cell = cell
    }

    private func keys(_ r: MapRect) -> [Int] {
        let x0 = Int((max(r.x, 0) / cell).rounded(.down)), x1 = Int((max(r.x + r.width, 0) / cell).rounded(.down))
        let y0 = Int((max(r.y, 0) / cell).rounded(.down)), y1 = Int((max(r.y + r.height, 0) / cell).rounded(.down))
        var keys: [Int] = []
        for cx in x0...x1 { for cy in y0...y1 { keys.append(cy &* 65_536 &+ cx) } }
        return keys
    }

    /// Takes `rect` (a dot's box): no label goes over it.
    public mutating func reserve(_ rect: MapRect) { for key in keys(rect) { cells[key, default: []].append(rect) } }

    public func isFree(_ rect: MapRect) -> Bool {
        guard rect.x >= 0, rect.y >= 0, rect.x + rect.width <= width, rect.y + rect.height <= height else { return false }
        return !keys(rect).contains { key in cells[key]?.contains(where: rect.overlaps) ?? false }
    }

    /// The first free candidate, taken; nil when none is. `force`: the first candidate even when
    /// taken (the selected point's label always shows).
    public mutating func place(_ candidates: [MapRect], force: Bool = false) -> MapRect? {
        guard let chosen = candidates.first(where: isFree) ?? (force ? candidates.first : nil) else { return nil }
        reserve(chosen)
        return chosen
    }
}

/// Where the map surface sits in the window: in a compact (phone) window a sheet from the
/// bottom, the whole width and all but a strip at the top; in a regular one a panel along the
/// right edge, the whole height, 45% of the width between 360 and 560 px (never wider than the
/// window).
public enum MapSurfaceLayout {
    public static let panelMinWidth = 360
    public static let panelMaxWidth = 560

    public static func place(_ sizeClass: SizeClass, windowWidth: Int, windowHeight: Int) -> SheetLayout {
        switch sizeClass {
        case .compact:
            let h = max(windowHeight - SheetLayout.bottomSheetTopStrip, 0)
            return SheetLayout(x: 0, y: windowHeight - h, width: windowWidth, height: h)
        case .regular:
            let w = min(max(windowWidth * 45 / 100, panelMinWidth), panelMaxWidth, windowWidth)
            return SheetLayout(x: windowWidth - w, y: 0, width: w, height: windowHeight)
        }
    }
}

extension MapPresent {
    /// The map as `ctl state` shows it.
    public var stateJSON: JSONObject {
        ["mapId": .string(mapId), "title": .string(title),
         "points": .array(points.map { p in
             ["id": .string(p.id), "title": .string(p.title), "subtitle": p.subtitle.map(JSONValue.string) ?? .null,
              "latitude": .number(p.latitude), "longitude": .number(p.longitude),
              "tone": .string(p.effectiveTone.rawValue), "actionId": p.actionId.map(JSONValue.string) ?? .null]
         })]
    }
}
