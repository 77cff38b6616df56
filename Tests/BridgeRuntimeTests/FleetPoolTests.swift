import HostCore
import Testing

@Suite("Fleet pool: which request takes which slot, when one is started, and that a slot serves once")
struct FleetPoolTests {
    /// Past the quiet after a take at 10 s.
    let later = 10 + FleetPool.quietAfterTake
    /// A pool filled to its size, every slot warmed as soon as it was started.
    func filled(_ size: Int) -> FleetPool {
        var pool = FleetPool(size: size)
        while case .start(let id) = pool.refill(appsOpen: 0, appLimit: 64, now: 0) { pool.warmed(id) }
        return pool
    }

    @Test("slots start one at a time, up to the pool's size, and never past the fleet's room")
    func warming() {
        var pool = FleetPool(size: 2)
        #expect(pool.refill(appsOpen: 0, appLimit: 64, now: 0) == .start("p1"), "no take yet: no quiet to keep")
        #expect(pool.refill(appsOpen: 0, appLimit: 64, now: later) == .none, "one slot warms at a time")
        pool.warmed("p1")
        #expect(pool.refill(appsOpen: 0, appLimit: 64, now: later) == .start("p2"))
        pool.warmed("p2")
        #expect(pool.refill(appsOpen: 0, appLimit: 64, now: later) == .none, "full")
        #expect(pool.slots.map(\.state) == [.ready, .ready])

        var crowded = FleetPool(size: 2)
        #expect(crowded.refill(appsOpen: 63, appLimit: 64, now: later) == .start("p1"), "one app's room left: one slot")
        crowded.warmed("p1")
        #expect(crowded.refill(appsOpen: 63, appLimit: 64, now: later) == .none, "the slots are apps to be: no room for another")
        #expect(crowded.refill(appsOpen: 62, appLimit: 64, now: later) == .start("p2"), "an app closed: room again")

        var none = FleetPool(size: 0)
        #expect(none.refill(appsOpen: 0, appLimit: 64, now: later) == .none, "--pool 0: no slot ever")
        #expect(none.take(throwAway: true, now: 10) == nil)
    }

    @Test("only a throw-away open takes a slot, only a ready one, the oldest first; a slot is never given twice")
    func taking() {
        var pool = filled(2)
        #expect(pool.take(throwAway: false, now: 10) == nil, "an app on its own profile keeps its data there: no slot")
        #expect(pool.take(throwAway: true, now: 9) == "p1")
        #expect(pool.refill(appsOpen: 1, appLimit: 64, now: 9.5) == .wait(FleetPool.quietAfterTake - 0.5))
        #expect(pool.take(throwAway: true, now: 10) == "p2")
        #expect(pool.take(throwAway: true, now: 10) == nil, "empty: the app starts as without a pool")
        #expect(pool.taken == 2)
        // Refilled: new ids, never one that served an app.
        #expect(pool.refill(appsOpen: 2, appLimit: 64, now: 10.25) == .wait(FleetPool.quietAfterTake - 0.25),
                "a moment after a take, the taken app's page goes first")
        #expect(pool.refill(appsOpen: 2, appLimit: 64, now: later) == .start("p3"))
        #expect(pool.take(throwAway: true, now: 10) == nil, "a warming slot is not taken")
        pool.warmed("p3")
        #expect(pool.take(throwAway: true, now: 10) == "p3")
        pool.warmed("p1")  // a late word about a slot already taken changes nothing
        #expect(pool.slots.isEmpty)
    }

    @Test("a slot whose web process ended leaves the pool and is replaced; drain hands every slot for ending")
    func losing() {
        var pool = filled(2)
        pool.slotLost("p1")
        #expect(pool.lost == 1 && pool.slots.map(\.id) == ["p2"])
        #expect(pool.take(throwAway: true, now: 10) == "p2")
        #expect(pool.refill(appsOpen: 1, appLimit: 64, now: later) == .start("p3"))
        pool.slotLost("p3")
        #expect(pool.refill(appsOpen: 1, appLimit: 64, now: later) == .start("p4"), "a slot lost while warming is replaced")
        #expect(pool.drain() == ["p4"] && pool.slots.isEmpty)
    }

    @Test("--pool takes a whole number from 0 to the most; anything else is refused with what it takes")
    func option() throws {
        #expect(try FleetPool.size(option: "0") == 0)
        #expect(try FleetPool.size(option: "2") == 2)
        #expect(try FleetPool.size(option: String(FleetPool.maxSize)) == FleetPool.maxSize)
        let refused: [(String?, String)] = [
            (nil, "--pool takes how many prewarmed throw-away slots to keep"),
            ("", "--pool takes how many prewarmed throw-away slots to keep"),
            ("-1", "--pool takes a whole number from 0 (none) to 8, not -1"),
            ("two", "not two"),
            ("1.5", "not 1.5"),
            ("+3", "not +3"),
            ("99999999999999999999999", "not 99999999999999999999999"),
            ("9", "--pool 9 is more than 8"),
            ("--headless", "not --headless"),
        ]
        for (value, message) in refused {
            do throws(ControlError) {
                _ = try FleetPool.size(option: value)
                Issue.record("--pool \(String(describing: value)) was taken")
            } catch {
                #expect(error.message.contains(message), "\(String(describing: value)): \(error.message)")
            }
        }
        #expect(FleetPool(size: 99).size == FleetPool.maxSize, "the rule never keeps more than its most")
    }

    @Test("list shows the pool: size, ready, warming, taken, lost and each slot")
    func json() {
        var pool = filled(2)
        _ = pool.take(throwAway: true, now: 10)
        _ = pool.refill(appsOpen: 1, appLimit: 64, now: later)
        let object = pool.json.objectValue ?? [:]
        #expect(object["size"] == .number(2) && object["ready"] == .number(1) && object["warming"] == .number(1))
        #expect(object["taken"] == .number(1) && object["lost"] == .number(0))
        #expect(object["slots"] == .array([["id": "p2", "state": "ready"], ["id": "p3", "state": "warming"]]))
    }
}
