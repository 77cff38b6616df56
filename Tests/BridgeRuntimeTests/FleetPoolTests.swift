import HostCore
import Testing

@Suite("Fleet pool: which request takes which slot, when one is started, and that a slot serves once")
struct FleetPoolTests {
    /// A pool filled to its size, every slot warmed as soon as it was started.
    func filled(_ size: Int) -> FleetPool {
        var pool = FleetPool(size: size)
        while let id = pool.nextToWarm(appsOpen: 0, appLimit: 64) { pool.warmed(id) }
        return pool
    }

    @Test("slots start one at a time, up to the pool's size, and never past the fleet's room")
    func warming() {
        var pool = FleetPool(size: 2)
        let first = pool.nextToWarm(appsOpen: 0, appLimit: 64)
        #expect(first == "p1")
        #expect(pool.nextToWarm(appsOpen: 0, appLimit: 64) == nil, "one slot warms at a time")
        pool.warmed("p1")
        #expect(pool.nextToWarm(appsOpen: 0, appLimit: 64) == "p2")
        pool.warmed("p2")
        #expect(pool.nextToWarm(appsOpen: 0, appLimit: 64) == nil, "full")
        #expect(pool.slots.map(\.state) == [.ready, .ready])

        var crowded = FleetPool(size: 2)
        #expect(crowded.nextToWarm(appsOpen: 63, appLimit: 64) == "p1", "one app's room left: one slot")
        crowded.warmed("p1")
        #expect(crowded.nextToWarm(appsOpen: 63, appLimit: 64) == nil, "the slots are apps to be: no room for another")
        #expect(crowded.nextToWarm(appsOpen: 62, appLimit: 64) == "p2", "an app closed: room again")

        var none = FleetPool(size: 0)
        #expect(none.nextToWarm(appsOpen: 0, appLimit: 64) == nil, "--pool 0: no slot ever")
        #expect(none.take(throwAway: true) == nil)
    }

    @Test("only a throw-away open takes a slot, only a ready one, the oldest first; a slot is never given twice")
    func taking() {
        var pool = filled(2)
        #expect(pool.take(throwAway: false) == nil, "an app on its own profile keeps its data there: no slot")
        #expect(pool.take(throwAway: true) == "p1")
        #expect(pool.take(throwAway: true) == "p2")
        #expect(pool.take(throwAway: true) == nil, "empty: the app starts as without a pool")
        #expect(pool.taken == 2)
        // Refilled: new ids, never one that served an app.
        let refill = pool.nextToWarm(appsOpen: 2, appLimit: 64)
        #expect(refill == "p3")
        #expect(pool.take(throwAway: true) == nil, "a warming slot is not taken")
        pool.warmed("p3")
        #expect(pool.take(throwAway: true) == "p3")
        pool.warmed("p1")  // a late word about a slot already taken changes nothing
        #expect(pool.slots.isEmpty)
    }

    @Test("a slot whose web process ended leaves the pool and is replaced; drain hands every slot for ending")
    func losing() {
        var pool = filled(2)
        pool.slotLost("p1")
        #expect(pool.lost == 1 && pool.slots.map(\.id) == ["p2"])
        #expect(pool.take(throwAway: true) == "p2")
        #expect(pool.nextToWarm(appsOpen: 1, appLimit: 64) == "p3")
        pool.slotLost("p3")
        #expect(pool.nextToWarm(appsOpen: 1, appLimit: 64) == "p4", "a slot lost while warming is replaced")
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
        _ = pool.take(throwAway: true)
        _ = pool.nextToWarm(appsOpen: 1, appLimit: 64)
        let object = pool.json.objectValue ?? [:]
        #expect(object["size"] == .number(2) && object["ready"] == .number(1) && object["warming"] == .number(1))
        #expect(object["taken"] == .number(1) && object["lost"] == .number(0))
        #expect(object["slots"] == .array([["id": "p2", "state": "ready"], ["id": "p3", "state": "warming"]]))
    }
}
