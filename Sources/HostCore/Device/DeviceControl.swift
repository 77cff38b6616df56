/// The simulator's controls every hosted app takes on its control socket, beside the core's
/// other commands (`ControlCommand.device`): the page's locale and time zone, erasing the app's
/// data, trusting a private root certificate for its server, and recording its window —
/// Xcode's `simctl` words for a running app (see `SimctlMapping` for `hostshell device`).
public enum DeviceControl: Sendable, Equatable {
    /// `ctl locale ll-CC`: the page's languages (navigator.language, Intl, Accept-Language).
    case locale(LocaleTag)
    /// `ctl timezone Area/City`: the page's time zone (Intl, Date).
    case timeZone(String)
    /// `ctl erase`: the app shut, its website data, secrets, permissions and controls removed,
    /// and the app back at its start page.
    case erase
    /// `ctl trust-root-cert add FILE`: trust the PEM root(s) in FILE for this app's servers.
    case trustRootCert(path: String)
    /// `ctl trust-root-cert clear`: trust no private root any more.
    case clearRootCerts
    /// `ctl record start FILE`: record the window to FILE (.webm or .mp4).
    case recordStart(path: String)
    /// `ctl record stop`: finish the recording (the file is complete when this answers).
    case recordStop

    /// The commands' names, as `ctl` and requests spell them.
    public static let names = ["locale", "timezone", "erase", "trust-root-cert", "record"]

    /// Their lines in `ctl --help`.
    public static let help: [ControlCommandHelp] = [
        ControlCommandHelp("locale", "LL-CC (e.g. fr-FR)", options: nil),
        ControlCommandHelp("timezone", "AREA/CITY (e.g. Europe/Paris)", options: nil),
        ControlCommandHelp("erase"),
        ControlCommandHelp("trust-root-cert", "add FILE.pem | clear", options: nil),
        ControlCommandHelp("record", "start FILE.webm|FILE.mp4 | stop", options: nil),
    ]

    /// Reads a request (`object` with its `command` among `names`).
    public static func decode(_ name: String, _ object: JSONObject) throws(ControlError) -> DeviceControl {
        let command = AppCommand(name, object)
        switch name {
        case "locale":
            return .locale(try LocaleTag.parse(try command.string("locale")).get())
        case "timezone":
            let zone = try command.string("zone")
            if let problem = TimeZoneRule.shapeProblem(zone) { throw ControlError(problem) }
            return .timeZone(zone)
        case "erase":
            return .erase
        case "trust-root-cert":
            switch object["action"]?.stringValue {
            case "add": return .trustRootCert(path: try absolutePath(command, "trust-root-cert"))
            case "clear": return .clearRootCerts
            default: throw ControlError("trust-root-cert needs \"action\": add (with \"path\", a PEM file) or clear")
            }
        case "record":
            switch object["action"]?.stringValue {
            case "start":
                let path = try absolutePath(command, "record")
                if let problem = ScreenRecording.fileProblem(path) { throw ControlError(problem) }
                return .recordStart(path: path)
            case "stop": return .recordStop
            default: throw ControlError("record needs \"action\": start (with \"path\", a .webm or .mp4 file) or stop")
            }
        default:
            throw ControlError("\(name) is not one of the simulator's controls (\(names.joined(separator: ", ")))")
        }
    }

    private static func absolutePath(_ command: AppCommand, _ name: String) throws(ControlError) -> String {
        let path = try command.string("path")
        guard path.hasPrefix("/") else { throw ControlError("\(name) \"path\" must be absolute: the app's working directory is not yours") }
        return path
    }

    /// `ctl NAME WORDS…` as the request's members.
    public static func arguments(_ words: inout ControlWords) throws(ControlError) -> JSONObject {
        switch words.name {
        case "locale": return ["locale": .string(try words.one("a locale such as fr-FR or en-GB"))]
        case "timezone": return ["zone": .string(try words.one("a time zone such as Europe/Paris (see /usr/share/zoneinfo)"))]
        case "erase":
            try words.none()
            return [:]
        case "trust-root-cert":
            switch words.rest.first {
            case "add" where words.rest.count == 2: return ["action": "add", "path": .string(words.rest[1])]
            case "clear" where words.rest.count == 1: return ["action": "clear"]
            default: throw ControlError("trust-root-cert takes add FILE.pem (a root certificate in PEM) or clear")
            }
        case "record":
            switch words.rest.first {
            case "start" where words.rest.count == 2: return ["action": "start", "path": .string(words.rest[1])]
            case "stop" where words.rest.count == 1: return ["action": "stop"]
            default: throw ControlError("record takes start FILE.webm (or FILE.mp4) or stop")
            }
        default:
            throw ControlError("\(words.name) is not one of the simulator's controls")
        }
    }
}
