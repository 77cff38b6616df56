import CGtk
import HostCore

/// A fleet's pool (`hostshell fleet --pool K`): carries out `FleetPool`'s rule with
/// `PrewarmedView`s — starts a slot when the rule names one, one at a time, when the main loop
/// is idle and a moment after the last take (the taken app's page goes first), hands a ready one to a
/// throw-away open, and ends a slot whose web process died and those nobody took.
@MainActor
package final class FleetSlots {
    private var pool: FleetPool
    private var views: [String: PrewarmedView] = [:]
    /// How many apps the fleet holds and may hold: the slots are apps to be.
    private let room: @MainActor () -> (open: Int, limit: Int)
    private var refillQueued = false
    private var stopped = false

    package init(size: Int, room: @escaping @MainActor () -> (open: Int, limit: Int)) {
        pool = FleetPool(size: size)
        self.room = room
        refill()
    }

    /// The pool as `list` shows it.
    package var json: JSONValue { pool.json }

    /// A ready slot for an open (only a throw-away one takes one), out of the pool for good;
    /// nil when none is ready. The pool refills behind it.
    package func take(throwAway: Bool) -> PrewarmedView? {
        guard let id = pool.take(throwAway: throwAway, now: monotonicSeconds()), let view = views.removeValue(forKey: id) else { return nil }
        refill()
        return view
    }

    /// Starts the next slot the rule names once the main loop is idle.
    package func refill() {
        guard !refillQueued, !stopped, pool.size > 0 else { return }
        refillQueued = true
        MainLoop.whenIdle { [weak self] in self?.warmNext() }
    }

    private func warmNext() {
        refillQueued = false
        guard !stopped else { return }
        let (open, limit) = room()
        switch pool.refill(appsOpen: open, appLimit: limit, now: monotonicSeconds()) {
        case .none: return
        case .wait(let seconds):
            refillQueued = true
            MainLoop.after(milliseconds: UInt32(max(1, seconds * 1000))) { [weak self] in
                self?.refillQueued = false
                self?.refill()
            }
        case .start(let id):
            views[id] = PrewarmedView(ready: { [weak self] in
                self?.pool.warmed(id)
                self?.refill()
            }, lost: { [weak self] in
                self?.lose(id)
            })
        }
    }

    private func lose(_ id: String) {
        pool.slotLost(id)
        // Ended outside the signal that told of it.
        let view = views.removeValue(forKey: id)
        MainLoop.whenIdle { view?.discard() }
        refill()
    }

    /// Ends every slot nobody took: the fleet is ending.
    package func stop() {
        stopped = true
        for id in pool.drain() { views.removeValue(forKey: id)?.discard() }
    }
}
