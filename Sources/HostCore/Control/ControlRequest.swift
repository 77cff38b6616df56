/// The control interface (`open --control SOCKET`): one JSON object per line in, one per line
/// out. A request is `{"id"?: any, "command": NAME, …arguments}`; the answer echoes `id` and is
/// `{"ok": true, "result": …}` or `{"ok": false, "error": "what went wrong and what to do"}`.
/// Everything here is pure: the app carries the commands out.
public enum ControlCommand: Sendable, Equatable {
    /// The native UI state.
    case state
    /// A native tap on a catalog destination.
    case tap(destination: String)
    /// The native back button.
    case back
    /// Show another saved server.
    case switchServer(id: String)
    /// Reload the page shown.
    case reload
    /// Answer when every `path = value` of `until` holds in the state, or fail after `timeout`.
    case wait(until: StatePredicate, timeout: Double)
    /// A PNG of the window or of the web view alone, written to `path`.
    case snapshot(path: String, target: SnapshotTarget)
    /// Open the authentication window; cancel it (as closing it would); sign out.
    case signIn, cancelSignIn, signOut
    /// Press a button of the alert showing; choose in the share panel.
    case alert(actionId: String)
    case share(choice: String)
    /// Open a menu as its trigger (or, for the armed menu, a context click) would; choose in the
    /// open menu, or close it.
    case menuOpen(menuId: String)
    case menu(actionId: String)
    case menuClose
    /// Press a header action of the shown sheet; dismiss it (Close).
    case sheetAction(actionId: String)
    case sheetDismiss
    /// Stream events on this connection from now on: `bridge` messages and `state` changes
    /// (both when `kinds` is empty). The answer comes first; event lines follow until the client
    /// hangs up, and the connection takes no more requests.
    case events(kinds: [String])
    /// Resize the window (unmaximized, not full screen) to `width` × `height` pixels, as a
    /// person dragging its edge would: the chrome and a shown sheet follow.
    case resize(width: Int, height: Int)
    /// Act as if the system had reported memory pressure (machines without a memory monitor).
    case memoryPressure
    /// Open a deep link as the desktop would (`tilecast-ios://open?…`).
    case openURL(String)
    /// Answer the open QR scan: a value, a picture to decode, or cancel.
    case scan(QRAnswer)

    public enum QRAnswer: Sendable, Equatable {
        case value(String)
        case image(path: String)
        case cancel
    }
    /// Answer the next (or the open) file request with these files; cancel the uploads running.
    case pickFiles(paths: [String])
    case cancelUploads
    /// Ask for `times` credential refreshes at once (tests: only one request may go out).
    case refreshCredential(times: Int)
    /// Run a script in the page world and answer with its JSON value (sessions started with
    /// `--allow-eval` only: tests, never production).
    /// `inSheet` runs it in the shown sheet's page instead of main's.
    case eval(script: String, inSheet: Bool = false)
    /// Act as the system would on the app's window (Capacitor apps' `App` plugin): lose or get
    /// the focus, go to the background (hidden, minimised) or come back to the foreground.
    case lifecycle(LifecycleChange)
    /// Answer the permission prompt that is open, or the next one asked (headless runs).
    case permission(grant: Bool)
    /// Give the app's push registration a new device token (as a reinstall or a restore would).
    case rotatePushToken
    /// A push for a Capacitor app, with its whole APNs payload: `deliver` (it arrives) or `tap`
    /// (a person opens its notification) — the push side's entry points, for tests and pages.
    case push(tap: Bool, payload: JSONObject)
    /// The saved-servers store changed (`server add`/`remove` say so over the app's instance
    /// socket): read it again and follow it — a new server can be switched to, a removed one is
    /// closed and its website data deleted before the answer.
    case serversChanged
    /// Trigger one of the app's actions (`AppAction`: new-window, close-window, quit, reload,
    /// shortcuts, about, …) as its menu item or key would.
    case action(name: String, window: Int? = nil)
    /// Open a finished download (`open`) or show it in its folder (`show`).
    case download(id: Int, choice: String)
    /// The emulated Hermes device's own steps (`device hermes`): `action` with its argument, if any
    /// (probe, later, clock SECONDS, open SESSION, close, tap ID, test, ready, sign-in [URL]).
    case hermes(action: String, value: String?)
    /// Act on one of a Capacitor app's shown notifications (by its id in `ctl state`'s
    /// `capacitor.notifications`) as a person would: `activate` (open it) or `dismiss`.
    case notification(activate: Bool, id: String)

    public enum LifecycleChange: String, Sendable, Equatable, CaseIterable {
        case background, foreground, blur, focus

        /// A change by its name, or `hide`/`show` for background/foreground (as a window is).
        public init?(word: String) {
            switch word {
            case "hide": self = .background
            case "show": self = .foreground
            default: self.init(rawValue: word)
            }
        }
    }

    public enum SnapshotTarget: String, Sendable, Equatable {
        case window, page
    }

    /// True for `events`, which turns its connection into a stream.
    public var isEvents: Bool { if case .events = self { return true } else { return false } }

    public static let names = ["state", "tap", "back", "switch-server", "reload", "wait", "snapshot", "eval",
                               "sign-in", "sign-in-cancel", "sign-out", "refresh-credential", "pick-files", "upload-cancel", "alert", "share", "scan", "open-url", "menu-open", "menu", "menu-close", "sheet-action", "sheet-dismiss", "resize", "memory-pressure", "events",
                               "lifecycle", "permission", "push-token", "push", "servers-changed", "action", "download", "hermes", "notification"]
    /// What `events` can stream.
    public static let eventKinds = ["bridge", "state"]
}

/// A failed control request: one line saying what was wrong and what to do.
public struct ControlError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

public struct ControlRequest: Sendable, Equatable {
    /// Longest line accepted; a longer one is refused and the connection closed.
    public static let maxLineBytes = 1 << 20
    public static let maxWaitSeconds = 600.0
    /// A `wait` without `timeout` gives up after this many seconds.
    public static let defaultWaitSeconds = 10.0
    /// How much longer than the request itself may take a client waits for its answer, for an
    /// app that is busy (a page loading, a sheet opening). A request the app answers at once
    /// (`open-url`, the start of `events`) is given this alone.
    public static let answerMargin = 20.0
    /// The window sizes `resize` accepts, in pixels per side.
    public static let minWindowSide = 200
    public static let maxWindowSide = 8192

    public var id: JSONValue?
    public var command: ControlCommand

    public init(id: JSONValue? = nil, command: ControlCommand) {
        self.id = id; self.command = command
    }

    /// How long `hostshell ctl` waits for this request's answer: a `wait` may take its timeout,
    /// any other request as long as a `wait` with the default timeout; `answerMargin` on top.
    public var answerTimeout: Double {
        if case .wait(_, let timeout) = command { return timeout + Self.answerMargin }
        return Self.defaultWaitSeconds + Self.answerMargin
    }

    /// `answerTimeout` of the request on `line`; a line the app will refuse is answered like
    /// any request that is not a `wait`.
    public static func answerTimeout(forLine line: String) -> Double {
        (try? decode(line).get())?.answerTimeout ?? ControlRequest(command: .state).answerTimeout
    }

    /// Decodes one line. On failure the error carries the request's id when it had a readable one.
    public static func decode(_ line: String) -> Result<ControlRequest, ControlFailure> {
        let value: JSONValue
        do { value = try JSONParser.parse(line, maxDepth: 32) } catch {
            return .failure(ControlFailure(id: nil, error: ControlError("not JSON (\(error)); send one JSON object per line")))
        }
        guard let object = value.objectValue else {
            return .failure(ControlFailure(id: nil, error: ControlError("a request must be a JSON object, not \(value.kindDescription)")))
        }
        let id = object["id"]
        do throws(ControlError) {
            return .success(ControlRequest(id: id, command: try command(object)))
        } catch {
            return .failure(ControlFailure(id: id, error: error))
        }
    }

    private static func command(_ object: JSONObject) throws(ControlError) -> ControlCommand {
        guard let name = object["command"]?.stringValue else {
            throw ControlError("\"command\" is required: one of \(ControlCommand.names.joined(separator: ", "))")
        }
        func string(_ key: String) throws(ControlError) -> String {
            guard let value = object[key]?.stringValue, !value.isEmpty else {
                throw ControlError("\(name) needs \"\(key)\" (a non-empty string)")
            }
            return value
        }
        switch name {
        case "state": return .state
        case "back": return .back
        case "reload": return .reload
        case "sign-in": return .signIn
        case "sign-in-cancel": return .cancelSignIn
        case "sign-out": return .signOut
        case "upload-cancel": return .cancelUploads
        case "alert": return .alert(actionId: try string("action"))
        case "share": return .share(choice: try string("choice"))
        case "open-url": return .openURL(try string("url"))
        case "menu-open": return .menuOpen(menuId: try string("menu"))
        case "menu": return .menu(actionId: try string("action"))
        case "menu-close": return .menuClose
        case "sheet-action": return .sheetAction(actionId: try string("action"))
        case "sheet-dismiss": return .sheetDismiss
        case "memory-pressure": return .memoryPressure
        case "servers-changed": return .serversChanged
        case "action":
            guard let raw = object["window"] else { return .action(name: try string("name")) }
            guard let window = raw.integerValue, window >= 1 else { throw ControlError("action \"window\" is a window's id (a whole number from 1), as state's windows list it") }
            return .action(name: try string("name"), window: window)
        case "download":
            guard let id = object["id"]?.integerValue, id >= 1 else { throw ControlError("download needs \"id\": a download's id, as state's downloads list it") }
            guard let choice = object["choice"]?.stringValue, choice == "open" || choice == "show" else {
                throw ControlError("download needs \"choice\": open or show")
            }
            return .download(id: id, choice: choice)
        case "lifecycle":
            guard let change = object["change"]?.stringValue.flatMap(ControlCommand.LifecycleChange.init(word:)) else {
                throw ControlError("lifecycle needs \"change\": one of \(ControlCommand.LifecycleChange.allCases.map(\.rawValue).joined(separator: ", ")) (hide and show are background and foreground)")
            }
            return .lifecycle(change)
        case "permission":
            switch object["answer"]?.stringValue {
            case "grant": return .permission(grant: true)
            case "deny": return .permission(grant: false)
            default: throw ControlError("permission needs \"answer\": grant or deny")
            }
        case "push-token":
            guard object["action"]?.stringValue == "rotate" else { throw ControlError("push-token needs \"action\": rotate") }
            return .rotatePushToken
        case "notification":
            let activate: Bool
            switch object["action"]?.stringValue {
            case "activate": activate = true
            case "dismiss": activate = false
            default: throw ControlError("notification needs \"action\": activate or dismiss")
            }
            guard let id = object["id"]?.stringValue, !id.isEmpty else {
                throw ControlError("notification needs \"id\": a shown notification's id (ctl state: capacitor.notifications.shown)")
            }
            return .notification(activate: activate, id: id)
        case "push":
            let tap: Bool
            switch object["action"]?.stringValue {
            case "deliver": tap = false
            case "tap": tap = true
            default: throw ControlError("push needs \"action\": deliver or tap")
            }
            // The payload as an object, or as its JSON text (what `ctl push deliver '{…}'` sends).
            let payload = object["payload"]?.objectValue
                ?? object["payload"]?.stringValue.flatMap { (try? JSONParser.parse($0, maxDepth: 32))?.objectValue }
            guard let payload else { throw ControlError("push needs \"payload\": the push's JSON object, e.g. {\"aps\":{\"alert\":\"Hi\"}}") }
            return .push(tap: tap, payload: payload)
        case "events":
            guard let raw = object["kinds"] else { return .events(kinds: []) }
            guard let kinds = raw.arrayValue?.compactMap(\.stringValue), kinds.count == raw.arrayValue?.count,
                  kinds.allSatisfy(ControlCommand.eventKinds.contains) else {
                throw ControlError("events \"kinds\" is a list of \(ControlCommand.eventKinds.joined(separator: ", "))")
            }
            return .events(kinds: kinds)
        case "scan":
            if object["cancel"]?.boolValue == true { return .scan(.cancel) }
            if let image = object["image"]?.stringValue {
                guard image.hasPrefix("/") else { throw ControlError("scan \"image\" must be an absolute path") }
                return .scan(.image(path: image))
            }
            return .scan(.value(try string("value")))
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
        case "tap": return .tap(destination: try string("destination"))
        case "hermes": return .hermes(action: try string("action"), value: object["value"]?.stringValue)
        case "resize":
            func side(_ key: String) throws(ControlError) -> Int {
                guard let value = object[key]?.numberValue, value == value.rounded(), value >= Double(ControlRequest.minWindowSide),
                      value <= Double(ControlRequest.maxWindowSide) else {
                    throw ControlError("resize \"\(key)\" is a whole number of pixels from \(ControlRequest.minWindowSide) to \(ControlRequest.maxWindowSide)")
                }
                return Int(value)
            }
            return .resize(width: try side("width"), height: try side("height"))
        case "switch-server": return .switchServer(id: try string("server"))
        case "eval":
            let target = object["page"]?.stringValue ?? "main"
            guard target == "main" || target == "sheet" else { throw ControlError("eval \"page\" is main or sheet") }
            return .eval(script: try string("script"), inSheet: target == "sheet")
        case "snapshot":
            let target: ControlCommand.SnapshotTarget
            if let raw = object["target"] {
                guard let parsed = raw.stringValue.flatMap(ControlCommand.SnapshotTarget.init(rawValue:)) else {
                    throw ControlError("snapshot \"target\" is window or page")
                }
                target = parsed
            } else {
                target = .window
            }
            let path = try string("path")
            guard path.hasPrefix("/") else { throw ControlError("snapshot \"path\" must be absolute: the app's working directory is not yours") }
            return .snapshot(path: path, target: target)
        case "wait":
            guard let until = object["until"]?.objectValue, !until.isEmpty else {
                throw ControlError("wait needs \"until\": an object of state paths and the values they must have, e.g. {\"screen\": \"page\"}")
            }
            var timeout = ControlRequest.defaultWaitSeconds
            if let raw = object["timeout"] {
                guard let seconds = raw.numberValue, seconds > 0, seconds <= ControlRequest.maxWaitSeconds else {
                    throw ControlError("wait \"timeout\" is a number of seconds above 0 and at most \(Int(ControlRequest.maxWaitSeconds))")
                }
                timeout = seconds
            }
            return .wait(until: StatePredicate(until), timeout: timeout)
        default:
            throw ControlError("unknown command \"\(name)\"; commands: \(ControlCommand.names.joined(separator: ", "))")
        }
    }
}

extension ControlRequest {
    /// The options each of `ctl`'s words takes, where the words after it are not free text (a
    /// script, a scanned value, file names): any other option there is refused by name.
    static let wordOptions: [String: [String]] = [
        "wait": ["--timeout"], "snapshot": ["--page"], "events": ["--kind"], "state": [], "back": [], "reload": [],
        "tap": [], "switch-server": [], "menu-open": [], "menu": [], "alert": [], "share": [], "sheet-action": [],
        "action": ["--window"], "download": [],
    ]

    /// `hostshell ctl`'s words as a request line: `state`, `tap DEST`, `back`, `switch-server ID`,
    /// `reload`, `wait PATH=VALUE… [--timeout S]` (VALUE is JSON when it parses as JSON, else a
    /// string), `snapshot PATH [--page]`, `eval [--sheet] SCRIPT`, or a whole JSON request as one word.
    public static func line(fromArguments arguments: [String]) throws(ControlError) -> String {
        guard let name = arguments.first else { throw ControlError("name a command: \(ControlCommand.names.joined(separator: ", "))") }
        if name.hasPrefix("{") { return name }
        var rest = Array(arguments.dropFirst())
        if let known = wordOptions[name], let unknown = rest.first(where: { CommandLineRules.looksLikeOption($0) && !known.contains($0) }) {
            throw ControlError(CommandLineRules.unknownOptionMessage(unknown, command: "ctl \(name)", known: known, help: "hostshell ctl --help"))
        }
        var object: JSONObject = ["command": .string(name)]
        func one(_ key: String, _ what: String) throws(ControlError) {
            guard rest.count == 1 else { throw ControlError("\(name) takes one argument: \(what)") }
            object[key] = .string(rest[0])
        }
        switch name {
        case "pick-files":
            object["paths"] = .array(rest.map(JSONValue.string))
        case "alert": try one("action", "the id of the button to press")
        case "share": try one("choice", "copy-link, open, copy-text, email or cancel")
        case "open-url": try one("url", "the tilecast-ios:// link")
        case "menu-open": try one("menu", "the menu id")
        case "menu": try one("action", "the id of the item to choose")
        case "lifecycle": try one("change", "background (hide), foreground (show), blur or focus")
        case "action":
            if let index = rest.firstIndex(of: "--window") {
                guard index + 1 < rest.count, let window = Int(rest[index + 1]) else { throw ControlError("--window takes a window's id") }
                object["window"] = .number(Double(window))
                rest.removeSubrange(index...index + 1)
            }
            try one("name", "the action: \(AppAction.names.joined(separator: ", "))")
        case "download":
            guard rest.count == 2, let id = Int(rest[0]) else { throw ControlError("download takes ID open|show") }
            object["id"] = .number(Double(id))
            object["choice"] = .string(rest[1])
        case "permission": try one("answer", "grant or deny")
        case "push-token": try one("action", "rotate")
        case "notification":
            guard rest.count == 2 else { throw ControlError("notification takes two arguments: activate or dismiss, and the notification's id") }
            object["action"] = .string(rest[0])
            object["id"] = .string(rest[1])
        case "push":
            guard rest.count == 2 else { throw ControlError("push takes two arguments: deliver or tap, and the payload's JSON") }
            object["action"] = .string(rest[0])
            object["payload"] = .string(rest[1])
        case "events":
            var kinds: [JSONValue] = []
            while let flag = rest.first {
                guard flag == "--kind", rest.count >= 2 else { break }
                kinds.append(.string(rest[1]))
                rest.removeFirst(2)
            }
            guard rest.isEmpty else { throw ControlError("events takes --kind bridge|state (repeatable), --count N and --timeout S") }
            if !kinds.isEmpty { object["kinds"] = .array(kinds) }
        case "menu-close", "sheet-dismiss", "memory-pressure", "servers-changed":
            guard rest.isEmpty else { throw ControlError("\(name) takes no arguments") }
        case "sheet-action": try one("action", "the header action's id")
        case "scan":
            if rest == ["--cancel"] { object["cancel"] = true }
            else if rest.count == 2, rest[0] == "--image" { object["image"] = .string(rest[1]) }
            else { try one("value", "the scanned text, --image FILE, or --cancel") }
        case "resize":
            guard rest.count == 2 else { throw ControlError("resize takes two arguments: WIDTH HEIGHT in pixels") }
            // Not numbers are passed on as text, for the request's own check to name.
            object["width"] = Double(rest[0]).map(JSONValue.number) ?? .string(rest[0])
            object["height"] = Double(rest[1]).map(JSONValue.number) ?? .string(rest[1])
        case "upload-cancel":
            guard rest.isEmpty else { throw ControlError("upload-cancel takes no arguments") }
        case "refresh-credential":
            if let times = rest.first { object["times"] = .number(Double(times) ?? 0) }
        case "state", "back", "reload", "sign-in", "sign-in-cancel", "sign-out":
            guard rest.isEmpty else { throw ControlError("\(name) takes no arguments") }
        case "tap": try one("destination", "the destination id")
        case "hermes":
            guard (1...2).contains(rest.count) else { throw ControlError("hermes takes a step and its argument, if any: probe, later, clock SECONDS, open SESSION, close, tap ID, test, ready, sign-in [URL]") }
            object["action"] = .string(rest[0])
            if rest.count == 2 { object["value"] = .string(rest[1]) }
        case "switch-server": try one("server", "the saved server's id")
        case "eval":
            if rest.first == "--sheet" {
                object["page"] = "sheet"
                rest.removeFirst()
            }
            try one("script", "the script (after --sheet to run it in the shown sheet's page)")
        case "snapshot":
            if let index = rest.firstIndex(of: "--page") {
                rest.remove(at: index)
                object["target"] = "page"
            }
            try one("path", "the PNG file to write")
        case "wait":
            if let index = rest.firstIndex(of: "--timeout") {
                guard index + 1 < rest.count, let seconds = Double(rest[index + 1]) else {
                    throw ControlError("--timeout takes a number of seconds")
                }
                object["timeout"] = .number(seconds)
                rest.removeSubrange(index...index + 1)
            }
            guard !rest.isEmpty else { throw ControlError("wait takes conditions PATH=VALUE, e.g. screen=page navigation.selected=media") }
            var until = JSONObject()
            for condition in rest {
                guard let equals = condition.firstIndex(of: "="), equals != condition.startIndex else {
                    throw ControlError("\"\(condition)\" is not PATH=VALUE")
                }
                let raw = String(condition[condition.index(after: equals)...])
                until[String(condition[..<equals])] = (try? JSONParser.parse(raw, maxDepth: 8)) ?? .string(raw)
            }
            object["until"] = .object(until)
        default:
            let near = CommandLineRules.nearest(to: name, among: ControlCommand.names).map { "; did you mean \($0)?" } ?? ""
            throw ControlError("unknown command \"\(name)\"\(near) Commands: \(ControlCommand.names.joined(separator: ", "))")
        }
        return JSONWriter.string(.object(object))
    }
}

/// A request that could not be carried out, with the id to answer to.
public struct ControlFailure: Error, Sendable, Equatable {
    public var id: JSONValue?
    public var error: ControlError
    public init(id: JSONValue?, error: ControlError) { self.id = id; self.error = error }
}

/// What the app answers, one line each.
public enum ControlResponse {
    public static func ok(_ id: JSONValue?, _ result: JSONValue = .null) -> String {
        var object = JSONObject(capacity: 3)
        if let id { object["id"] = id }
        object["ok"] = true
        object["result"] = result
        return JSONWriter.string(.object(object))
    }

    public static func failure(_ id: JSONValue?, _ error: ControlError) -> String {
        var object = JSONObject(capacity: 3)
        if let id { object["id"] = id }
        object["ok"] = false
        object["error"] = .string(error.message)
        return JSONWriter.string(.object(object))
    }
}

/// `path = value` conditions over the state JSON: a path is object keys and array indices
/// joined by dots (`navigation.selected`, `navigation.tabs.0.id`); a value matches when it is
/// equal as JSON. A path that does not exist matches only `null`.
public struct StatePredicate: Sendable, Equatable {
    public var conditions: JSONObject

    public init(_ conditions: JSONObject) { self.conditions = conditions }

    public func holds(in state: JSONValue) -> Bool {
        conditions.members.allSatisfy { Self.value(at: $0.key, in: state) == $0.value }
    }

    /// The conditions that do not hold, with the value found, for a timeout's message.
    public func unmet(in state: JSONValue) -> [String] {
        conditions.members.compactMap { condition in
            let found = Self.value(at: condition.key, in: state)
            return found == condition.value ? nil
                : "\(condition.key) is \(JSONWriter.string(found)), not \(JSONWriter.string(condition.value))"
        }
    }

    public static func value(at path: String, in state: JSONValue) -> JSONValue {
        var current = state
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let object):
                guard let next = object[String(component)] else { return .null }
                current = next
            case .array(let array):
                guard let index = Int(component), array.indices.contains(index) else { return .null }
                current = array[index]
            default:
                return .null
            }
        }
        return current
    }
}
