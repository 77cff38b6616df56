import HostCore

/// How a point of the system map is coloured (§6 System map). Anything else is malformed.
public enum MapTone: String, Sendable, Equatable, CaseIterable {
    case `default`, positive, warning, critical, muted
}

/// One point of the system map (strict): where it is, what it is called, and the action it offers.
public struct MapPoint: Sendable, Equatable {
    public var id: String
    public var title: String
    public var subtitle: String?
    public var latitude: Double
    public var longitude: Double
    /// As sent: nil when Studio named no tone (drawn as `default`).
    public var tone: MapTone?
    public var actionId: String?

    public init(id: String, title: String, subtitle: String? = nil, latitude: Double, longitude: Double,
                tone: MapTone? = nil, actionId: String? = nil) {
        self.id = id; self.title = title; self.subtitle = subtitle
        self.latitude = latitude; self.longitude = longitude; self.tone = tone; self.actionId = actionId
    }

    public var effectiveTone: MapTone { tone ?? .default }

    init(_ p: FieldReader) throws(ContractViolation) {
        try p.requireOnly(["id", "title", "subtitle", "latitude", "longitude", "tone", "actionId"])
        id = try p.identifier("id")
        title = try p.string("title", length: 1...200)
        subtitle = try p.optionalString("subtitle", length: 1...200)
        latitude = try p.number("latitude", range: -90...90)
        longitude = try p.number("longitude", range: -180...180)
        tone = try p.optionalEnum("tone", MapTone.self)
        actionId = try p.optionalIdentifier("actionId")
    }
}

/// `system/map-present` (strict, main page): one map of 1–500 points with unique ids.
public struct MapPresent: Sendable, Equatable {
    public static let maxPoints = 500
    public var mapId: String
    public var title: String
    public var points: [MapPoint]

    public init(mapId: String, title: String, points: [MapPoint]) {
        self.mapId = mapId; self.title = title; self.points = points
    }

    /// The point that offers `actionId`, if any.
    public func point(offering actionId: String) -> MapPoint? { points.first { $0.actionId == actionId } }

    init(_ payload: FieldReader) throws(ContractViolation) {
        try payload.requireOnly(["mapId", "title", "points"])
        mapId = try payload.identifier("mapId")
        title = try payload.string("title", length: 1...200)
        let raw = try payload.array("points", count: 1...Self.maxPoints)
        points = try FieldReader.each(raw, of: "points") { p throws(ContractViolation) in try MapPoint(p) }
        if let repeated = Patterns.firstRepeated(points.map(\.id)) {
            throw ContractViolation("points", "point id \"\(repeated)\" is used more than once")
        }
    }
}

/// `system/map-dismiss` (strict): `{mapId}`.
enum MapDismiss {
    static func mapId(_ payload: FieldReader) throws(ContractViolation) -> String {
        try payload.requireOnly(["mapId"])
        return try payload.identifier("mapId")
    }
}
