/// What the device chrome's status bar shows: the time, the cellular and Wi-Fi bars, the
/// battery. Live values (the local time, a full battery on a charger, full bars) unless
/// `ctl status-bar` overrides some of them, as `xcrun simctl status_bar override` does.
public struct StatusBarValues: Sendable, Equatable {
    /// "HH:MM".
    public var time: String
    /// 0–100.
    public var battery: Int
    public var charging: Bool
    /// 0–4 bars.
    public var cellular: Int
    /// 0–3 bars.
    public var wifi: Int
    public var carrier: String

    public init(time: String, battery: Int = 100, charging: Bool = true, cellular: Int = 4, wifi: Int = 3, carrier: String = "") {
        self.time = time; self.battery = battery; self.charging = charging; self.cellular = cellular; self.wifi = wifi; self.carrier = carrier
    }

    public static let cellularRange = 0...4
    public static let wifiRange = 0...3
    public static let batteryRange = 0...100

    /// The live values at `hour`:`minute` local time (a desktop's battery is not the phone's:
    /// HostShell shows a full one on a charger until overridden).
    public static func live(hour: Int, minute: Int) -> StatusBarValues {
        StatusBarValues(time: clock(hour: hour, minute: minute))
    }

    /// "9:41" as iOS shows it (no leading zero on the hour, 24-hour clock).
    public static func clock(hour: Int, minute: Int) -> String {
        "\(hour):" + (minute < 10 ? "0\(minute)" : "\(minute)")
    }

    public var json: JSONValue {
        ["time": .string(time), "battery": .number(Double(battery)), "charging": .bool(charging),
         "cellular": .number(Double(cellular)), "wifi": .number(Double(wifi)), "carrier": .string(carrier)]
    }
}

/// `ctl status-bar …`'s overrides: each value given replaces the live one until `clear`.
public struct StatusBarOverride: Sendable, Equatable {
    public var time: String?
    public var battery: Int?
    public var charging: Bool?
    public var cellular: Int?
    public var wifi: Int?
    public var carrier: String?

    public init(time: String? = nil, battery: Int? = nil, charging: Bool? = nil, cellular: Int? = nil, wifi: Int? = nil, carrier: String? = nil) {
        self.time = time; self.battery = battery; self.charging = charging; self.cellular = cellular; self.wifi = wifi; self.carrier = carrier
    }

    public var isEmpty: Bool { self == StatusBarOverride() }

    /// `live` with these overrides applied.
    public func applied(to live: StatusBarValues) -> StatusBarValues {
        var values = live
        if let time { values.time = time }
        if let battery { values.battery = battery }
        if let charging { values.charging = charging }
        if let cellular { values.cellular = cellular }
        if let wifi { values.wifi = wifi }
        if let carrier { values.carrier = carrier }
        return values
    }

    /// This override with `other`'s values on top (a second `ctl status-bar` adds to the first).
    public func merged(_ other: StatusBarOverride) -> StatusBarOverride {
        StatusBarOverride(time: other.time ?? time, battery: other.battery ?? battery, charging: other.charging ?? charging,
                          cellular: other.cellular ?? cellular, wifi: other.wifi ?? wifi, carrier: other.carrier ?? carrier)
    }

    /// "HH:MM" or "H:MM" with an hour 0–23 and minutes 00–59, given back as iOS shows it.
    public static func time(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return StatusBarValues.clock(hour: hour, minute: minute)
    }

    /// The override in a control request's members (`time`, `battery`, `charging`, `cellular`,
    /// `wifi`, `carrier`), each checked.
    public static func decode(_ object: JSONObject) throws(ControlError) -> StatusBarOverride {
        var override = StatusBarOverride()
        func number(_ key: String, _ range: ClosedRange<Int>, _ what: String) throws(ControlError) -> Int? {
            guard let raw = object[key] else { return nil }
            guard let value = raw.numberValue, value == value.rounded(), range.contains(Int(value)) else {
                throw ControlError("status-bar \"\(key)\" is \(what): a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return Int(value)
        }
        if let raw = object["time"] {
            guard let time = raw.stringValue.flatMap(Self.time) else { throw ControlError("status-bar \"time\" is HH:MM, e.g. 9:41 or 21:05") }
            override.time = time
        }
        override.battery = try number("battery", StatusBarValues.batteryRange, "the battery level in percent")
        override.cellular = try number("cellular", StatusBarValues.cellularRange, "the cellular bars")
        override.wifi = try number("wifi", StatusBarValues.wifiRange, "the Wi-Fi bars")
        if let raw = object["charging"] {
            guard case .bool(let charging) = raw else { throw ControlError("status-bar \"charging\" is true or false") }
            override.charging = charging
        }
        if let raw = object["carrier"] {
            guard let carrier = raw.stringValue, carrier.count <= 24, !carrier.contains(where: \.isNewline) else {
                throw ControlError("status-bar \"carrier\" is a name of at most 24 characters on one line")
            }
            override.carrier = carrier
        }
        let known: Set<String> = ["command", "id", "time", "battery", "charging", "cellular", "wifi", "carrier", "clear"]
        if let unknown = object.members.first(where: { !known.contains($0.key) }) {
            throw ControlError("status-bar has no \"\(unknown.key)\"; it takes time, battery, charging, cellular, wifi, carrier (or clear)")
        }
        guard !override.isEmpty else {
            throw ControlError("status-bar needs at least one of time, battery, charging, cellular, wifi, carrier, or clear")
        }
        return override
    }

    /// `ctl status-bar`'s words as request members: `clear`, or `--time HH:MM --battery N
    /// --charging|--no-charging --cellular 0-4 --wifi 0-3 --carrier NAME`.
    public static func arguments(_ words: [String]) throws(ControlError) -> JSONObject {
        if words == ["clear"] { return ["clear": true] }
        var object = JSONObject()
        var rest = words[...]
        while let word = rest.popFirst() {
            func value() throws(ControlError) -> String {
                guard let value = rest.popFirst() else { throw ControlError("\(word) takes a value") }
                return value
            }
            func number(_ key: String) throws(ControlError) {
                let text = try value()
                object[key] = Double(text).map(JSONValue.number) ?? .string(text)
            }
            switch word {
            case "--time": object["time"] = .string(try value())
            case "--battery": try number("battery")
            case "--cellular": try number("cellular")
            case "--wifi": try number("wifi")
            case "--carrier": object["carrier"] = .string(try value())
            case "--charging": object["charging"] = true
            case "--no-charging": object["charging"] = false
            default:
                throw ControlError("status-bar takes clear, or --time HH:MM --battery 0-100 --charging|--no-charging --cellular 0-4 --wifi 0-3 --carrier NAME; not \"\(word)\"")
            }
        }
        guard !object.isEmpty else { throw ControlError("status-bar takes clear, or at least one of --time, --battery, --charging, --no-charging, --cellular, --wifi, --carrier") }
        return object
    }
}
