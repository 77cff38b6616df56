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
    /// How long a client of a control or instance socket waits for the app to take its
    /// connection (a frozen app stops accepting; its queue fills) and then to read its request.
    public static let connectDeadline = 5.0

    /// What a client says when the app at `socket` did not answer in time: which app, which step,
    /// and what to do.
    public static func unanswered(_ app: String, _ step: UnansweredStep, within seconds: Double) -> String {
        let time = seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
        let what = switch step {
        case .connect: "did not accept the connection within \(time)"
        case .send: "did not read the request within \(time)"
        case .answer: "did not answer within \(time)"
        }
        return "\(app) \(what): it may be stuck (a page spinning, a dialog open); end it or try again"
    }

    public enum UnansweredStep: Sendable { case connect, send, answer }
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
        guard let name = object["command"]?.stringValue, !name.isEmpty else {
            throw ControlError("\"command\" is required: one of \(ControlCommand.names.joined(separator: ", ")), or one of the app's own (hostshell ctl --help)")
        }
        func string(_ key: String) throws(ControlError) -> String { try AppCommand(name, object).string(key) }
        switch name {
        case "state": return .state
        case "back": return .back
        case "reload": return .reload
        case "memory-pressure": return .memoryPressure
        case "open-url": return .openURL(try string("url"))
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
        case "events":
            guard let raw = object["kinds"] else { return .events(kinds: []) }
            guard let kinds = raw.arrayValue?.compactMap(\.stringValue), kinds.count == raw.arrayValue?.count,
                  kinds.allSatisfy(ControlCommand.eventKinds.contains) else {
                throw ControlError("events \"kinds\" is a list of \(ControlCommand.eventKinds.joined(separator: ", "))")
            }
            return .events(kinds: kinds)
        case "rotate":
            guard let raw = object["orientation"] else { return .rotate(nil) }
            guard let orientation = raw.stringValue.flatMap(DeviceOrientation.init(rawValue:)) else {
                throw ControlError("rotate \"orientation\" is portrait or landscape (or leave it out to turn the other way)")
            }
            return .rotate(orientation)
        case "status-bar":
            if object["clear"] == .bool(true) {
                guard object.members.allSatisfy({ ["command", "id", "clear"].contains($0.key) }) else {
                    throw ControlError("status-bar clear takes nothing else")
                }
                return .statusBar(nil)
            }
            return .statusBar(try StatusBarOverride.decode(object))
        case "resize":
            func side(_ key: String) throws(ControlError) -> Int {
                guard let value = object[key]?.numberValue, value == value.rounded(), value >= Double(ControlRequest.minWindowSide),
                      value <= Double(ControlRequest.maxWindowSide) else {
                    throw ControlError("resize \"\(key)\" is a whole number of pixels from \(ControlRequest.minWindowSide) to \(ControlRequest.maxWindowSide)")
                }
                return Int(value)
            }
            return .resize(width: try side("width"), height: try side("height"))
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
        case let simulator where SimulatorCommand.names.contains(simulator):
            return .simulator(try SimulatorCommand.decode(name, object))
        case _ where DeviceControl.names.contains(name):
            return .device(try DeviceControl.decode(name, object))
        default:
            // Another contract's command: the app reads it with its vocabulary, or refuses it.
            // (`id` stays among its members: `notification` names a notification by it.)
            var arguments = object
            arguments["command"] = nil
            return .app(AppCommand(name, arguments))
        }
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

