import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Sheet layout: where a sheet sits for the window it is in")
struct SheetLayoutTests {
    private func place(_ style: SheetLayout.Style, _ size: PresentationSize, _ width: Int, _ height: Int,
                       minWidth: Int = 0, minHeight: Int = 0) -> SheetLayout {
        SheetLayout.place(style, size: size, windowWidth: width, windowHeight: height, minWidth: minWidth) { _ in minHeight }
    }

    @Test("phone: the whole width at the bottom, half the height compact, all but 24 px full")
    func bottomSheet() {
        #expect(place(.bottomSheet, .compact, 390, 800) == SheetLayout(x: 0, y: 400, width: 390, height: 400))
        #expect(place(.bottomSheet, .compact, 390, 801) == SheetLayout(x: 0, y: 401, width: 390, height: 400))
        #expect(place(.bottomSheet, .full, 390, 800) == SheetLayout(x: 0, y: 24, width: 390, height: 776))
    }

    @Test("desktop: centred, at most 760 wide, 48 px in from a narrower window; compact half the room, at least 320")
    func panel() {
        #expect(place(.panel, .full, 1280, 800) == SheetLayout(x: 260, y: 48, width: 760, height: 704))
        #expect(place(.panel, .compact, 1280, 800) == SheetLayout(x: 260, y: 224, width: 760, height: 352))
        #expect(place(.panel, .full, 700, 600) == SheetLayout(x: 48, y: 48, width: 604, height: 504))
        // Compact in a small window keeps 320 px rather than half of its room.
        #expect(place(.panel, .compact, 700, 500) == SheetLayout(x: 48, y: 90, width: 604, height: 320))
        // A window smaller than the panel's least side: the panel takes the window, no more.
        #expect(place(.panel, .full, 300, 300) == SheetLayout(x: 0, y: 0, width: 300, height: 300))
    }

    @Test("never smaller than the content needs, whatever the window")
    func contentMinimum() {
        let tight = place(.panel, .compact, 400, 300, minWidth: 420, minHeight: 350)
        #expect(tight.width == 420 && tight.height == 350)
        #expect(tight.x == -10 && tight.y == -25, "centred, overflowing evenly")
        var asked: [Int] = []
        _ = SheetLayout.place(.bottomSheet, size: .full, windowWidth: 390, windowHeight: 800, minWidth: 500) { width in
            asked.append(width)
            return 0
        }
        #expect(asked == [500], "the least height is asked for at the width the sheet gets")
    }
}
