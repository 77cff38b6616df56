/// WebDriver on a fleet (`hostshell fleet --webdriver ADDRESS -- KIND ARGS…`): WebKitWebDriver
/// started with `--target=ADDRESS` connects to the fleet's inspector server instead of starting a
/// browser, and each session it creates becomes a new throw-away app of the fleet — KIND with
/// ARGS, as `fleet-ctl open --throw-away -- KIND ARGS…` would open it —, whose own page (bridge
/// and native chrome) the session drives. Deleting the session closes that app only.
///
/// WebKit gives a process one automation session at a time and one automation network session
/// for good (every view built for automation is on it), so two rules follow, both here:
/// one session at a time (a second driver's connection is refused while a session has an app;
/// a second session WebKit started anyway has replaced the first, whose app is then closed), and
/// the automation session's website data cleared after each session's app closes, before the
/// next session's app is opened — what makes sequential sessions as isolated as two throw-away
/// apps. This file is that rule, pure; ShellKit's `FleetWebDriverHost` carries it out.

/// What `hostshell fleet` was told to serve to WebDriver sessions.
public struct FleetWebDriverOptions: Sendable, Equatable {
    /// The inspector server's address, loopback only (`InspectorAddress`).
    public let address: String
    /// The app every session opens: the hostshell command that would run it alone, and its arguments.
    public let kind: String
    public let arguments: [String]

    public init(address: String, kind: String, arguments: [String]) {
        self.address = address; self.kind = kind; self.arguments = arguments
    }

    /// Reads `--webdriver ADDRESS` and the words after `--` (`KIND ARGS…`). `kinds`: the fleet's
    /// app kinds. Refused: a non-loopback address, no app, an unknown kind, an option no fleet app may have.
    public static func parse(address: String?, app: [String]?, kinds: [String]) throws(ControlError) -> FleetWebDriverOptions? {
        guard let address else {
            if app != nil { throw ControlError("the words after -- are the app WebDriver sessions open; give --webdriver ADDRESS with them") }
            return nil
        }
        if case .failure(let error) = InspectorAddress.parse(address) { throw ControlError("--webdriver: \(error.message)") }
        let kindList = kinds.joined(separator: " or ")
        guard let app, let kind = app.first else {
            throw ControlError("--webdriver needs the app each session opens after --: -- \(kindList) ARGS… (e.g. -- capacitor --web-dir DIR)")
        }
        guard kinds.contains(kind) else { throw ControlError("--webdriver: a fleet runs \(kindList) apps, not \(TerminalText.escaped(kind))") }
        let arguments = Array(app.dropFirst())
        guard arguments.count <= FleetRules.maxArguments else { throw ControlError("--webdriver: more than \(FleetRules.maxArguments) arguments") }
        for word in arguments where word == "--automation" {
            throw ControlError("--webdriver: leave --automation out of the app's arguments; the fleet builds each session's page for automation")
        }
        try FleetRules.check(arguments: arguments)
        return FleetWebDriverOptions(address: address, kind: kind, arguments: arguments)
    }
}

/// The fleet's WebDriver sessions, one at a time: a machine the glue feeds with what WebKit
/// and the apps report, and whose effects it carries out.
public struct FleetSessions: Sendable, Equatable {
    /// How long a session's request for its page waits for the previous session's website data
    /// to be cleared (clearing an ephemeral session takes milliseconds); past it, refused.
    public static let clearLimitSeconds = 5.0

    public enum Phase: Sendable, Equatable {
        /// No session.
        case idle
        /// WebKit started session `session`; its page is not asked for yet (or its app failed to open).
        case started(session: String)
        /// Session `session` drives app `app`.
        case driving(session: String, app: String)
        /// Session `session`'s app is closed; WebKit has not ended the session yet (the driver
        /// ends it as it deletes it).
        case closed(session: String)
    }

    public enum Event: Sendable, Equatable {
        /// WebKit started an automation session (`automation-started`).
        case started(session: String)
        /// The session asked for its page (`create-web-view`).
        case pageRequested(session: String)
        /// The app opened for the session; its page is handed to the session.
        case opened(session: String, app: String)
        /// The app could not open (the reason is the opener's).
        case openFailed(session: String, reason: String)
        /// The session closed its page (window closed, session deleted), or the app ended on its own.
        case appEnded(app: String)
        /// WebKit ended the session (the driver disconnected).
        case sessionGone(session: String)
        /// The automation session's website data is cleared.
        case cleared
        /// Clearing it failed (`reason`, WebKit's): what one session left could reach the next.
        case clearFailed(reason: String)
    }

    public enum Effect: Sendable, Equatable {
        /// Open the app for `session` (a throw-away one) and hand its page over.
        case open(session: String)
        /// Wait (at most `clearLimitSeconds`) for the clearing under way, then ask again.
        case awaitClear(session: String)
        /// Answer the page request with none; `reason` is for the person (the fleet's error output).
        case refusePage(session: String, reason: String)
        /// Close app `app` (the fleet's close; its throw-away profile goes).
        case close(app: String)
        /// Clear every kind of website data of WebKit's automation network session.
        case clearData
        /// Say this on the fleet's error output.
        case tell(String)
    }

    public private(set) var phase: Phase = .idle
    /// The automation session's data is being cleared.
    public private(set) var clearing = false
    /// Sessions served, for `list`.
    public private(set) var served = 0
    /// Why the automation session's data could not be cleared: from then on no session gets an
    /// app (it could read the previous session's data); the fleet must be started again.
    public private(set) var clearFailure: String?

    public init() {}

    /// Whether a driver may connect to the inspector now: not while a session has an app or
    /// waits for one (WebKit would replace that session with the new one).
    public var acceptsConnection: Bool {
        switch phase {
        case .idle, .closed: true
        case .started, .driving: false
        }
    }

    /// Why a driver's connection is refused, for the person.
    public var connectionRefusal: String {
        "a WebDriver session is under way on this fleet (one at a time: WebKit has one automation session per process); "
            + "a second driver's connection is refused. Delete that session first, or start another fleet"
    }

    public mutating func reduce(_ event: Event) -> [Effect] {
        switch event {
        case .started(let session):
            var effects: [Effect] = []
            switch phase {
            case .driving(let old, let app):
                // WebKit replaced the live session: it cannot be driven any more.
                effects = [.tell("WebDriver session \(old) was replaced by \(session) (WebKit keeps one per process); its app \(app) is closed"),
                           .close(app: app), .clearData]
                clearing = true
            case .started(let old):
                effects = [.tell("WebDriver session \(old) was replaced by \(session) before it asked for its page")]
            case .idle, .closed: break
            }
            phase = .started(session: session)
            served += 1
            return effects
        case .pageRequested(let session):
            switch phase {
            case .started(let current) where current == session:
                if let clearFailure {
                    return [.refusePage(session: session, reason: "the previous WebDriver session's website data could not be cleared (\(clearFailure)), "
                        + "so this fleet opens no more sessions: one could read another's data. Start another fleet")]
                }
                return [clearing ? .awaitClear(session: session) : .open(session: session)]
            case .driving(let current, _) where current == session:
                return [.refusePage(session: session, reason: "WebDriver asked for another window; a fleet's session drives its app's one page")]
            default:
                return [.refusePage(session: session, reason: "WebDriver session \(session) is not this fleet's current session")]
            }
        case .opened(let session, let app):
            guard case .started(let current) = phase, current == session else { return [.close(app: app)] }
            phase = .driving(session: session, app: app)
            return []
        case .openFailed(let session, let reason):
            return [.tell("WebDriver session \(session): its app did not open: \(reason)")]
        case .appEnded(let app):
            guard case .driving(let session, let current) = phase, current == app else { return [] }
            phase = .closed(session: session)
            clearing = true
            return [.close(app: app), .clearData]
        case .sessionGone(let session):
            switch phase {
            case .driving(let current, let app) where current == session:
                phase = .idle
                clearing = true
                return [.close(app: app), .clearData]
            case .started(let current) where current == session, .closed(let current) where current == session:
                phase = .idle
                return []
            default:
                return []
            }
        case .cleared:
            clearing = false
            return []
        case .clearFailed(let reason):
            clearing = false
            clearFailure = reason
            return [.tell("clearing the WebDriver sessions' website data failed (\(reason)); no further session is served")]
        }
    }

    /// The sessions as `list` shows them.
    public var json: JSONValue {
        let (state, session, app): (String, String?, String?) = switch phase {
        case .idle: ("idle", nil, nil)
        case .started(let session): ("started", session, nil)
        case .driving(let session, let app): ("driving", session, app)
        case .closed(let session): ("closed", session, nil)
        }
        return ["state": .string(state), "session": session.map(JSONValue.string) ?? .null, "app": app.map(JSONValue.string) ?? .null,
                "clearing": .bool(clearing), "served": .number(Double(served)),
                "clearFailure": clearFailure.map(JSONValue.string) ?? .null]
    }
}
