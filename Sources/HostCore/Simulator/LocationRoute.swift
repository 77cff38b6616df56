import Glibc

/// A point on the Earth, in degrees (WGS 84 as the Geolocation API reports it).
public struct Coordinate: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `LAT,LON` (`ctl location set 48.8584,2.2945`), degrees in range; nil otherwise.
    public init?(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let latitude = Double(parts[0].trimmingWhitespace), let longitude = Double(parts[1].trimmingWhitespace),
              Self.valid(latitude: latitude, longitude: longitude) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    public static func valid(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The mean Earth radius (IUGG), in metres: great-circle distances use it.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance to `other`, in metres (haversine).
    public func distance(to other: Coordinate) -> Double {
        let (φ1, φ2) = (latitude.radians, other.latitude.radians)
        let (dφ, dλ) = ((other.latitude - latitude).radians, (other.longitude - longitude).radians)
        let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * Self.earthRadius * atan2(sqrt(h), sqrt(max(0, 1 - h)))
    }

    /// The initial bearing toward `other`, in degrees clockwise from true north (0 ..< 360).
    public func bearing(to other: Coordinate) -> Double {
        let (φ1, φ2) = (latitude.radians, other.latitude.radians)
        let dλ = (other.longitude - longitude).radians
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let degrees = atan2(y, x) * 180 / Double.pi
        return (degrees + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The point `fraction` (0…1) of the way to `other` along the great circle.
    public func interpolated(to other: Coordinate, fraction: Double) -> Coordinate {
        let f = min(1, max(0, fraction))
        let δ = distance(to: other) / Self.earthRadius
        guard δ > 1e-12 else { return self }
        let (φ1, λ1, φ2, λ2) = (latitude.radians, longitude.radians, other.latitude.radians, other.longitude.radians)
        let a = sin((1 - f) * δ) / sin(δ)
        let b = sin(f * δ) / sin(δ)
        let x = a * cos(φ1) * cos(λ1) + b * cos(φ2) * cos(λ2)
        let y = a * cos(φ1) * sin(λ1) + b * cos(φ2) * sin(λ2)
        let z = a * sin(φ1) + b * sin(φ2)
        return Coordinate(latitude: atan2(z, sqrt(x * x + y * y)) * 180 / Double.pi, longitude: atan2(y, x) * 180 / Double.pi)
    }
}

/// Points travelled in order at a constant speed (`ctl location route`, simctl's `location
/// start`): where the device is after some time, along great-circle segments.
public struct LocationRoute: Sendable, Equatable {
    public let points: [Coordinate]
    /// Metres per second, above 0.
    public let speed: Double
    /// Each segment's length, in metres.
    public let segments: [Double]

    /// At least two points and a speed above 0; nil otherwise.
    public init?(points: [Coordinate], speed: Double) {
        guard points.count >= 2, speed.isFinite, speed > 0 else { return nil }
        self.points = points
        self.speed = speed
        segments = zip(points, points.dropFirst()).map { $0.distance(to: $1) }
    }

    /// The whole route's length, in metres.
    public var length: Double { segments.reduce(0, +) }

    /// Where the device is `seconds` after it started, heading toward the next point; at the
    /// end it stays on the last point (`arrived`).
    public func fix(after seconds: Double) -> (coordinate: Coordinate, heading: Double, travelled: Double, arrived: Bool) {
        var left = max(0, seconds) * speed
        let travelled = min(left, length)
        for (index, segment) in segments.enumerated() {
            let (from, to) = (points[index], points[index + 1])
            if left < segment {
                return (from.interpolated(to: to, fraction: segment > 0 ? left / segment : 1), from.bearing(to: to), travelled, false)
            }
            left -= segment
        }
        let last = points.count - 1
        return (points[last], points[last - 1].bearing(to: points[last]), travelled, true)
    }
}

extension Double {
    var radians: Double { self * Double.pi / 180 }
}

extension Substring {
    var trimmingWhitespace: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
