import HostCore

/// The emulated Hermes device's own commands (`device hermes --control`).
public enum HermesControlCommand: Sendable, Equatable {
    /// Hermes' own steps: `action` with its argument, if any (probe, later, clock SECONDS,
    /// open SESSION, close, tap ID, test, ready, sign-in [URL]).
    case hermes(action: String, value: String?)
    /// Sign out of the gateway as the app's account screen would.
    case signOut
}

public enum HermesControl: ControlVocabulary {
    public static let title = "Hermes' device (hostshell device hermes)"
    public static let steps = "probe|later|clock SECONDS|open SESSION|close|tap ID|test|ready|sign-in [URL]"
    public static let commands: [ControlCommandHelp] = [
        ControlCommandHelp("hermes", "STEP [VALUE]", options: nil),
        ControlCommandHelp("sign-out"),
    ]

    public static func decode(_ command: AppCommand) throws(ControlError) -> HermesControlCommand {
        switch command.name {
        case "hermes": return .hermes(action: try command.string("action"), value: command.arguments["value"]?.stringValue)
        case "sign-out": return .signOut
        default: throw ControlError("\(command.name) is not one of Hermes' device's commands")
        }
    }

    public static func arguments(_ name: String, words: [String]) throws(ControlError) -> JSONObject {
        let words = ControlWords(name, words)
        guard name == "hermes" else {
            try words.none()
            return [:]
        }
        guard (1...2).contains(words.rest.count) else {
            throw ControlError("hermes takes a step and its argument, if any: probe, later, clock SECONDS, open SESSION, close, tap ID, test, ready, sign-in [URL]")
        }
        var object: JSONObject = ["action": .string(words.rest[0])]
        if words.rest.count == 2 { object["value"] = .string(words.rest[1]) }
        return object
    }
}
