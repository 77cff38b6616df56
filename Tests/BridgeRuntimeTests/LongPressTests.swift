import HostCore
import Testing

@Suite("Long press: held 0.5 s within 10 points, as UIKit recognizes one")
struct LongPressTests {
    @Test("held still until the timer fires: recognized where it went down, once")
    func heldStill() {
        var press = LongPress()
        #expect(press.reduce(.down(x: 100, y: 200)) == [.timer(.start(.hold, after: 0.5))])
        #expect(press.reduce(.moved(x: 106, y: 208)).isEmpty, "10 points of movement is allowed")
        #expect(press.reduce(.timerFired(.hold)) == [.recognized(x: 100, y: 200)])
        #expect(!press.isPressed)
        #expect(press.reduce(.timerFired(.hold)).isEmpty, "a stale fire does nothing")
        #expect(press.reduce(.up).isEmpty, "the release after a recognized press has nothing to cancel")
    }

    @Test("lifted, or moved more than 10 points, before the hold: nothing, and the timer is stopped")
    func givenUp() {
        var lifted = LongPress()
        _ = lifted.reduce(.down(x: 0, y: 0))
        #expect(lifted.reduce(.up) == [.timer(.cancel(.hold))])
        #expect(lifted.reduce(.timerFired(.hold)).isEmpty)

        var dragged = LongPress()
        _ = dragged.reduce(.down(x: 0, y: 0))
        #expect(dragged.reduce(.moved(x: 8, y: 7)) == [.timer(.cancel(.hold))], "10.6 points is a drag")
        #expect(dragged.reduce(.moved(x: 0, y: 0)).isEmpty, "after giving up, nothing more")
        #expect(dragged.reduce(.timerFired(.hold)).isEmpty)
    }

    @Test("a new press starts over from its own point")
    func pressAgain() {
        var press = LongPress()
        _ = press.reduce(.down(x: 0, y: 0))
        _ = press.reduce(.up)
        #expect(press.reduce(.down(x: 50, y: 60)) == [.timer(.start(.hold, after: 0.5))])
        #expect(press.reduce(.timerFired(.hold)) == [.recognized(x: 50, y: 60)])
    }
}
