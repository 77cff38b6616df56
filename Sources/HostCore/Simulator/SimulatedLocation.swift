/// The device's simulated location (`ctl location set|route|clear`): a fixed point, or a route
/// travelled at a speed and reported once a second as the simulator does, or none — then WebKit
/// asks the desktop's location service (GeoClue) as it always has; without one the page gets
/// POSITION_UNAVAILABLE. The glue feeds WebKit's geolocation manager with its `position`s.
public struct SimulatedLocation: Machine, Sendable, Equatable {
    public enum TimerName: Hashable, Sendable { case step }

    /// One reported position.
    public struct Fix: Sendable, Equatable {
        public var coordinate: Coordinate
        /// Metres (the Geolocation API's `accuracy`).
        public var accuracy: Double
        /// Degrees from true north and metres per second while moving; nil when still.
        public var heading: Double?
        public var speed: Double?

        public init(coordinate: Coordinate, accuracy: Double, heading: Double? = nil, speed: Double? = nil) {
            self.coordinate = coordinate
            self.accuracy = accuracy
            self.heading = heading
            self.speed = speed
        }
    }

    public enum Event: Sendable, Equatable {
        case set(Coordinate, accuracy: Double)
        case route(LocationRoute, accuracy: Double)
        case clear
        case timerFired(TimerName)
    }

    public enum Effect: Sendable, Equatable {
        /// Report this position to WebKit (every page watching or asking gets it).
        case position(Fix)
        /// No location any more: pages watching are told it is unavailable.
        case unavailable
        case timer(TimerCommand<TimerName>)
    }

    /// How often a route reports a position, in seconds (the simulator's rate).
    public static let stepSeconds = 1.0
    /// The accuracy reported when none is given, in metres (simctl reports 5 m).
    public static let defaultAccuracy = 5.0

    public private(set) var fix: Fix?
    public private(set) var route: LocationRoute?
    /// Route steps taken so far.
    public private(set) var steps = 0
    public private(set) var arrived = false
    /// Positions reported since the start.
    public private(set) var updates = 0
    public private(set) var timers = TimerSet<TimerName>()

    public init() {}

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .set(let coordinate, let accuracy):
            let cancel = stopRoute()
            return cancel + [report(Fix(coordinate: coordinate, accuracy: accuracy, heading: nil, speed: nil))]
        case .route(let route, let accuracy):
            let cancel = stopRoute()
            self.route = route
            steps = 0
            arrived = false
            return cancel + [report(routeFix(accuracy: accuracy)), .timer(timers.start(.step, after: Self.stepSeconds))]
        case .clear:
            let cancel = stopRoute()
            guard fix != nil else { return cancel }
            fix = nil
            return cancel + [.unavailable]
        case .timerFired(let name):
            guard timers.fire(name), route != nil, let accuracy = fix?.accuracy else { return [] }
            steps += 1
            let next = report(routeFix(accuracy: accuracy))
            return arrived ? [next] : [next, .timer(timers.start(.step, after: Self.stepSeconds))]
        }
    }

    private mutating func stopRoute() -> [Effect] {
        route = nil
        steps = 0
        arrived = false
        return timers.cancel(.step).map { [.timer($0)] } ?? []
    }

    private mutating func routeFix(accuracy: Double) -> Fix {
        let place = route!.fix(after: Double(steps) * Self.stepSeconds)
        arrived = place.arrived
        return Fix(coordinate: place.coordinate, accuracy: accuracy, heading: place.heading, speed: place.arrived ? 0 : route!.speed)
    }

    private mutating func report(_ fix: Fix) -> Effect {
        self.fix = fix
        updates += 1
        return .position(fix)
    }

    /// `ctl state`'s `location`.
    public var json: JSONValue {
        guard let fix else { return ["mode": "none", "updates": .number(Double(updates))] }
        var object: JSONObject = ["mode": route == nil ? "fixed" : "route",
                                  "latitude": .number(fix.coordinate.latitude), "longitude": .number(fix.coordinate.longitude),
                                  "accuracy": .number(fix.accuracy), "updates": .number(Double(updates))]
        if let heading = fix.heading { object["heading"] = .number(heading) }
        if let speed = fix.speed { object["speed"] = .number(speed) }
        if let route {
            let travelled = route.fix(after: Double(steps) * Self.stepSeconds).travelled
            object["route"] = ["points": .number(Double(route.points.count)), "speed": .number(route.speed),
                               "length": .number(route.length.rounded()), "travelled": .number(travelled.rounded()),
                               "arrived": .bool(arrived)]
        }
        return .object(object)
    }
}
