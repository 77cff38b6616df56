/// The simulator's controls on `ctl`, for every app (Studio's and Capacitor's alike): privacy
/// by kind, appearance, contrast, text size, location and the pasteboard — `xcrun simctl
/// privacy`, `ui appearance|increase_contrast|content_size`, `location`, `pbcopy`/`pbpaste`.
public enum SimulatorCommand: Sendable, Equatable {
    case privacy(PrivacyChange, kinds: [PrivacyKind])
    case appearance(Appearance)
    case contrast(Bool)
    case textSize(ContentSizeCategory)
    case location(LocationRequest)
    case pasteboard(PasteboardRequest)

    public enum LocationRequest: Sendable, Equatable {
        case set(Coordinate, accuracy: Double)
        case route(LocationRoute, accuracy: Double)
        case clear
    }

    public enum PasteboardRequest: Sendable, Equatable {
        case get
        case set(text: String)
        /// The text of a file (read by the app: `ctl` sends the absolute path).
        case setFile(path: String)
    }

    public static let names = ["privacy", "appearance", "contrast", "text-size", "location", "pasteboard"]

    /// Their lines in `ctl --help`.
    public static let help: [ControlCommandHelp] = [
        ControlCommandHelp("privacy", "grant|revoke|reset KIND… (\(PrivacyKind.allCases.map(\.rawValue).joined(separator: ", ")) or all)"),
        ControlCommandHelp("appearance", "light|dark|auto"),
        ControlCommandHelp("contrast", "on|off"),
        ControlCommandHelp("text-size", "CATEGORY (extra-small … large … accessibility-extra-extra-extra-large)"),
        ControlCommandHelp("location", "set LAT,LON [--accuracy M] | route --speed M/S LAT,LON LAT,LON… | clear", options: nil),
        ControlCommandHelp("pasteboard", "get | set TEXT | set --file PATH", options: nil),
    ]

    /// Longest pasteboard text taken, in bytes (a control line holds at most 1 MiB).
    public static let maxPasteboardBytes = 512 << 10
    /// Most points a route takes.
    public static let maxRoutePoints = 1000

    /// The request `object` (a command named `name`, one of `names`) read into a command.
    public static func decode(_ name: String, _ object: JSONObject) throws(ControlError) -> SimulatorCommand {
        switch name {
        case "privacy":
            guard let change = object["change"]?.stringValue.flatMap(PrivacyChange.init(rawValue:)) else {
                throw ControlError("privacy needs \"change\": grant, revoke or reset")
            }
            let words = object["kinds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            var kinds: [PrivacyKind] = []
            for word in words {
                guard let named = PrivacyKind.named(word) else { throw ControlError(unknownKind(word)) }
                for kind in named where !kinds.contains(kind) { kinds.append(kind) }
            }
            guard !kinds.isEmpty, words.count == object["kinds"]?.arrayValue?.count else {
                throw ControlError("privacy needs \"kinds\": a list of \(kindList) or all")
            }
            return .privacy(change, kinds: kinds)
        case "appearance":
            guard let appearance = object["appearance"]?.stringValue.flatMap(Appearance.init(rawValue:)) else {
                throw ControlError("appearance needs \"appearance\": light, dark or auto (the desktop's)")
            }
            return .appearance(appearance)
        case "contrast":
            switch object["contrast"]?.stringValue {
            case "on": return .contrast(true)
            case "off": return .contrast(false)
            default: throw ControlError("contrast needs \"contrast\": on or off")
            }
        case "text-size":
            guard let category = object["category"]?.stringValue.flatMap(ContentSizeCategory.init(word:)) else {
                throw ControlError("text-size needs \"category\": one of \(ContentSizeCategory.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .textSize(category)
        case "location":
            return .location(try location(object))
        case "pasteboard":
            switch object["action"]?.stringValue {
            case "get": return .pasteboard(.get)
            case "set":
                if let path = object["path"]?.stringValue {
                    guard path.hasPrefix("/") else { throw ControlError("pasteboard \"path\" must be absolute: the app's working directory is not yours") }
                    return .pasteboard(.setFile(path: path))
                }
                guard let text = object["text"]?.stringValue else { throw ControlError("pasteboard set needs \"text\" (a string) or \"path\" (a file of text)") }
                guard text.utf8.count <= maxPasteboardBytes else { throw ControlError("pasteboard text is over \(maxPasteboardBytes >> 10) KiB") }
                return .pasteboard(.set(text: text))
            default: throw ControlError("pasteboard needs \"action\": get or set")
            }
        default:
            throw ControlError("\(name) is not one of the simulator's commands")
        }
    }

    private static var kindList: String { PrivacyKind.allCases.map(\.rawValue).joined(separator: ", ") }
    private static func unknownKind(_ word: String) -> String {
        let near = CommandLineRules.nearest(to: word, among: PrivacyKind.allCases.map(\.rawValue) + ["all"]).map { " (did you mean \($0)?)" } ?? ""
        return "privacy knows no kind \"\(TerminalText.escaped(word))\"\(near): use \(kindList) or all"
    }

    private static func accuracy(_ object: JSONObject) throws(ControlError) -> Double {
        guard let raw = object["accuracy"] else { return SimulatedLocation.defaultAccuracy }
        guard let metres = raw.numberValue, metres.isFinite, metres >= 0 else { throw ControlError("location \"accuracy\" is a number of metres, 0 or more") }
        return metres
    }

    private static func coordinate(_ value: JSONValue?) -> Coordinate? {
        guard let pair = value?.arrayValue, pair.count == 2, let latitude = pair[0].numberValue, let longitude = pair[1].numberValue,
              Coordinate.valid(latitude: latitude, longitude: longitude) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static func location(_ object: JSONObject) throws(ControlError) -> LocationRequest {
        switch object["action"]?.stringValue {
        case "clear": return .clear
        case "set":
            guard let point = coordinate(object["point"]) else {
                throw ControlError("location set needs \"point\": [latitude, longitude] in degrees (-90…90, -180…180)")
            }
            return .set(point, accuracy: try accuracy(object))
        case "route":
            guard let raw = object["points"]?.arrayValue, raw.count >= 2, raw.count <= maxRoutePoints else {
                throw ControlError("location route needs \"points\": 2 to \(maxRoutePoints) [latitude, longitude] pairs")
            }
            var points: [Coordinate] = []
            for value in raw {
                guard let point = coordinate(value) else { throw ControlError("location route: each point is [latitude, longitude] in degrees (-90…90, -180…180)") }
                points.append(point)
            }
            guard let speed = object["speed"]?.numberValue, let route = LocationRoute(points: points, speed: speed) else {
                throw ControlError("location route needs \"speed\": metres per second, above 0")
            }
            return .route(route, accuracy: try accuracy(object))
        default: throw ControlError("location needs \"action\": set, route or clear")
        }
    }

    /// `ctl NAME WORDS…` as the request's members.
    public static func arguments(_ words: inout ControlWords) throws(ControlError) -> JSONObject {
        var object = JSONObject()
        switch words.name {
        case "privacy":
            guard let change = words.rest.first, PrivacyChange(rawValue: change) != nil, words.rest.count >= 2 else {
                throw ControlError("privacy takes grant, revoke or reset and one or more kinds: \(kindList), or all")
            }
            for word in words.rest.dropFirst() where PrivacyKind.named(word) == nil { throw ControlError(unknownKind(word)) }
            object["change"] = .string(change)
            object["kinds"] = .array(words.rest.dropFirst().map { .string($0) })
        case "appearance": object["appearance"] = .string(try words.one("light, dark or auto"))
        case "contrast": object["contrast"] = .string(try words.one("on or off"))
        case "text-size": object["category"] = .string(try words.one("a content-size category, e.g. large (the default) or accessibility-medium"))
        case "pasteboard":
            switch words.rest.first {
            case "get":
                guard words.rest.count == 1 else { throw ControlError("pasteboard get takes no more words") }
                object["action"] = "get"
            case "set":
                object["action"] = "set"
                words.rest.removeFirst()
                if words.rest.first == "--file" {
                    guard words.rest.count == 2 else { throw ControlError("pasteboard set --file takes one PATH") }
                    object["path"] = .string(words.rest[1])
                } else {
                    guard words.rest.count == 1 else { throw ControlError("pasteboard set takes one TEXT (quote it) or --file PATH") }
                    object["text"] = .string(words.rest[0])
                }
            default: throw ControlError("pasteboard takes get, set TEXT or set --file PATH")
            }
        case "location":
            guard let action = words.rest.first else { throw ControlError("location takes set LAT,LON, route --speed M/S LAT,LON LAT,LON… or clear") }
            words.rest.removeFirst()
            object["action"] = .string(action)
            if let accuracy = try words.take("--accuracy", "a number of metres") {
                guard let metres = Double(accuracy) else { throw ControlError("--accuracy takes a number of metres") }
                object["accuracy"] = .number(metres)
            }
            switch action {
            case "clear": try words.none()
            case "set":
                guard words.rest.count == 1, let point = Coordinate(text: words.rest[0]) else {
                    throw ControlError("location set takes one LAT,LON in degrees, e.g. 48.8584,2.2945")
                }
                object["point"] = [.number(point.latitude), .number(point.longitude)]
            case "route":
                guard let speedWord = try words.take("--speed", "metres per second"), let speed = Double(speedWord), speed > 0 else {
                    throw ControlError("location route needs --speed M/S (metres per second, above 0)")
                }
                object["speed"] = .number(speed)
                var points: [JSONValue] = []
                for word in words.rest {
                    guard let point = Coordinate(text: word) else { throw ControlError("location route: \"\(TerminalText.escaped(word))\" is not LAT,LON in degrees") }
                    points.append([.number(point.latitude), .number(point.longitude)])
                }
                guard points.count >= 2 else { throw ControlError("location route takes two or more LAT,LON points") }
                object["points"] = .array(points)
            default: throw ControlError("location takes set, route or clear, not \"\(TerminalText.escaped(action))\"")
            }
        default: throw ControlError("\(words.name) is not one of the simulator's commands")
        }
        return object
    }
}
