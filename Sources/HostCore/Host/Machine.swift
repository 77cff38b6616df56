/// A host state machine: a value that takes one event at a time and answers with what its owner
/// must do, in order (docs/architecture.md "The machines"). Pure: it reads no clock, touches no
/// display, and keeps its timers in its state (`TimerSet`); the glue only carries out effects.
public protocol Machine {
    /// What can happen to the machine.
    associatedtype Event
    /// What the machine asks its owner to do.
    associatedtype Effect
    /// Applies `event` and returns what must be done, in order.
    mutating func reduce(_ event: Event) -> [Effect]
}

/// The one perform loop: runs a machine for the glue that carries out its effects.
///
/// **Re-entrancy rule.** Performing an effect often causes an event at once (a file opened, a
/// dialog refused, another machine answering). Such an event is never reduced in the middle of
/// the effects being performed: `send` queues it, and it is reduced once the current event's
/// effects have all been performed, in the order the events were sent. The outermost `send`
/// returns when the queue is empty; a nested one returns at once. So every event sees the
/// machine as the events before it left it, and its effects are performed in one unbroken run.
/// Each event's effects go to the `perform` it was sent with, so a caller that collects what its
/// own event produced (a reply, a result) collects nothing of a queued one.
public final class MachineLoop<M: Machine> {
    /// The machine, as the events reduced so far left it.
    public private(set) var machine: M
    /// True while effects are being performed (a `send` now is queued).
    public private(set) var isPerforming = false
    private var queued: [(event: M.Event, perform: (M.Effect) -> Void)] = []

    public init(_ machine: M) { self.machine = machine }

    /// Reduces `event` and hands its effects, in order, to `perform` — or, when called while
    /// effects are being performed, queues it behind them (see the re-entrancy rule); its
    /// effects then go to this call's `perform` once the current ones are done. Returns true
    /// when this call ran the loop (the queue is empty again), false when it queued.
    @discardableResult
    public func send(_ event: M.Event, perform: @escaping (M.Effect) -> Void) -> Bool {
        queued.append((event, perform))
        guard !isPerforming else { return false }
        isPerforming = true
        defer { isPerforming = false }
        while !queued.isEmpty {
            let next = queued.removeFirst()
            for effect in machine.reduce(next.event) { next.perform(effect) }
        }
        return true
    }
}
