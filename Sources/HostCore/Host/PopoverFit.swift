/// Where a menu or popover goes so that all of it shows inside its window, as a phone keeps a
/// menu on its screen: GTK centres a popover on what it points at and keeps it on the monitor
/// only, so a menu for a row at the window's right edge (or a button at its left) ran past the
/// edge and was cut in the window and in every picture of it. Pure arithmetic, in the window's
/// logical pixels.
public enum PopoverFit {
    /// Below what it points at, or above it when only there is room.
    public enum Side: Sendable, Equatable { case below, above }

    public struct Placement: Sendable, Equatable {
        public var side: Side
        /// How far to move the popover sideways from centred on its anchor (negative: left).
        public var offsetX: Int
    }

    /// The gap kept between a popover and the window's edge.
    public static let margin = 6

    /// The placement of a popover of `size` pointing at `anchor` (x, y, width, height) in a
    /// window of `window` (width, height). A popover wider than the window starts at its left
    /// margin; one that fits neither below nor above goes where there is more room.
    public static func place(anchor: (x: Int, y: Int, width: Int, height: Int), size: (width: Int, height: Int),
                             window: (width: Int, height: Int), margin: Int = margin) -> Placement {
        let centre = anchor.x + anchor.width / 2
        let left = centre - size.width / 2
        var offset = 0
        if left + size.width > window.width - margin { offset = window.width - margin - (left + size.width) }
        if left + offset < margin { offset = margin - left }
        let roomBelow = window.height - margin - (anchor.y + anchor.height)
        let roomAbove = anchor.y - margin
        let side: Side = size.height <= roomBelow || roomBelow >= roomAbove ? .below : .above
        return Placement(side: side, offsetX: offset)
    }
}
