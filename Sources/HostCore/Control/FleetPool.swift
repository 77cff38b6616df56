/// A fleet's pool of prewarmed throw-away slots (`hostshell fleet --pool K`): what of an app's
/// start can be done before its address is known — a network session of its own with nothing
/// in it, a web view whose web process is already running — kept ready, so an
/// `open --throw-away` takes a slot and only loads its page. This is its rule, pure: which
/// request may take which slot, when a slot is started, and that a slot serves one app once.
/// The glue (ShellKit's `FleetSlots`) builds and ends the slots it names.
public struct FleetPool: Sendable, Equatable {
    /// The pool's size when `--pool` is not given.
    public static let defaultSize = 2
    /// The most slots a pool keeps: each holds a web process.
    public static let maxSize = 8
    /// How long after a take (the latest, in a burst) no slot is started: a slot's start is a
    /// new web process, which would compete for the CPU with the taken app's page loading
    /// (measured on 2 cores: open → first paint 114 ms with the refill at once, 72 ms after 1 s).
    public static let quietAfterTake = 1.0

    /// What the glue does next for the pool.
    public enum Refill: Sendable, Equatable {
        /// Start slot `id` (it is warming now).
        case start(String)
        /// Ask again in this many seconds (an app was taken a moment ago).
        case wait(Double)
        /// Nothing to start: full, a slot warming already, or no room in the fleet.
        case none
    }

    public enum SlotState: String, Sendable, Equatable {
        /// Its web process is starting (its first, empty document loading).
        case warming
        /// Ready to be taken.
        case ready
    }

    public struct Slot: Sendable, Equatable {
        public let id: String
        public var state: SlotState
    }

    /// How many slots it keeps (0: no pool).
    public let size: Int
    /// The slots there are now, oldest first. A slot taken or lost leaves this list for good.
    public private(set) var slots: [Slot] = []
    /// How many slots apps took, and how many were lost before that (their process ended).
    public private(set) var taken = 0
    public private(set) var lost = 0
    private var counter = 0
    /// When the latest slot was taken (monotonic seconds).
    private var lastTake: Double?

    public init(size: Int = FleetPool.defaultSize) {
        self.size = max(0, min(size, Self.maxSize))
    }

    /// Reads `--pool`'s value: a whole number from 0 to `maxSize`.
    public static func size(option value: String?) throws(ControlError) -> Int {
        guard let value, !value.isEmpty else {
            throw ControlError("--pool takes how many prewarmed throw-away slots to keep: a number from 0 (none) to \(maxSize)")
        }
        guard value.allSatisfy({ $0.isASCII && $0.isNumber }), let size = Int(value) else {
            throw ControlError("--pool takes a whole number from 0 (none) to \(maxSize), not \(TerminalText.escaped(value))")
        }
        guard size <= maxSize else {
            throw ControlError("--pool \(size) is more than \(maxSize): each slot holds a web process")
        }
        return size
    }

    /// The slot a request takes, now out of the pool for good, or nil: only a throw-away open
    /// takes one (a profile of its own keeps its data where its profile is), and only a ready
    /// one, the oldest first. The caller builds the app on it and refills (`refill`).
    public mutating func take(throwAway: Bool, now: Double) -> String? {
        guard throwAway, let index = slots.firstIndex(where: { $0.state == .ready }) else { return nil }
        taken += 1
        lastTake = now
        return slots.remove(at: index).id
    }

    /// What to start now: one slot at a time (the glue asks when the main loop is idle), while
    /// the pool is short and the fleet has room for the apps its slots would become, and not
    /// within `quietAfterTake` of a take.
    public mutating func refill(appsOpen: Int, appLimit: Int, now: Double) -> Refill {
        guard slots.count < size, !slots.contains(where: { $0.state == .warming }), appsOpen + slots.count < appLimit else { return .none }
        if let lastTake, now - lastTake < Self.quietAfterTake { return .wait(Self.quietAfterTake - (now - lastTake)) }
        counter += 1
        let id = "p\(counter)"
        slots.append(Slot(id: id, state: .warming))
        return .start(id)
    }

    /// Slot `id`'s web process runs: it may be taken.
    public mutating func warmed(_ id: String) {
        if let index = slots.firstIndex(where: { $0.id == id }) { slots[index].state = .ready }
    }

    /// Slot `id` cannot serve (its web process ended, its start failed): out of the pool; the
    /// glue ends what is left of it and refills.
    public mutating func slotLost(_ id: String) {
        guard let index = slots.firstIndex(where: { $0.id == id }) else { return }
        slots.remove(at: index)
        lost += 1
    }

    /// The ids of every slot, for ending them all (the fleet is ending).
    public mutating func drain() -> [String] {
        defer { slots = [] }
        return slots.map(\.id)
    }

    /// The pool as `list` shows it.
    public var json: JSONValue {
        ["size": .number(Double(size)), "ready": .number(Double(slots.filter { $0.state == .ready }.count)),
         "warming": .number(Double(slots.filter { $0.state == .warming }.count)),
         "taken": .number(Double(taken)), "lost": .number(Double(lost)),
         "slots": .array(slots.map { ["id": .string($0.id), "state": .string($0.state.rawValue)] })]
    }
}
