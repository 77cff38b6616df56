import HostCore

/// The push side's control commands, for every emulated phone (a Capacitor app with push, and
/// `device hermes`): a push arrives or its notification is opened, the device token changes,
/// a shown notification is acted on.
public enum PushControlCommand: Sendable, Equatable {
    /// A push with its whole APNs payload: `deliver` (it arrives) or `tap` (a person opens its
    /// notification).
    case push(tap: Bool, payload: JSONObject)
    /// Give the app's push registration a new device token (as a reinstall or a restore would).
    case rotatePushToken
    /// Act on a shown notification (by its id in `ctl state`) as a person would: `activate`
    /// (open it) or `dismiss`.
    case notification(activate: Bool, id: String)
}

public enum PushControl: ControlVocabulary {
    public static let title = "push (hostshell capacitor, device hermes)"
    public static let commands: [ControlCommandHelp] = [
        ControlCommandHelp("push", "deliver|tap PAYLOAD-JSON", options: nil),
        ControlCommandHelp("push-token", "rotate"),
        ControlCommandHelp("notification", "activate|dismiss ID"),
    ]

    public static func decode(_ command: AppCommand) throws(ControlError) -> PushControlCommand {
        let object = command.arguments
        switch command.name {
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
        default:
            throw ControlError("\(command.name) is not one of push's commands")
        }
    }

    public static func arguments(_ name: String, words: [String]) throws(ControlError) -> JSONObject {
        let words = ControlWords(name, words)
        switch name {
        case "push-token": return ["action": .string(try words.one("rotate"))]
        case "notification":
            guard words.rest.count == 2 else { throw ControlError("notification takes two arguments: activate or dismiss, and the notification's id") }
            return ["action": .string(words.rest[0]), "id": .string(words.rest[1])]
        default:
            guard words.rest.count == 2 else { throw ControlError("push takes two arguments: deliver or tap, and the payload's JSON") }
            return ["action": .string(words.rest[0]), "payload": .string(words.rest[1])]
        }
    }
}
