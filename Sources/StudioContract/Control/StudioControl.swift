import HostCore

/// Studio's own control commands: the native side of Studio a test drives as a person would —
/// tabs, servers, sign-in, uploads, alerts, share, QR scans, menus, sheets.
public enum StudioControlCommand: Sendable, Equatable {
    /// A native tap on a catalog destination.
    case tap(destination: String)
    /// Show another saved server.
    case switchServer(id: String)
    /// Open the authentication window; cancel it (as closing it would); sign out.
    case signIn, cancelSignIn, signOut
    /// Ask for `times` credential refreshes at once (tests: only one request may go out).
    case refreshCredential(times: Int)
    /// Answer the next (or the open) file request with these files; cancel the uploads running.
    case pickFiles(paths: [String])
    case cancelUploads
    /// Press a button of the alert showing; choose in the share panel.
    case alert(actionId: String)
    case share(choice: String)
    /// Answer the open QR scan: a value, a picture to decode, or cancel.
    case scan(QRAnswer)
    /// Open a menu as its trigger (or, for the armed menu, a context click) would; choose in the
    /// open menu, or close it.
    case menuOpen(menuId: String)
    /// Click the native button laid over the trigger `menuId` (§6), and choose `actionId` in the
    /// menu it opens when one is given.
    case trigger(menuId: String, actionId: String?)
    case menu(actionId: String)
    case menuClose
    /// Press a header action of the shown sheet; dismiss it (Close); press Retry on a failed one.
    case sheetAction(actionId: String)
    case sheetDismiss
    /// Choose the action of a point of the map shown (as Enter on its row); press the map's Done.
    case mapChoose(pointId: String)
    case mapDone
    case sheetRetry
    /// The saved-servers store changed (`server add`/`remove` say so over the app's instance
    /// socket): read it again and follow it.
    case serversChanged

    public enum QRAnswer: Sendable, Equatable {
        case value(String)
        case image(path: String)
        case cancel
    }
}

/// Studio's vocabulary on the control socket (`hostshell open --control`).
public enum StudioControl: ControlVocabulary {
    public static let title = "Studio (hostshell open, kiosk)"
    public static let commands: [ControlCommandHelp] = [
        ControlCommandHelp("tap", "DEST"), ControlCommandHelp("switch-server", "ID"),
        ControlCommandHelp("sign-in"), ControlCommandHelp("sign-in-cancel"), ControlCommandHelp("sign-out"),
        ControlCommandHelp("refresh-credential", "[TIMES]"),
        ControlCommandHelp("pick-files", "FILE…", options: nil), ControlCommandHelp("upload-cancel"),
        ControlCommandHelp("alert", "ACTION"), ControlCommandHelp("share", "copy-link|open|copy-text|email|cancel"),
        ControlCommandHelp("scan", "VALUE | --image FILE | --cancel", options: nil),
        ControlCommandHelp("menu-open", "MENU"), ControlCommandHelp("menu", "ACTION"), ControlCommandHelp("menu-close"),
        ControlCommandHelp("trigger", "MENU [ACTION]"),
        ControlCommandHelp("sheet-action", "ACTION"), ControlCommandHelp("sheet-dismiss"), ControlCommandHelp("sheet-retry"),
        ControlCommandHelp("servers-changed"), ControlCommandHelp("map", "choose POINT | done"),
    ]

    public static func decode(_ command: AppCommand) throws(ControlError) -> StudioControlCommand {
        let object = command.arguments
        switch command.name {
        case "tap": return .tap(destination: try command.string("destination"))
        case "switch-server": return .switchServer(id: try command.string("server"))
        case "sign-in": return .signIn
        case "sign-in-cancel": return .cancelSignIn
        case "sign-out": return .signOut
        case "upload-cancel": return .cancelUploads
        case "alert": return .alert(actionId: try command.string("action"))
        case "share": return .share(choice: try command.string("choice"))
        case "menu-open": return .menuOpen(menuId: try command.string("menu"))
        case "menu": return .menu(actionId: try command.string("action"))
        case "menu-close": return .menuClose
        case "trigger":
            let action = command.arguments["action"]
            guard action == nil || action?.stringValue != nil else { throw ControlError("trigger \"action\" must be a string") }
            return .trigger(menuId: try command.string("menu"), actionId: action?.stringValue)
        case "sheet-action": return .sheetAction(actionId: try command.string("action"))
        case "sheet-dismiss": return .sheetDismiss
        case "sheet-retry": return .sheetRetry
        case "servers-changed": return .serversChanged
        case "map":
            if object["done"]?.boolValue == true { return .mapDone }
            guard let point = object["choose"]?.stringValue, !point.isEmpty else {
                throw ControlError("map needs \"choose\": a point id, or \"done\": true")
            }
            return .mapChoose(pointId: point)
        case "scan":
            if object["cancel"]?.boolValue == true { return .scan(.cancel) }
            if let image = object["image"]?.stringValue {
                guard image.hasPrefix("/") else { throw ControlError("scan \"image\" must be an absolute path") }
                return .scan(.image(path: image))
            }
            return .scan(.value(try command.string("value")))
        case "pick-files":
            guard let paths = object["paths"]?.arrayValue, paths.count <= 1000 else {
                throw ControlError("pick-files needs \"paths\": an array of absolute file paths (an empty array cancels)")
            }
            var list: [String] = []
            for path in paths {
                guard let text = path.stringValue, text.hasPrefix("/") else { throw ControlError("pick-files paths must be absolute") }
                list.append(text)
            }
            return .pickFiles(paths: list)
        case "refresh-credential":
            guard let times = (object["times"] ?? 1).integerValue, (1...10).contains(times) else {
                throw ControlError("refresh-credential \"times\" is a whole number from 1 to 10")
            }
            return .refreshCredential(times: times)
        default:
            throw ControlError("\(command.name) is not one of Studio's commands")
        }
    }

    /// `pick-files` paths and `scan --image FILE`.
    public static var pathMembers: Set<String> { ["paths", "image"] }

    public static func arguments(_ name: String, words: [String]) throws(ControlError) -> JSONObject {
        let words = ControlWords(name, words)
        switch name {
        case "pick-files": return ["paths": .array(words.rest.map(JSONValue.string))]
        case "alert": return ["action": .string(try words.one("the id of the button to press"))]
        case "share": return ["choice": .string(try words.one("copy-link, open, copy-text, email or cancel"))]
        case "menu-open": return ["menu": .string(try words.one("the menu id"))]
        case "menu": return ["action": .string(try words.one("the id of the item to choose"))]
        case "trigger":
            guard (1...2).contains(words.rest.count) else { throw ControlError("trigger takes the menu id and, optionally, the id of the item to choose") }
            var arguments: JSONObject = ["menu": .string(words.rest[0])]
            if words.rest.count == 2 { arguments["action"] = .string(words.rest[1]) }
            return arguments
        case "sheet-action": return ["action": .string(try words.one("the header action's id"))]
        case "tap": return ["destination": .string(try words.one("the destination id"))]
        case "switch-server": return ["server": .string(try words.one("the saved server's id"))]
        case "scan":
            if words.rest == ["--cancel"] { return ["cancel": true] }
            if words.rest.count == 2, words.rest[0] == "--image" { return ["image": .string(words.rest[1])] }
            return ["value": .string(try words.one("the scanned text, --image FILE, or --cancel"))]
        case "map":
            switch words.rest.first {
            case "done"?:
                guard words.rest.count == 1 else { throw ControlError("map done takes nothing more") }
                return ["done": true]
            case "choose"?:
                guard words.rest.count == 2 else { throw ControlError("map choose needs one point id") }
                return ["choose": .string(words.rest[1])]
            default:
                throw ControlError("map needs choose POINT or done")
            }
        case "refresh-credential":
            return words.rest.first.map { ["times": .number(Double($0) ?? 0)] } ?? [:]
        default:
            try words.none()
            return [:]
        }
    }
}
