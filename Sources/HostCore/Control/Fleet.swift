/// A fleet: one HostShell process hosting many isolated apps (`hostshell fleet`). This file is
/// its bookkeeping, pure: the requests its control socket takes (`open`, `close`, `list`), how
/// they are read and refused, the rules an app's arguments and control commands meet inside a
/// fleet, and the book of apps (ids, profiles, sockets, the limit). The glue (ShellKit's
/// `FleetHost`) carries it out; the executable hands it the app kinds by name (`open`,
/// `capacitor`), so nothing here names an app.

/// One request on a fleet's socket.
public enum FleetCommand: Sendable, Equatable {
    /// Opens an app of `kind` (the hostshell command that would run it alone) with the same
    /// arguments that command takes; `throwAway`: on a profile made for it and removed at its close.
    case open(kind: String, arguments: [String], throwAway: Bool)
    /// Ends one app: its window, web process, control socket and throw-away profile.
    case close(id: String)
    /// The apps open now.
    case list

    public static let names = ["open", "close", "list"]

    /// Reads a request the control protocol handed on (`ControlRequest` decodes the line; the
    /// fleet's names are not the core's, so they come as an `AppCommand`). `kinds`: the app
    /// kinds the executable registered.
    public static func decode(_ command: ControlCommand, kinds: [String]) throws(ControlError) -> FleetCommand {
        guard case .app(let request) = command else {
            throw ControlError("a fleet's socket takes \(names.joined(separator: ", ")); an app's commands go to its own socket (the path open answered, or list shows)")
        }
        switch request.name {
        case "list": return .list
        case "close":
            guard let id = request.arguments["id"]?.stringValue, !id.isEmpty else { throw ControlError("close needs \"id\": the app's id (list shows them)") }
            return .close(id: id)
        case "open":
            let kindList = kinds.joined(separator: " or ")
            guard let kind = request.arguments["app"]?.stringValue, !kind.isEmpty else {
                throw ControlError("open needs \"app\": \(kindList), the command that would run the app alone")
            }
            guard kinds.contains(kind) else {
                throw ControlError("open: a fleet runs \(kindList) apps, not \(TerminalText.escaped(kind))")
            }
            var arguments: [String] = []
            switch request.arguments["arguments"] {
            case nil, .null?: break
            case .array(let items)?:
                for item in items {
                    guard let word = item.stringValue else { throw ControlError("open: \"arguments\" is a list of strings, as on the command line") }
                    arguments.append(word)
                }
            default: throw ControlError("open: \"arguments\" is a list of strings, as on the command line")
            }
            guard arguments.count <= FleetRules.maxArguments else { throw ControlError("open: more than \(FleetRules.maxArguments) arguments") }
            let throwAway: Bool
            switch request.arguments["throwAway"] {
            case nil, .null?: throwAway = false
            case .bool(let value)?: throwAway = value
            default: throw ControlError("open: \"throwAway\" is true or false")
            }
            return .open(kind: kind, arguments: arguments, throwAway: throwAway)
        default:
            throw ControlError("unknown fleet command \"\(TerminalText.escaped(request.name))\"; a fleet's socket takes \(names.joined(separator: ", "))")
        }
    }

    /// The request line for `fleet-ctl`'s words: `open [--throw-away] [--] KIND ARGS…`,
    /// `close ID`, `list`, or one JSON request as it is.
    public static func line(fromArguments words: [String]) throws(ControlError) -> String {
        guard let name = words.first else { throw ControlError("name a command: \(names.joined(separator: ", "))") }
        if name.hasPrefix("{") && words.count == 1 { return name }
        var rest = Array(words.dropFirst())
        var object: JSONObject = ["command": .string(name)]
        switch name {
        case "list":
            guard rest.isEmpty else { throw ControlError("list takes no arguments") }
        case "close":
            guard rest.count == 1, !rest[0].hasPrefix("-") else { throw ControlError("close takes the app's id: close ID") }
            object["id"] = .string(rest[0])
        case "open":
            var throwAway = false
            while let first = rest.first, first.hasPrefix("-") {
                rest.removeFirst()
                if first == "--" { break }
                guard first == "--throw-away" else {
                    throw ControlError("open takes --throw-away before the app's command, then the command's own arguments: open [--throw-away] -- capacitor --web-dir DIR …")
                }
                throwAway = true
            }
            guard let kind = rest.first else { throw ControlError("open needs the app's command and its arguments: open [--throw-away] -- capacitor --web-dir DIR …") }
            object["app"] = .string(kind)
            object["arguments"] = .array(rest.dropFirst().map(JSONValue.string))
            if throwAway { object["throwAway"] = true }
        default:
            let near = CommandLineRules.nearest(to: name, among: names).map { "; did you mean \($0)?" } ?? ""
            throw ControlError("unknown fleet command \"\(TerminalText.escaped(name))\"\(near) Commands: \(names.joined(separator: ", "))")
        }
        return JSONWriter.string(.object(object))
    }
}

/// What an app in a fleet may and may not do, where one process serves them all.
public enum FleetRules {
    /// The most apps one fleet holds at once.
    public static let maxApps = 64
    /// The most words an `open` request's arguments may have.
    public static let maxArguments = 256

    /// Options an app's arguments may not carry in a fleet, and why: what the fleet gives
    /// itself, what runs alone, and what is one per process (the web processes' locale and
    /// time zone, the trusted roots, WebDriver's automation).
    public static let refusedOptions: [(option: String, reason: String)] = [
        ("--control", "the fleet gives each app its control socket (open answers its path)"),
        ("--check", "a check runs alone: use hostshell open|capacitor --check"),
        ("--automation", "WebDriver drives one app per process here: run it alone"),
        ("--kiosk", "a kiosk runs alone"),
        ("--chrome", "a kiosk's option; a kiosk runs alone"),
        ("--cursor-timeout", "a kiosk's option; a kiosk runs alone"),
        ("--uninstall-links", "run hostshell capacitor --uninstall-links alone"),
        ("--locale", "the locale is the web processes' environment, one per process: give it to the fleet's apps by running them alone"),
        ("--timezone", "the time zone is the web processes' environment, one per process: run the app alone"),
        ("--trust-root-cert", "trusted roots are one set per process: run the app alone"),
        ("--help", "ask hostshell COMMAND --help"),
        ("-h", "ask hostshell COMMAND --help"),
    ]

    /// Refuses arguments a fleet's app may not have, naming the option and why.
    public static func check(arguments: [String]) throws(ControlError) {
        for word in arguments {
            if let refused = refusedOptions.first(where: { $0.option == word }) {
                throw ControlError("open: \(refused.option) is not for an app in a fleet: \(refused.reason)")
            }
        }
    }

    /// The control socket of app `id`: beside the fleet's own, named after it; nil when the
    /// path would be longer than a Unix socket's `maxBytes`.
    public static func appSocket(fleetSocket: String, id: String, maxBytes: Int) -> String? {
        let path = fleetSocket + "." + id
        return path.utf8.count <= maxBytes ? path : nil
    }

    /// Why a control command sent to an app in a fleet is refused: what it changes is the
    /// process's, so every app's (nil: the app carries it out as alone).
    public static func refusal(of command: ControlCommand) -> String? {
        let what: String? = switch command {
        case .device(.locale): "the locale (the web processes' environment)"
        case .device(.timeZone): "the time zone (the web processes' environment)"
        case .device(.trustRootCert), .device(.clearRootCerts): "the trusted roots"
        case .simulator(.textSize): "the text size"
        case .simulator(.location): "the simulated location (WebKit's one geolocation manager)"
        default: nil
        }
        return what.map { "in a fleet \($0) is one for every app of the process: run this app alone (hostshell open|capacitor) to change it" }
    }
}

/// The apps of a fleet: ids given in order and never reused, one app per profile, at most
/// `FleetRules.maxApps`; an app is reserved while it opens, then open.
public struct FleetBook: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let id: String
        public let kind: String
        /// What names the app's profile (its data directory); two apps never share one.
        public let profile: String
        public let socket: String
        public let throwAway: Bool
        public var name: String
        public var open: Bool
        /// It runs on a prewarmed slot of the fleet's pool (`FleetPool`).
        public var pooled = false
    }

    public private(set) var entries: [Entry] = []
    private var counter = 0
    public let limit: Int

    public init(limit: Int = FleetRules.maxApps) { self.limit = limit }

    /// The id the next reserved app gets.
    public var nextId: String { "\(counter + 1)" }

    /// Reserves the next id for an app on `profile`: refused when the fleet is full or the
    /// profile is another app's.
    public mutating func reserve(kind: String, name: String, profile: String, socket: String, throwAway: Bool) throws(ControlError) -> Entry {
        guard entries.count < limit else {
            throw ControlError("open: the fleet holds \(limit) apps, its most; close one first")
        }
        if let holder = entries.first(where: { $0.profile == profile }) {
            throw ControlError("open: app \(holder.id) (\(TerminalText.escaped(holder.name))) already runs on that profile; close it, or open this one with a throw-away profile")
        }
        counter += 1
        let entry = Entry(id: "\(counter)", kind: kind, profile: profile, socket: socket, throwAway: throwAway, name: name, open: false)
        entries.append(entry)
        return entry
    }

    /// The app reserved as `id` is open (`pooled`: on a slot of the fleet's pool).
    public mutating func opened(_ id: String, pooled: Bool = false) {
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].open = true
            entries[index].pooled = pooled
        }
    }

    /// Takes app `id` out of the book (its opening failed, it was closed, or it ended): its
    /// entry, or a refusal naming the apps there are.
    @discardableResult
    public mutating func remove(_ id: String) throws(ControlError) -> Entry {
        guard let index = entries.firstIndex(where: { $0.id == id }) else {
            let open = entries.map(\.id)
            throw ControlError("no app \(TerminalText.escaped(id)) in this fleet; " + (open.isEmpty ? "none is open" : "open: \(open.joined(separator: ", "))"))
        }
        return entries.remove(at: index)
    }

    /// One app as `open` and `list` answer it.
    public static func json(_ entry: Entry) -> JSONValue {
        ["id": .string(entry.id), "app": .string(entry.kind), "name": .string(entry.name), "control": .string(entry.socket),
         "profile": .string(entry.profile), "throwAway": .bool(entry.throwAway), "open": .bool(entry.open),
         "pooled": .bool(entry.pooled)]
    }

    /// `list`'s answer.
    public var json: JSONValue {
        ["apps": .array(entries.map(Self.json)), "limit": .number(Double(limit))]
    }
}
