/// A long press, recognized as the phone recognizes one (UIKit's long-press recognizer: held
/// 0.5 s, moved no more than 10 points meanwhile): a finger on a touch screen, or a mouse's
/// primary button held still. The glue reports the raw presses, moves and releases it sees before
/// the page does, and is told when the press became a long one and where it started.
public struct LongPress: Machine, Sendable, Equatable {
    public enum TimerName: Hashable, Sendable { case hold }

    public enum Event: Sendable, Equatable {
        /// A finger or the primary button went down at (x, y).
        case down(x: Double, y: Double)
        /// The finger or pointer moved to (x, y) while down.
        case moved(x: Double, y: Double)
        /// Lifted, or the system took the press (a grab, a cancelled touch).
        case up
        case timerFired(TimerName)
    }

    public enum Effect: Sendable, Equatable {
        case timer(TimerCommand<TimerName>)
        /// The press held long enough, still, at (x, y) where it went down.
        case recognized(x: Double, y: Double)
    }

    /// How long a press must hold, in seconds (UIKit's `minimumPressDuration`).
    public static let holdSeconds = 0.5
    /// How far it may move meanwhile, in points (UIKit's `allowableMovement`).
    public static let allowableMovement = 10.0

    private var start: (x: Double, y: Double)?
    private var timers = TimerSet<TimerName>()

    public init() {}

    public static func == (a: LongPress, b: LongPress) -> Bool {
        a.start?.x == b.start?.x && a.start?.y == b.start?.y && a.timers == b.timers
    }

    /// True between a press and its release, recognition or giving up.
    public var isPressed: Bool { start != nil }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .down(let x, let y):
            start = (x, y)
            return [.timer(timers.start(.hold, after: Self.holdSeconds))]
        case .moved(let x, let y):
            guard let start, (x - start.x) * (x - start.x) + (y - start.y) * (y - start.y) > Self.allowableMovement * Self.allowableMovement
            else { return [] }
            return giveUp()
        case .up:
            return giveUp()
        case .timerFired(let name):
            guard timers.fire(name), let start else { return [] }
            self.start = nil
            return [.recognized(x: start.x, y: start.y)]
        }
    }

    private mutating func giveUp() -> [Effect] {
        start = nil
        return timers.cancel(.hold).map { [.timer($0)] } ?? []
    }
}
