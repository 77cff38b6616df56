/// The host core's control commands (`--control SOCKET`), the ones every hosted app takes, and
/// an app's own command (`app`), which the app's contract decodes with its `ControlVocabulary`.
/// The core answers state, wait, events, snapshot, eval in the main page, resize and memory
/// pressure itself; the others it hands to the app, which may say it has no use for one.
public enum ControlCommand: Sendable, Equatable {
    /// The native UI state.
    case state
    /// Answer when every `path = value` of `until` holds in the state, or fail after `timeout`.
    case wait(until: StatePredicate, timeout: Double)
    /// A PNG of the window or of the web view alone, written to `path`.
    case snapshot(path: String, target: SnapshotTarget)
    /// Stream events on this connection from now on: `bridge` messages, `state` changes and
    /// `warning`s (all when `kinds` is empty). The answer comes first; event lines follow until the client
    /// hangs up, and the connection takes no more requests.
    case events(kinds: [String])
    /// Resize the window (unmaximized, not full screen) to `width` × `height` pixels, as a
    /// person dragging its edge would.
    case resize(width: Int, height: Int)
    /// Act as if the system had reported memory pressure (machines without a memory monitor).
    case memoryPressure
    /// Run a script in the page world and answer with its JSON value (sessions started with
    /// `--allow-eval` only: tests, never production). `inSheet` runs it in the shown sheet's
    /// page instead of main's, for an app that shows sheets.
    case eval(script: String, inSheet: Bool = false)
    /// Reload the page shown.
    case reload
    /// Go back as the app's back control (or the page's history) would.
    case back
    /// Open a link as the desktop would hand it to the app.
    case openURL(String)
    /// Answer the permission question that is open, or the next one asked (headless runs).
    case permission(grant: Bool)
    /// Act as the system would on the app's window: lose or get the focus, go to the
    /// background (hidden, minimised) or come back to the foreground.
    case lifecycle(LifecycleChange)
    /// Trigger one of the app's actions (`AppAction`: new-window, close-window, quit, reload,
    /// shortcuts, about, …) as its menu item or key would.
    case action(name: String, window: Int? = nil)
    /// Open a finished download (`open`) or show it in its folder (`show`).
    case download(id: Int, choice: String)
    /// Turn the device to `orientation` (the other way when nil): the window takes the turned
    /// size (`--device` named a phone or tablet).
    case rotate(DeviceOrientation?)
    /// Override what the device chrome's status bar shows (nil: `clear`, back to live values).
    case statusBar(StatusBarOverride?)
    /// One of the simulator's controls (`SimulatorCommand`: privacy, appearance, contrast,
    /// text size, location, pasteboard), carried out by the core for every app.
    case simulator(SimulatorCommand)
    /// One of the simulator's controls (locale, time zone, erase, root certificates, recording).
    case device(DeviceControl)
    /// A command of the app's own contract, decoded by its vocabulary.
    case app(AppCommand)

    public enum LifecycleChange: String, Sendable, Equatable, CaseIterable {
        case background, foreground, blur, focus

        /// A change by its name, or `hide`/`show` for background/foreground (as a window is).
        public init?(word: String) {
            switch word {
            case "hide": self = .background
            case "show": self = .foreground
            default: self.init(rawValue: word)
            }
        }
    }

    public enum SnapshotTarget: String, Sendable, Equatable {
        case window, page
    }

    /// True for `events`, which turns its connection into a stream.
    public var isEvents: Bool { if case .events = self { return true } else { return false } }

    /// The core's commands, every app takes them (an app may answer that it has no use for one).
    public static let names = ["state", "wait", "events", "snapshot", "eval", "resize", "memory-pressure", "reload", "back",
                               "open-url", "permission", "lifecycle", "action", "download", "rotate", "status-bar"] + SimulatorCommand.names + DeviceControl.names
    /// What `events` can stream.
    public static let eventKinds = ["bridge", "state", "warning", "device"]
}

/// A command of an app's own contract as it arrived: its name and the request's other members.
/// The app's `ControlVocabulary` reads it into its own command type.
public struct AppCommand: Sendable, Equatable {
    public var name: String
    public var arguments: JSONObject

    public init(_ name: String, _ arguments: JSONObject = [:]) {
        self.name = name
        self.arguments = arguments
    }

    /// The non-empty string under `key`, or a refusal that names the command and the key.
    public func string(_ key: String) throws(ControlError) -> String {
        guard let value = arguments[key]?.stringValue, !value.isEmpty else {
            throw ControlError("\(name) needs \"\(key)\" (a non-empty string)")
        }
        return value
    }

    /// The request line for this command (`ctl` builds these).
    public var line: String {
        var object: JSONObject = ["command": .string(name)]
        for member in arguments.members where member.key != "command" { object[member.key] = member.value }
        return JSONWriter.string(.object(object))
    }
}

/// A failed control request: one line saying what was wrong and what to do.
public struct ControlError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
