import HostCore

/// Hermes' iOS push client, as pure state (push CONTRACT §4): the readiness probe and its prompt
/// (permission when ready; the setup offer with its "Later" snooze when not; nothing when
/// unknown), permission, registration after a grant and again for every new token, sign-out
/// unregistering, foreground suppression for the session on screen, the approval badge, the
/// cold-start tap and "Send test notification". Every input returns what the host must do.
public struct HermesClient: Sendable {
    public enum Permission: String, Sendable { case notDetermined = "not-determined", prompting, granted, denied }
    public enum Prompt: String, Sendable { case none, permission, setup }
    public enum Registration: Sendable, Equatable {
        case none, waitingForToken
        case registering(token: String)
        case registered(token: String)
        case failed(token: String, error: String)
    }
    public enum TestState: Sendable, Equatable { case idle, sending, sent, failed(String) }

    /// A notification as the phone shows it (or would have, when suppressed).
    public struct Notification: Sendable, Equatable {
        public var id: Int
        public var sessionID: String
        public var type: String
        public var title: String
        public var body: String
        public var threadID: String?
        public var interruptionLevel: String?
        /// Its push's `apns-collapse-id` (the gateway sends the session id): a later one replaces it.
        public var collapseID: String? = nil
    }

    /// What `receive` decided.
    public enum Reception: Sendable, Equatable {
        case shown(Notification)
        /// Its session is on screen: no banner.
        case suppressed(Notification)
        /// Not a Hermes push (no `session_id` or no alert).
        case ignored(String)
    }

    public static let appVersion = "1.0 (HostShell)"
    public static let maxKept = 100

    public internal(set) var server: String
    public internal(set) var signedIn: Bool
    public var environment: APNsEnvironment
    public internal(set) var readiness: HermesReadiness = .unprobed
    public internal(set) var permission: Permission = .notDetermined
    public internal(set) var prompt: Prompt = .none
    public internal(set) var token: String?
    public internal(set) var registration: Registration = .none
    /// The app is in front (else the system shows every push).
    public var foreground = true
    public internal(set) var sessionOnScreen: String?
    /// Sessions with a tapped approval push not yet opened: the badge is their count.
    public internal(set) var approvals: [String] = []
    public internal(set) var notifications: [Notification] = []
    public internal(set) var suppressed: [Notification] = []
    public internal(set) var laterCount = 0
    public internal(set) var snoozedUntil: Double?
    public internal(set) var test: TestState = .idle
    /// What HostShell adds to a "sent" test whose server result was a failure (not the phone's).
    public internal(set) var testWarning: String?
    /// The app finished starting (signed in, its first screen up): taps are acted on.
    public internal(set) var ready = false
    /// A cold-start tap kept until the app is ready: the server it was for and its session.
    public internal(set) var bufferedTap: (server: String, sessionID: String)?
    private var nextID = 1

    public init(server: String, signedIn: Bool = true, environment: APNsEnvironment = .sandbox) {
        self.server = server; self.signedIn = signedIn; self.environment = environment
    }

    public var badge: Int { approvals.count }

    // MARK: readiness and prompts

    /// The app starts (or comes back): probe readiness when signed in.
    public mutating func launch() -> [HermesDeviceAction] {
        guard signedIn else { return [] }
        readiness = .probing
        return [.probeReadiness]
    }

    public mutating func readinessProbed(status: Int?, body: JSONValue?, now: Double) -> [HermesDeviceAction] {
        readiness = HermesReadiness.classify(status: status, body: body)
        switch readiness {
        case .ready:
            if prompt == .setup { prompt = .none }
            switch permission {
            case .notDetermined:
                prompt = .permission
                permission = .prompting
                return [.askPermission]
            case .granted: return requestTokenIfNeeded()
            case .prompting, .denied: return []
            }
        case .notReady:
            if let until = snoozedUntil, now < until { return [] }
            if prompt == .none { prompt = .setup }
            return []
        default:
            return []
        }
    }

    /// "Later" on the setup offer: snooze by the schedule.
    public mutating func later(now: Double) throws(ControlError) -> Void {
        guard prompt == .setup else { throw ControlError("there is no setup offer showing (readiness is \(readiness.rawValue))") }
        laterCount += 1
        snoozedUntil = now + Double(HermesSnooze.days(afterLater: laterCount)) * HermesSnooze.secondsPerDay
        prompt = .none
    }

    // MARK: permission, token, registration

    /// The person answered the system prompt, or changed the setting later (a grant after a
    /// denial registers).
    public mutating func permissionAnswered(grant: Bool) -> [HermesDeviceAction] {
        if prompt == .permission { prompt = .none }
        permission = grant ? .granted : .denied
        return grant ? requestTokenIfNeeded() : []
    }

    private mutating func requestTokenIfNeeded() -> [HermesDeviceAction] {
        guard signedIn, permission == .granted else { return [] }
        if let token {
            if case .registered(token) = registration { return [] }
            if case .registering(token) = registration { return [] }
            return register(token)
        }
        registration = .waitingForToken
        return [.requestToken]
    }

    /// The system gave a device token (the first one, or a new one: rotation registers again).
    public mutating func tokenReceived(_ newToken: String) -> [HermesDeviceAction] {
        let lower = newToken.lowercased()
        guard lower != token || !isRegisteredOrRegistering(lower) else { return [] }
        token = lower
        guard signedIn, permission == .granted else { return [] }
        return register(lower)
    }

    private func isRegisteredOrRegistering(_ token: String) -> Bool {
        switch registration {
        case .registered(let t), .registering(let t): return t == token
        default: return false
        }
    }

    private mutating func register(_ token: String) -> [HermesDeviceAction] {
        registration = .registering(token: token)
        return [.register(token: token, environment: environment, appVersion: Self.appVersion)]
    }

    public mutating func registerAnswered(token: String, status: Int?, body: JSONValue?) {
        guard case .registering(token) = registration else { return }  // a stale answer
        if let status, (200..<300).contains(status), body?.objectValue?["ok"]?.boolValue == true {
            registration = .registered(token: token)
        } else {
            let reason = status.map { $0 == 404 ? "HTTP 404: the hermes-push plugin is not installed" : "HTTP \($0)" } ?? "no answer from the server"
            registration = .failed(token: token, error: reason)
        }
    }

    /// Sign out: unregister (best effort) and forget the token and everything of the session.
    public mutating func signOut() -> [HermesDeviceAction] {
        let actions: [HermesDeviceAction] = token.map { [.unregister(token: $0)] } ?? []
        signedIn = false
        token = nil
        registration = .none
        readiness = .unprobed
        prompt = .none
        sessionOnScreen = nil
        approvals = []
        ready = false
        test = .idle
        return actions
    }

    /// Sign in to a server (the same or another): the app starts its work again.
    public mutating func signIn(server newServer: String) -> [HermesDeviceAction] {
        if newServer != server { approvals = []; sessionOnScreen = nil }
        server = newServer
        signedIn = true
        return launch()
    }

    // MARK: pushes, taps, sessions

    /// A push arrived for this device: its banner shows unless the app is in front with the
    /// push's session on screen. A shown one with the same `collapseID` is replaced by it.
    public mutating func receive(_ payload: JSONObject, collapseID: String? = nil) -> Reception {
        guard let session = payload["session_id"]?.stringValue, !session.isEmpty else { return .ignored("no session_id") }
        let aps = payload["aps"]?.objectValue
        let alert = aps?["alert"]?.objectValue
        guard let alert else { return .ignored("no aps.alert") }
        let notification = Notification(id: nextID, sessionID: session, type: payload["type"]?.stringValue ?? "",
                                        title: alert["title"]?.stringValue ?? "", body: alert["body"]?.stringValue ?? "",
                                        threadID: aps?["thread-id"]?.stringValue, interruptionLevel: aps?["interruption-level"]?.stringValue,
                                        collapseID: collapseID)
        nextID += 1
        if foreground && ready && sessionOnScreen == session {
            Self.keep(&suppressed, notification)
            return .suppressed(notification)
        }
        if let collapseID { notifications.removeAll { $0.collapseID == collapseID } }
        Self.keep(&notifications, notification)
        return .shown(notification)
    }

    static func keep(_ list: inout [Notification], _ notification: Notification) {
        list.append(notification)
        if list.count > maxKept { list.removeFirst(list.count - maxKept) }
    }

    /// The person tapped a shown notification: it leaves the list; an approval counts on the
    /// badge until its session is opened; the session opens now, or when the app is ready.
    public mutating func tap(id: Int) throws(ControlError) -> [HermesDeviceAction] {
        guard let index = notifications.firstIndex(where: { $0.id == id }) else {
            throw ControlError("no shown notification has id \(id); state's hermes.notifications lists them")
        }
        let notification = notifications.remove(at: index)
        foreground = true
        if notification.type == "approval", !approvals.contains(notification.sessionID) { approvals.append(notification.sessionID) }
        guard ready else {
            bufferedTap = (server, notification.sessionID)  // one cold-start tap: the latest wins
            return []
        }
        return open(notification.sessionID)
    }

    /// The app is up (signed in to `server`): a buffered tap opens its session, or is dropped if
    /// it was for another server.
    public mutating func becameReady() -> [HermesDeviceAction] {
        ready = true
        guard let tap = bufferedTap else { return [] }
        bufferedTap = nil
        guard signedIn, tap.server == server else { return [] }
        return open(tap.sessionID)
    }

    /// Put a session on screen (a tap, or the person choosing it); it leaves the badge.
    public mutating func open(_ session: String) -> [HermesDeviceAction] {
        sessionOnScreen = session
        approvals.removeAll { $0 == session }
        return [.openSession(session)]
    }

    /// Back to the session list.
    public mutating func closeSession() { sessionOnScreen = nil }

    // MARK: "Send test notification"

    public mutating func sendTest() throws(ControlError) -> [HermesDeviceAction] {
        guard signedIn else { throw ControlError("sign in first: the test notification is sent by the server") }
        guard test != .sending else { throw ControlError("a test notification is already being sent") }
        test = .sending
        return [.sendTest]
    }

    /// Any 2xx is "sent", even with no devices, as the phone app shows it (push contract §4) —
    /// and when the server's own answer says the send failed (`"ok": false`, or results for
    /// devices of which none was delivered: the plugin's `/test` lists each device's `delivered`
    /// and `error`), HostShell says so beside it in `testWarning`, so a developer is not misled
    /// by a "sent" the phone would show too. Anything else is "failed".
    public mutating func testAnswered(status: Int?, body: JSONValue?) {
        guard test == .sending else { return }
        testWarning = nil
        if let status, (200..<300).contains(status) {
            test = .sent
            let object = body?.objectValue
            let results = object?["results"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let prefix = "the phone shows \"sent\" for any 2xx, but "
            if object?["ok"] == false {
                let why = object?["error"]?.stringValue ?? object?["detail"]?.stringValue
                testWarning = prefix + "the server answered HTTP \(status) saying the send failed" + (why.map { ": " + $0 } ?? "")
            } else if !results.isEmpty, !results.contains(where: { $0["delivered"] == true }) {
                let why = results.compactMap { $0["error"]?.stringValue }.first
                testWarning = prefix + "the server reached none of its \(results.count) device(s)" + (why.map { ": " + $0 } ?? "")
            }
            return
        }
        let detail = body?.objectValue?["detail"]?.stringValue ?? body?.objectValue?["error"]?.stringValue
        test = .failed(status.map { "HTTP \($0)" + (detail.map { ": " + $0 } ?? "") } ?? "no answer from the server")
    }
}
