import HostCore
import Push

/// Capacitor's `PushNotifications` plugin as its iOS shell behaves (capacitor-shell CONTRACT §4),
/// for one app profile: permission, the device token (stable per profile, rotatable), the
/// listeners' events, and the entry points the push side (issue 14) delivers through — a push
/// arriving (`deliver`) and a person opening a notification (`activate`).
///
/// Calls are identified by the glue's tickets; the glue asks the profile's `PermissionMachine`,
/// makes tokens from the system's random source and keeps the record file.
public struct PushNotifications: Machine, Sendable, Equatable {
    public typealias Ticket = Int

    public static let pluginName = "PushNotifications"
    public static let methods = ["register", "unregister", "checkPermissions", "requestPermissions",
                                 "getDeliveredNotifications", "removeAllDeliveredNotifications",
                                 "removeDeliveredNotifications", "createChannel", "listChannels", "deleteChannel"]
    /// The listeners' events; `pushNotificationActionPerformed` is retained until a listener exists.
    public static let events = ["registration", "registrationError", "pushNotificationReceived", "pushNotificationActionPerformed"]
    /// iOS's words for the Android-only methods, with code UNIMPLEMENTED.
    public static let notOnIOS = "Not available on iOS"
    public static let unimplementedCode = "UNIMPLEMENTED"
    /// iOS's rejection of the notification-centre methods before the app ever had a token.
    public static let notRegisteredYet = "event capacitorDidRegisterForRemoteNotifications not called.  Visit https://capacitorjs.com/docs/apis/push-notifications for more information"
    public static let missingNotifications = "Must supply notifications to remove"
    /// Notifications the notification centre keeps for the app, at most (oldest go first).
    public static let keptDelivered = 64

    /// `{receive}`: the profile's remembered answer for notifications, else `prompt`.
    public enum Permission: String, Sendable, Equatable {
        case prompt, granted, denied
    }

    public enum Event: Sendable, Equatable {
        /// The page called `method`; `permission` is what the profile remembers now.
        case call(Ticket, method: String, options: JSONObject, permission: Permission)
        /// The question asked for `requestPermissions` was answered (by a person, `ctl
        /// permission`, or no one: denied).
        case permissionAnswered(granted: Bool)
        /// A new token, made for `.makeToken`.
        case tokenMade(PushToken)
        /// The record asked for by `.saveRecord` was written, or could not be (why).
        case recordSaved
        case recordFailed(String)
        /// `ctl push-token rotate`: the device's token changes (a restore, a reinstall).
        case rotate
        /// A push for this app arrived; `foreground` is whether the app is on screen and active.
        case deliver(id: String, payload: JSONObject, foreground: Bool, collapseID: String? = nil)
        /// A person acted on a notification (`tap` when they opened it).
        case activate(id: String, payload: JSONObject, actionId: String, inputValue: String?)
    }

    public enum Effect: Sendable, Equatable {
        case resolve(Ticket, JSONValue?)
        case reject(Ticket, message: String, code: String?)
        /// Ask the profile's permission question for notifications.
        case askPermission
        /// Make a token from the system's random source and report `.tokenMade`.
        case makeToken
        /// Write the profile's record (`PushRecord.fileName`) and report how it went.
        case saveRecord(PushRecord)
        /// Fire a listener event; a retained one waits for the first listener.
        case notify(event: String, data: JSONValue, retained: Bool)
        /// Show a desktop notification (in the background, or in the foreground when the
        /// config's `presentationOptions` asks for an alert).
        case show(Notification)
        /// Take these notifications off the desktop.
        case withdraw(ids: [String])
    }

    /// A notification as the page sees it (`notification` of the events; the delivered list).
    public struct Notification: Sendable, Equatable {
        public var id: String
        public var title: String
        public var subtitle: String
        public var badge: Int
        public var body: String
        /// The whole push payload, `aps` included.
        public var data: JSONObject
        /// The push's `apns-collapse-id`: a later one with the same replaces it (not shown to the page).
        public var collapseID: String?

        /// From an APNs payload: `aps.alert` a text (the body) or `{title, subtitle, body}`,
        /// `aps.badge` (1 when absent); missing texts are empty.
        public init(id: String, payload: JSONObject, collapseID: String? = nil) {
            self.id = id
            self.collapseID = collapseID
            let aps = payload["aps"]?.objectValue
            let alert = aps?["alert"]
            let fields = alert?.objectValue
            title = fields?["title"]?.stringValue ?? ""
            subtitle = fields?["subtitle"]?.stringValue ?? ""
            body = alert?.stringValue ?? fields?["body"]?.stringValue ?? ""
            badge = aps?["badge"]?.integerValue ?? 1
            data = payload
        }

        public var json: JSONValue {
            ["id": .string(id), "title": .string(title), "subtitle": .string(subtitle),
             "badge": .number(Double(badge)), "body": .string(body), "data": .object(data)]
        }
    }

    public let bundleId: String?
    public let environment: APNsEnvironment
    /// The config's `plugins.PushNotifications.presentationOptions` (`badge`, `sound`, `alert`).
    public let presentationOptions: [String]
    /// The profile's token, once it has one.
    public private(set) var token: PushToken?
    /// The app called `register()` since it started (a rotated token is then reported).
    public private(set) var registered = false
    /// A token was handed to the app since it started (iOS's condition for the notification
    /// centre's methods).
    public private(set) var tokenGiven = false
    /// `requestPermissions` calls waiting for the answer.
    public private(set) var waitingForPermission: [Ticket] = []
    /// Notifications on the desktop, oldest first.
    public private(set) var delivered: [Notification] = []
    /// What happens once the record is written: report the token to the page or not.
    private var saving: Saving?
    private var makingToken = false
    private enum Saving: Sendable, Equatable { case report, keep }

    /// `record` is the profile's file as read at start (nil: none, or damaged).
    public init(record: PushRecord?, bundleId: String?, environment: APNsEnvironment, presentationOptions: [String] = []) {
        self.token = record?.token
        self.bundleId = bundleId
        self.environment = environment
        self.presentationOptions = presentationOptions
        self.recorded = record
    }

    /// The record as last written (or read).
    public private(set) var recorded: PushRecord?

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .call(let ticket, let method, let options, let permission):
            return call(ticket, method, options, permission)
        case .permissionAnswered(let granted):
            let waiting = waitingForPermission
            waitingForPermission = []
            return waiting.map { .resolve($0, ["receive": .string(granted ? "granted" : "denied")]) }
        case .tokenMade(let new):
            guard makingToken else { return [] }
            makingToken = false
            token = new
            return save(then: saving ?? .keep)
        case .recordSaved:
            guard let then = saving, let token else { return [] }
            saving = nil
            recorded = PushRecord(token: token, bundleId: bundleId, environment: environment)
            return then == .report ? report(token) : []
        case .recordFailed(let why):
            guard let then = saving else { return [] }
            saving = nil
            return then == .report ? [.notify(event: "registrationError", data: ["error": .string(why)], retained: false)] : []
        case .rotate:
            return newToken(then: registered ? .report : .keep)
        case .deliver(let id, let payload, let foreground, let collapseID):
            let notification = Notification(id: id, payload: payload, collapseID: collapseID)
            guard foreground else { return keep(notification) }
            var effects: [Effect] = [.notify(event: "pushNotificationReceived", data: notification.json, retained: false)]
            if presentationOptions.contains("alert") { effects += keep(notification) }
            return effects
        case .activate(let id, let payload, let actionId, let inputValue):
            let notification = delivered.first(where: { $0.id == id }) ?? Notification(id: id, payload: payload)
            delivered.removeAll { $0.id == id }
            var data: JSONObject = ["actionId": .string(actionId)]
            if let inputValue { data["inputValue"] = .string(inputValue) }
            data["notification"] = notification.json
            return [.notify(event: "pushNotificationActionPerformed", data: .object(data), retained: true)]
        }
    }

    private mutating func call(_ ticket: Ticket, _ method: String, _ options: JSONObject, _ permission: Permission) -> [Effect] {
        switch method {
        case "checkPermissions":
            return [.resolve(ticket, ["receive": .string(permission.rawValue)])]
        case "requestPermissions":
            guard permission == .prompt else { return [.resolve(ticket, ["receive": .string(permission.rawValue)])] }
            waitingForPermission.append(ticket)
            return waitingForPermission.count == 1 ? [.askPermission] : []
        case "register":
            registered = true
            let answer: Effect = .resolve(ticket, nil)
            guard let token else { return [answer] + newToken(then: .report) }
            if saving != nil || makingToken { saving = .report; return [answer] }
            if recorded != PushRecord(token: token, bundleId: bundleId, environment: environment) {
                return [answer] + save(then: .report)
            }
            return [answer] + report(token)
        case "unregister":
            registered = false
            return [.resolve(ticket, nil)]
        case "getDeliveredNotifications":
            guard tokenGiven else { return [.reject(ticket, message: Self.notRegisteredYet, code: nil)] }
            return [.resolve(ticket, ["notifications": .array(delivered.map(\.json))])]
        case "removeDeliveredNotifications":
            guard tokenGiven else { return [.reject(ticket, message: Self.notRegisteredYet, code: nil)] }
            guard let list = options["notifications"]?.arrayValue, list.allSatisfy({ $0.objectValue != nil }) else {
                return [.reject(ticket, message: Self.missingNotifications, code: nil)]
            }
            let ids = list.map { $0.objectValue?["id"]?.stringValue ?? "" }
            let removed = delivered.filter { ids.contains($0.id) }.map(\.id)
            delivered.removeAll { ids.contains($0.id) }
            return (removed.isEmpty ? [] : [.withdraw(ids: removed)]) + [.resolve(ticket, nil)]
        case "removeAllDeliveredNotifications":
            guard tokenGiven else { return [.reject(ticket, message: Self.notRegisteredYet, code: nil)] }
            let removed = delivered.map(\.id)
            delivered = []
            return (removed.isEmpty ? [] : [.withdraw(ids: removed)]) + [.resolve(ticket, nil)]
        case "createChannel", "listChannels", "deleteChannel":
            return [.reject(ticket, message: Self.notOnIOS, code: Self.unimplementedCode)]
        default:
            return [.reject(ticket, message: "\(Self.pluginName).\(method)() is not implemented on ios", code: Self.unimplementedCode)]
        }
    }

    private mutating func newToken(then: Saving) -> [Effect] {
        saving = then == .report || saving == .report ? .report : .keep
        guard !makingToken else { return [] }
        makingToken = true
        return [.makeToken]
    }

    private mutating func save(then: Saving) -> [Effect] {
        guard let token else { return [] }
        saving = then
        return [.saveRecord(PushRecord(token: token, bundleId: bundleId, environment: environment))]
    }

    private mutating func report(_ token: PushToken) -> [Effect] {
        tokenGiven = true
        return [.notify(event: "registration", data: ["value": .string(token.hex)], retained: false)]
    }

    /// Shows `notification`; one delivered with its collapse id is replaced (iOS shows the
    /// newer in its place), so the delivered list holds only the newer.
    private mutating func keep(_ notification: Notification) -> [Effect] {
        delivered.removeAll { $0.id == notification.id || (notification.collapseID != nil && $0.collapseID == notification.collapseID) }
        delivered.append(notification)
        if delivered.count > Self.keptDelivered { delivered.removeFirst() }
        return [.show(notification)]
    }

    /// `ctl state`'s `push`: the token, its environment and bundle, what the app did; no payloads.
    public var json: JSONValue {
        ["token": token.map { .string($0.hex) } ?? .null,
         "environment": .string(environment.rawValue),
         "bundleId": bundleId.map(JSONValue.string) ?? .null,
         "registered": .bool(registered),
         "waitingForPermission": .number(Double(waitingForPermission.count)),
         "delivered": .array(delivered.map { ["id": .string($0.id), "title": .string($0.title), "body": .string($0.body)] })]
    }
}
