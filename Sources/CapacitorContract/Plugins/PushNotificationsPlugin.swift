import HostCore
import Push

/// `PushNotifications` on the Capacitor seam: the `PushNotifications` machine, fed the page's
/// calls and the host's events, with its effects turned into results, listener events and
/// requests to the glue:
///
/// | request (action)        | glue does                                   | answer                       |
/// |-------------------------|---------------------------------------------|------------------------------|
/// | `push.load`             | reads the profile's record and remembered permission | `{record, permission}` |
/// | `permission.ask`        | the question in the page's permission center: the native prompt, an answer `ctl permission` gave ahead, or a wait for it; remembered for the app | `{receive}` |
/// | `permission.store`      | `ctl privacy … notifications`: writes the app's answer (granted, denied, prompt) | `{}` |
/// | `token.make`            | 32 bytes from the system's random source    | `{token}` (hex)              |
/// | `record.save`           | writes `push.json` (owner-only, atomic)     | `{}` or a failure            |
/// | `notification.show` / `notification.withdraw` | the desktop's notifications | `{}`               |
///
/// Nothing is decided before the profile is loaded: calls and host events that come first wait.
/// A push arrives as `PluginHostEvent.custom(deliverEvent, …)` and a person's action on a
/// notification as `.custom(activateEvent, …)` (see `delivered(…)`/`activated(…)`).
public struct PushNotificationsPlugin: CapacitorPlugin {
    public static let name = PushNotifications.pluginName
    public static let methods = PushNotifications.methods.map { CapacitorMethod($0) }
    public static let retainedEvents: Set<String> = ["pushNotificationActionPerformed"]

    /// The custom host events of the push side (issue 14).
    public static let deliverEvent = "push.deliver"
    public static let activateEvent = "push.activate"
    /// `ctl privacy … notifications` (the device's setting for the app): `{"notifications":
    /// "granted"|"denied"|"prompt"}`. The app's answer becomes it, and is kept in its file.
    public static let privacyEvent = "privacy"

    /// The remembered answer's file in the app's data directory: `{"receive": "granted"|"denied"}`.
    public static let permissionFileName = "push-permission.json"

    public static func permissionFile(granted: Bool) -> String {
        permissionFile(granted ? .granted : .denied)
    }

    /// The file for any answer (`prompt`: asked again, as after `ctl privacy reset`).
    public static func permissionFile(_ permission: PushNotifications.Permission) -> String {
        JSONWriter.string(["receive": .string(permission.rawValue)])
    }

    /// What is wrong with the remembered answer's file, or nil when it is one (`granted`,
    /// `denied`, or `prompt`). A damaged file is kept aside and the person told, never silently
    /// read as `prompt`.
    public static func permissionFileProblem(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "it is not UTF-8 text" }
        guard let object = (try? JSONParser.parse(text, maxDepth: 2))?.objectValue else { return "it is not a JSON object" }
        guard let word = object["receive"]?.stringValue, PushNotifications.Permission(rawValue: word) != nil else {
            return "\"receive\" is not granted, denied or prompt"
        }
        return nil
    }

    /// Reads the remembered answer; anything else (no file, a damaged one) is `prompt`: ask again.
    public static func permission(fileText: String?) -> PushNotifications.Permission {
        guard let fileText, let object = (try? JSONParser.parse(fileText, maxDepth: 2))?.objectValue,
              let word = object["receive"]?.stringValue, let permission = PushNotifications.Permission(rawValue: word),
              permission != .prompt else { return .prompt }
        return permission
    }

    /// The permission dialog's words, as iOS asks ("“HomeSec” Would Like to Send You Notifications").
    public static func permissionPrompt(appName: String?) -> (heading: String, body: String) {
        let name = appName.map { "“\($0)”" } ?? "This app"
        return ("\(name) Would Like to Send You Notifications",
                "Notifications may include alerts, sounds and icon badges. HostShell remembers your answer for this app.")
    }

    /// The host event for a push that arrived for this app (`foreground`: on screen; nil lets
    /// the plugin judge from the window's lifecycle as it has seen it).
    public static func delivered(id: String, payload: JSONObject, foreground: Bool? = nil, collapseID: String? = nil) -> PluginHostEvent {
        var data: JSONObject = ["id": .string(id), "payload": .object(payload)]
        if let foreground { data["foreground"] = .bool(foreground) }
        if let collapseID { data["collapseId"] = .string(collapseID) }
        return .custom(deliverEvent, data)
    }

    /// The host event for a person acting on a notification (`tap` when they opened it).
    public static func activated(id: String, payload: JSONObject, actionId: String = "tap", inputValue: String? = nil) -> PluginHostEvent {
        var data: JSONObject = ["id": .string(id), "payload": .object(payload), "actionId": .string(actionId)]
        if let inputValue { data["inputValue"] = .string(inputValue) }
        return .custom(activateEvent, data)
    }

    private let bundleId: String?
    /// How the permission prompt names the app.
    private let appName: String?
    private let environment: APNsEnvironment
    private let presentationOptions: [String]
    /// The machine, once the profile is loaded.
    public private(set) var machine: PushNotifications?
    public private(set) var permission: PushNotifications.Permission = .prompt
    /// What the window is, as the lifecycle events said (a push in the foreground is an event).
    public private(set) var inForeground = true
    public private(set) var isActive = true
    private var loading = false
    /// The notification question is open (asked, not yet answered).
    public private(set) var asking = false
    private var waiting: [Waiting] = []
    private var calls: [PushNotifications.Ticket: CapacitorCall] = [:]
    private var nextTicket = 1
    /// Notifications the desktop could not show (no notification server), newest last.
    public private(set) var unshown = 0

    private enum Waiting: Sendable, Equatable {
        case call(CapacitorCall)
        case event(PushNotifications.Event)
    }

    public init(_ app: CapacitorAppInfo) {
        bundleId = app.appId
        appName = app.appName ?? app.appId
        environment = APNsEnvironment(flag: app.apnsEnvironment) ?? .sandbox
        let options = app.config(for: Self.name)["presentationOptions"]?.arrayValue ?? []
        presentationOptions = options.compactMap(\.stringValue)
    }

    public mutating func call(_ call: CapacitorCall) -> [PluginEffect] {
        guard machine != nil else { return wait(.call(call)) }
        let ticket = nextTicket
        nextTicket += 1
        calls[ticket] = call
        return run(.call(ticket, method: call.methodName, options: call.options, permission: permission))
    }

    public mutating func hostEvent(_ event: PluginHostEvent) -> [PluginEffect]? {
        switch event {
        case .permission:
            // `ctl permission` answers the page's permission center, where this plugin's
            // question takes its turn with WebKit's (an answer given ahead included).
            return nil
        case .rotatePushToken:
            return feed(.rotate)
        case .lifecycle(let change):
            // Seen by every plugin (the bridge broadcasts lifecycle); App answers for it.
            switch change {
            case .blur: isActive = false
            case .background: isActive = false; inForeground = false
            case .focus, .foreground: isActive = true; inForeground = true
            }
            return []
        case .appState(let state):
            isActive = state == .active
            inForeground = state != .background
            return []
        case .custom(Self.privacyEvent, let data):
            guard let answer = data["notifications"]?.stringValue.flatMap(PushNotifications.Permission.init(rawValue:)) else { return nil }
            permission = answer
            var effects: [PluginEffect] = [.ask(action: "permission.store", arguments: ["receive": .string(answer.rawValue)], call: nil)]
            // requestPermissions calls waiting for the question get the new answer.
            if answer != .prompt, machine?.waitingForPermission.isEmpty == false { effects += run(.permissionAnswered(granted: answer == .granted)) }
            return effects
        case .custom(Self.deliverEvent, let data):
            guard let id = data["id"]?.stringValue, let payload = data["payload"]?.objectValue else { return [.note("a push without an id or payload was ignored")] }
            // iOS presents a push to the app (willPresent) whenever it is in the foreground,
            // active or not (a blurred window is inactive, still in the foreground).
            let foreground = data["foreground"]?.boolValue ?? inForeground
            return feed(.deliver(id: id, payload: payload, foreground: foreground, collapseID: data["collapseId"]?.stringValue))
        case .custom(Self.activateEvent, let data):
            guard let id = data["id"]?.stringValue, let payload = data["payload"]?.objectValue else { return [.note("a notification action without an id or payload was ignored")] }
            return feed(.activate(id: id, payload: payload, actionId: data["actionId"]?.stringValue ?? "tap",
                                  inputValue: data["inputValue"]?.stringValue))
        default:
            return nil
        }
    }

    public mutating func answered(_ answer: HostAnswer) -> [PluginEffect] {
        switch (answer.action, answer.outcome) {
        case ("push.load", let outcome):
            loading = false
            let reply = (try? outcome.get())?.objectValue ?? [:]
            permission = PushNotifications.Permission(rawValue: reply["permission"]?.stringValue ?? "") ?? .prompt
            let record = reply["record"]?.stringValue.flatMap(PushRecord.init(fileText:))
            machine = PushNotifications(record: record, bundleId: bundleId, environment: environment, presentationOptions: presentationOptions)
            var effects: [PluginEffect] = []
            if case .failure(let failure) = outcome { effects.append(.note("the push profile could not be read (\(failure.message)); starting without it")) }
            let queued = waiting
            waiting = []
            for item in queued {
                switch item {
                case .call(let call): effects += self.call(call)
                case .event(let event): effects += run(event)
                }
            }
            return effects
        case ("permission.ask", .success(let value)):
            asking = false
            guard let word = value.objectValue?["receive"]?.stringValue, let answer = PushNotifications.Permission(rawValue: word),
                  answer != .prompt else { return [] }
            permission = answer
            guard machine?.waitingForPermission.isEmpty == false else { return [] }
            return run(.permissionAnswered(granted: answer == .granted))
        case ("permission.ask", .failure(let failure)):
            asking = false
            // No one could be asked: the question is denied, and not remembered.
            return [.note("the notification permission could not be asked (\(failure.message)): denied")] + run(.permissionAnswered(granted: false))
        case ("token.make", .success(let value)):
            guard let token = value.objectValue?["token"]?.stringValue.flatMap(PushToken.init(hex:)) else {
                return [.note("the host made no usable token")]
            }
            return run(.tokenMade(token))
        case ("token.make", .failure(let failure)):
            return [.note("no token could be made: \(failure.message)")]
        case ("record.save", .success):
            return run(.recordSaved)
        case ("record.save", .failure(let failure)):
            return run(.recordFailed(failure.message))
        case ("notification.show", .success(let value)):
            if value.objectValue?["shown"]?.boolValue == false { unshown += 1 }
            return []
        default:
            if case .failure(let failure) = answer.outcome { return [.note("\(answer.action) failed: \(failure.message)")] }
            return []
        }
    }

    private mutating func wait(_ item: Waiting) -> [PluginEffect] {
        waiting.append(item)
        guard !loading else { return [] }
        loading = true
        return [.ask(action: "push.load", arguments: [:], call: nil)]
    }

    private mutating func feed(_ event: PushNotifications.Event) -> [PluginEffect] {
        machine == nil ? wait(.event(event)) : run(event)
    }

    private mutating func run(_ event: PushNotifications.Event) -> [PluginEffect] {
        guard var machine else { return [] }
        let effects = machine.reduce(event)
        self.machine = machine
        var out: [PluginEffect] = []
        for effect in effects { out += carryOut(effect) }
        return out
    }

    private mutating func carryOut(_ effect: PushNotifications.Effect) -> [PluginEffect] {
        switch effect {
        case .resolve(let ticket, let data):
            guard let call = calls.removeValue(forKey: ticket) else { return [] }
            return [.resolve(call, data?.objectValue)]
        case .reject(let ticket, let message, let code):
            guard let call = calls.removeValue(forKey: ticket) else { return [] }
            return [.reject(call, CapacitorError(message, code: code))]
        case .askPermission:
            asking = true
            return [.ask(action: "permission.ask", arguments: ["appName": appName.map(JSONValue.string) ?? .null], call: nil)]
        case .makeToken:
            return [.ask(action: "token.make", arguments: [:], call: nil)]
        case .saveRecord(let record):
            return [.ask(action: "record.save", arguments: ["text": .string(record.fileText)], call: nil)]
        case .notify(let event, let data, _):
            return [.emit(event: event, data: data.objectValue ?? [:])]
        case .show(let notification):
            var arguments = notification.json.objectValue ?? [:]
            if let collapseID = notification.collapseID { arguments["collapseId"] = .string(collapseID) }
            return [.ask(action: "notification.show", arguments: arguments, call: nil)]
        case .withdraw(let ids):
            return [.ask(action: "notification.withdraw", arguments: ["ids": .array(ids.map(JSONValue.string))], call: nil)]
        }
    }

    public var state: JSONObject {
        var object = machine?.json.objectValue ?? ["token": .null, "loaded": false]
        object["permission"] = .string(permission.rawValue)
        object["unshown"] = .number(Double(unshown))
        return object
    }
}
