import HostCore

/// The client's state as JSON (what `ctl state` shows under `hermes`), and what survives a
/// restart (the profile's hermes.json): the server, sign-in, permission, token, registration,
/// the snooze and the badge.
extension HermesClient {
    public var json: JSONValue {
        var registrationJSON: JSONObject = [:]
        switch registration {
        case .none: registrationJSON["state"] = "none"
        case .waitingForToken: registrationJSON["state"] = "waiting-for-token"
        case .registering(let token): registrationJSON = ["state": "registering", "token": .string(token)]
        case .registered(let token): registrationJSON = ["state": "registered", "token": .string(token)]
        case .failed(let token, let error): registrationJSON = ["state": "failed", "token": .string(token), "error": .string(error)]
        }
        let testJSON: JSONValue
        switch test {
        case .idle: testJSON = ["state": "idle"]
        case .sending: testJSON = ["state": "sending"]
        case .sent: testJSON = ["state": "sent", "warning": testWarning.map(JSONValue.string) ?? .null]
        case .failed(let error): testJSON = ["state": "failed", "error": .string(error)]
        }
        return [
            "server": .string(server), "signedIn": .bool(signedIn), "environment": .string(environment.rawValue),
            "ready": .bool(ready), "readiness": .string(readiness.rawValue), "permission": .string(permission.rawValue),
            "prompt": .string(prompt.rawValue), "token": token.map(JSONValue.string) ?? .null,
            "registration": .object(registrationJSON), "foreground": .bool(foreground),
            "sessionOnScreen": sessionOnScreen.map(JSONValue.string) ?? .null,
            "badge": .number(Double(badge)), "approvals": .array(approvals.map(JSONValue.string)),
            "notifications": .array(notifications.map(Self.json)), "suppressed": .array(suppressed.map(Self.json)),
            "snooze": ["laterCount": .number(Double(laterCount)), "until": snoozedUntil.map(JSONValue.number) ?? .null],
            "test": testJSON,
            "bufferedTap": bufferedTap.map { ["server": .string($0.server), "sessionID": .string($0.sessionID)] } ?? .null,
        ]
    }

    public static func json(_ notification: Notification) -> JSONValue {
        ["id": .number(Double(notification.id)), "sessionID": .string(notification.sessionID), "type": .string(notification.type),
         "title": .string(notification.title), "body": .string(notification.body),
         "threadID": notification.threadID.map(JSONValue.string) ?? .null,
         "interruptionLevel": notification.interruptionLevel.map(JSONValue.string) ?? .null,
         "collapseID": notification.collapseID.map(JSONValue.string) ?? .null]
    }

    /// What the profile keeps.
    public var saved: JSONValue {
        var object: JSONObject = ["server": .string(server), "signedIn": .bool(signedIn), "environment": .string(environment.rawValue),
                                  "permission": .string(permission == .prompting ? Permission.notDetermined.rawValue : permission.rawValue),
                                  "laterCount": .number(Double(laterCount)), "approvals": .array(approvals.map(JSONValue.string))]
        if let token { object["token"] = .string(token) }
        if case .registered(let registered) = registration { object["registered"] = .string(registered) }
        if let snoozedUntil { object["snoozedUntil"] = .number(snoozedUntil) }
        if let bufferedTap { object["bufferedTap"] = ["server": .string(bufferedTap.server), "sessionID": .string(bufferedTap.sessionID)] }
        return .object(object)
    }

    /// A client from the profile's hermes.json (nil: not one).
    public init?(saved value: JSONValue) {
        guard let object = value.objectValue, let server = object["server"]?.stringValue else { return nil }
        let environment = object["environment"]?.stringValue.flatMap(APNsEnvironment.init(rawValue:)) ?? .sandbox
        self.init(server: server, signedIn: object["signedIn"]?.boolValue ?? true, environment: environment)
        permission = object["permission"]?.stringValue.flatMap(Permission.init(rawValue:)) ?? .notDetermined
        if permission == .prompting { permission = .notDetermined }
        laterCount = max(0, object["laterCount"]?.integerValue ?? 0)
        snoozedUntil = object["snoozedUntil"]?.numberValue
        approvals = object["approvals"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if let token = object["token"]?.stringValue, APNsDeviceToken.isWellFormed(token) {
            self.token = token
            if object["registered"]?.stringValue == token { registration = .registered(token: token) }
        }
        if let tap = object["bufferedTap"]?.objectValue, let server = tap["server"]?.stringValue, let session = tap["sessionID"]?.stringValue {
            bufferedTap = (server, session)
        }
    }

    /// The app restarts from a kept state as a cold start: not ready, in front, nothing on screen.
    public mutating func coldStart() {
        ready = false
        foreground = true
        sessionOnScreen = nil
    }
}
