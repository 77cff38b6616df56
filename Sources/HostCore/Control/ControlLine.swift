/// `hostshell ctl`'s words as one request line: the core's commands here, every other command
/// by the vocabulary that owns it (the executable hands `ctl` every app contract's).
extension ControlRequest {
    /// The core's commands with their words, for `ctl --help`.
    public static let coreCommands: [ControlCommandHelp] = [
        ControlCommandHelp("state"),
        ControlCommandHelp("wait", "PATH=VALUE… [--timeout S] [--state]", options: ["--timeout", "--state"]),
        ControlCommandHelp("events", "[--kind bridge|state|warning|device]… [--count N] [--timeout S]", options: ["--kind", "--count", "--timeout"]),
        ControlCommandHelp("snapshot", "FILE.png [--page]", options: ["--page"]),
        ControlCommandHelp("eval", "[--sheet] SCRIPT", options: nil),
        ControlCommandHelp("resize", "WIDTH HEIGHT", options: nil),
        ControlCommandHelp("memory-pressure"),
        ControlCommandHelp("reload"),
        ControlCommandHelp("back"),
        ControlCommandHelp("open-url", "LINK", options: nil),
        ControlCommandHelp("permission", "grant|deny"),
        ControlCommandHelp("lifecycle", "background|foreground|blur|focus"),
        ControlCommandHelp("action", "NAME [--window ID]", options: ["--window"]),
        ControlCommandHelp("download", "ID open|show"),
        ControlCommandHelp("rotate", "[portrait|landscape]"),
        ControlCommandHelp("status-bar", "clear | --time HH:MM --battery 0-100 --charging|--no-charging --cellular 0-4 --wifi 0-3 --carrier NAME",
                           options: ["--time", "--battery", "--charging", "--no-charging", "--cellular", "--wifi", "--carrier"]),
    ] + SimulatorCommand.help + DeviceControl.help

    /// `ctl`'s words as a request line: a core command (`state`, `wait PATH=VALUE… [--timeout S]`
    /// — VALUE is JSON when it parses as JSON, else a string — `snapshot PATH [--page]`,
    /// `eval [--sheet] SCRIPT`, …), an app's command from `vocabularies`, or a whole JSON
    /// request as one word. A relative file path among the words is resolved against
    /// `workingDirectory` (the caller's: the app's own working directory is not the caller's).
    public static func line(fromArguments arguments: [String], vocabularies: [any ControlVocabulary.Type] = [],
                            workingDirectory: String? = nil) throws(ControlError) -> String {
        let known = coreCommands + vocabularies.flatMap { $0.commands }
        guard let name = arguments.first else { throw ControlError("name a command: \(names(known).joined(separator: ", "))") }
        if name.hasPrefix("{") { return name }
        var words = ControlWords(name, Array(arguments.dropFirst()))
        if let help = known.first(where: { $0.name == name }), let options = help.options,
           let unknown = words.rest.first(where: { CommandLineRules.looksLikeOption($0) && !options.contains($0) }) {
            throw ControlError(CommandLineRules.unknownOptionMessage(unknown, command: "ctl \(name)", known: options, help: "hostshell ctl --help"))
        }
        if coreCommands.contains(where: { $0.name == name }) {
            return AppCommand(name, resolved(try coreArguments(&words), paths: ["path"], from: workingDirectory)).line
        }
        if let vocabulary = vocabularies.first(where: { $0.owns(name) }) {
            return AppCommand(name, resolved(try vocabulary.arguments(name, words: words.rest), paths: vocabulary.pathMembers,
                                             from: workingDirectory)).line
        }
        let near = CommandLineRules.nearest(to: name, among: names(known)).map { "; did you mean \($0)?" } ?? ""
        throw ControlError("unknown command \"\(name)\"\(near) Commands: \(names(known).joined(separator: ", "))")
    }

    /// `object` with the string (or strings) under each of `paths` made absolute against
    /// `directory`; nothing changes without a directory.
    static func resolved(_ object: JSONObject, paths: Set<String>, from directory: String?) -> JSONObject {
        guard let directory else { return object }
        var object = object
        for key in paths {
            switch object[key] {
            case .string(let path): object[key] = .string(absolute(path, from: directory))
            case .array(let items): object[key] = .array(items.map { $0.stringValue.map { .string(absolute($0, from: directory)) } ?? $0 })
            default: break
            }
        }
        return object
    }

    /// `path` when it is absolute, else `directory/path`.
    public static func absolute(_ path: String, from directory: String) -> String {
        guard !path.hasPrefix("/"), !path.isEmpty else { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    private static func names(_ commands: [ControlCommandHelp]) -> [String] {
        var seen: Set<String> = []
        return commands.map(\.name).filter { seen.insert($0).inserted }
    }

    private static func coreArguments(_ words: inout ControlWords) throws(ControlError) -> JSONObject {
        var object = JSONObject()
        switch words.name {
        case "state", "back", "reload", "memory-pressure":
            try words.none()
        case "open-url": object["url"] = .string(try words.one("the link, e.g. tilecast-ios://open?… or homesec://…"))
        case "permission": object["answer"] = .string(try words.one("grant or deny"))
        case "lifecycle": object["change"] = .string(try words.one("background (hide), foreground (show), blur or focus"))
        case "action":
            if let window = try words.take("--window", "a window's id") {
                guard let id = Int(window) else { throw ControlError("--window takes a window's id") }
                object["window"] = .number(Double(id))
            }
            object["name"] = .string(try words.one("the action: \(AppAction.names.joined(separator: ", "))"))
        case "download":
            guard words.rest.count == 2, let id = Int(words.rest[0]) else { throw ControlError("download takes ID open|show") }
            object["id"] = .number(Double(id))
            object["choice"] = .string(words.rest[1])
        case "events":
            var kinds: [JSONValue] = []
            while let kind = try words.take("--kind", "bridge, state, warning or device") { kinds.append(.string(kind)) }
            guard words.rest.isEmpty else { throw ControlError("events takes --kind bridge|state|warning|device (repeatable), --count N and --timeout S") }
            if !kinds.isEmpty { object["kinds"] = .array(kinds) }
        case "rotate":
            guard words.rest.count <= 1 else { throw ControlError("rotate takes portrait or landscape, or nothing to turn the other way") }
            if let word = words.rest.first { object["orientation"] = .string(word) }
        case "status-bar":
            object = try StatusBarOverride.arguments(words.rest)
        case "resize":
            guard words.rest.count == 2 else { throw ControlError("resize takes two arguments: WIDTH HEIGHT in pixels") }
            // Not numbers are passed on as text, for the request's own check to name.
            object["width"] = Double(words.rest[0]).map(JSONValue.number) ?? .string(words.rest[0])
            object["height"] = Double(words.rest[1]).map(JSONValue.number) ?? .string(words.rest[1])
        case "eval":
            if words.rest.first == "--sheet" {
                object["page"] = "sheet"
                words.rest.removeFirst()
            }
            object["script"] = .string(try words.one("the script (after --sheet to run it in the shown sheet's page)"))
        case "snapshot":
            if words.take("--page") { object["target"] = "page" }
            object["path"] = .string(try words.one("the PNG file to write"))
        case "wait":
            if let timeout = try words.take("--timeout", "a number of seconds") {
                guard let seconds = Double(timeout) else { throw ControlError("--timeout takes a number of seconds") }
                object["timeout"] = .number(seconds)
            }
            guard !words.rest.isEmpty else { throw ControlError("wait takes conditions PATH=VALUE, e.g. screen=page navigation.selected=media") }
            var until = JSONObject()
            for condition in words.rest {
                guard let equals = condition.firstIndex(of: "="), equals != condition.startIndex else {
                    throw ControlError("\"\(condition)\" is not PATH=VALUE")
                }
                let raw = String(condition[condition.index(after: equals)...])
                until[String(condition[..<equals])] = (try? JSONParser.parse(raw, maxDepth: 8)) ?? .string(raw)
            }
            object["until"] = .object(until)
        case let name where SimulatorCommand.names.contains(name):
            object = try SimulatorCommand.arguments(&words)
        case _ where DeviceControl.names.contains(words.name):
            object = try DeviceControl.arguments(&words)
        default:
            throw ControlError("\(words.name) is not one of the core's commands")
        }
        return object
    }
}
