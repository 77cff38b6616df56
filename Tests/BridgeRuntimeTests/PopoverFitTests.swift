import HostCore
import Testing

@Suite("Popovers kept inside their window")
struct PopoverFitTests {
    @Test("a menu for a row at the right edge moves left so that all of it shows (the phone's 390 px window)")
    func rightEdge() {
        let placed = PopoverFit.place(anchor: (309, 251, 47, 37), size: (217, 248), window: (390, 844))
        // Centred on the button it would span 224…441; moved, it ends 6 px inside the edge.
        let right: Int = 224 + placed.offsetX + 217
        #expect(placed.side == .below && placed.offsetX == -57 && right == 384)
    }

    @Test("a popover for a button at the left edge moves right (the server switcher opened at x = -28)")
    func leftEdge() {
        let placed = PopoverFit.place(anchor: (10, 8, 40, 30), size: (156, 200), window: (1280, 800))
        let left: Int = -48 + placed.offsetX
        #expect(left == 6)
    }

    @Test("one that fits stays centred; one wider than the window starts at its left margin")
    func fitsOrTooWide() {
        #expect(PopoverFit.place(anchor: (500, 100, 40, 30), size: (200, 200), window: (1280, 800)).offsetX == 0)
        let wide = PopoverFit.place(anchor: (200, 100, 40, 30), size: (500, 100), window: (390, 844))
        let left: Int = -30 + wide.offsetX
        #expect(left == 6)
    }

    @Test("near the bottom it opens above; when neither side fits, on the roomier one")
    func vertical() {
        #expect(PopoverFit.place(anchor: (100, 700, 40, 30), size: (200, 248), window: (390, 844)).side == .above)
        #expect(PopoverFit.place(anchor: (100, 500, 40, 30), size: (200, 248), window: (390, 844)).side == .below)
        #expect(PopoverFit.place(anchor: (100, 300, 40, 30), size: (200, 600), window: (390, 700)).side == .below)
        #expect(PopoverFit.place(anchor: (100, 400, 40, 30), size: (200, 600), window: (390, 700)).side == .above)
    }
}
