import HostCore

/// Where a presentation's sheet sits in the window, worked out again at every layout so it
/// follows the window. Phone: a bottom sheet, the whole width, half the height for `compact`
/// and all but a 24 px strip at the top otherwise. Tablet and desktop: a panel centred over the
/// page, at most 760 px wide and 48 px in from each side of a narrower window, as tall as the
/// window less 48 px above and below (compact: half that, at least 320 px where there is that
/// much). Never smaller than the sheet's content needs.
public struct SheetLayout: Sendable, Equatable {
    public enum Style: String, Sendable { case bottomSheet = "bottom-sheet", panel }

    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let panelMaxWidth = 760
    public static let panelInset = 48
    public static let panelMinSide = 360
    public static let compactPanelMinHeight = 320
    public static let bottomSheetTopStrip = 24

    /// `minWidth`: the least width the sheet's content takes; `minHeight(width)`: the least
    /// height it takes at that width.
    public static func place(_ style: Style, size: PresentationSize, windowWidth: Int, windowHeight: Int,
                             minWidth: Int, minHeight: (Int) -> Int) -> SheetLayout {
        var w: Int, h: Int
        switch style {
        case .bottomSheet:
            w = windowWidth
            h = size == .compact ? windowHeight / 2 : windowHeight - bottomSheetTopStrip
        case .panel:
            w = min(max(windowWidth - 2 * panelInset, panelMinSide), panelMaxWidth, windowWidth)
            let room = min(max(windowHeight - 2 * panelInset, panelMinSide), windowHeight)
            h = size == .compact ? min(room, max(room / 2, compactPanelMinHeight)) : room
        }
        w = max(w, minWidth)
        h = max(h, minHeight(w))
        let y = style == .bottomSheet ? windowHeight - h : (windowHeight - h) / 2
        return SheetLayout(x: (windowWidth - w) / 2, y: y, width: w, height: h)
    }
}

extension SizeClass {
    /// How a presentation's sheet sits in a window of this class.
    public var sheetStyle: SheetLayout.Style { self == .compact ? .bottomSheet : .panel }
}
