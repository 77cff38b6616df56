import HostCore

/// The plugin seam (docs/architecture.md "How to add a plugin"). A plugin is a pure value: the
/// bridge hands it each decoded call for its name and each host event, and it answers with
/// effects — resolve, reject, an event to its listeners, or a request for the host to do effectful
/// work (the secret store, a dialog…), whose answer comes back to it as `answered`. It never
/// touches the page or the system itself. Standard plugins are listed once, in `CapacitorPlugins.standard`.
public protocol CapacitorPlugin: Sendable {
    /// The name the page registers (`registerPlugin(name)`), and its `PluginHeaders` entry.
    static var name: String { get }
    /// Its own methods (the five every header lists are added by `CapacitorPluginHeader`).
    static var methods: [CapacitorMethod] { get }
    /// Events kept for the first listener when none is there yet (`appUrlOpen`…).
    static var retainedEvents: Set<String> { get }
    /// Methods whose `value` (in the call's options or the result's data) is a secret, hidden
    /// in the bridge log and the event stream (`CapacitorSecrets`).
    static var secretValueMethods: Set<String> { get }

    /// Made once per app, with what the app's configuration says.
    init(_ app: CapacitorAppInfo)

    /// A call to one of its methods (or `checkPermissions`/`requestPermissions`, which resolve
    /// with no data unless the plugin answers them). Listener bookkeeping is the bridge's.
    mutating func call(_ call: CapacitorCall) -> [PluginEffect]
    /// The host's answer to one of its `.ask`s.
    mutating func answered(_ answer: HostAnswer) -> [PluginEffect]
    /// Something the host reports (window lifecycle, a link, a control command…); nil when the
    /// event is not this plugin's.
    mutating func hostEvent(_ event: PluginHostEvent) -> [PluginEffect]?
    /// A listener was added for `event` (after retained events were delivered to it).
    mutating func listenerAdded(_ event: String) -> [PluginEffect]
    /// Its part of `ctl state` (never a secret's value).
    var state: JSONObject { get }
}

extension CapacitorPlugin {
    public static var retainedEvents: Set<String> { [] }
    public static var secretValueMethods: Set<String> { [] }
    public mutating func answered(_ answer: HostAnswer) -> [PluginEffect] { [] }
    public mutating func hostEvent(_ event: PluginHostEvent) -> [PluginEffect]? { nil }
    public mutating func listenerAdded(_ event: String) -> [PluginEffect] { [] }
    public var state: JSONObject { [:] }
    public var name: String { Self.name }
}

/// One method of a plugin header, with how the page calls it.
public struct CapacitorMethod: Sendable, Equatable {
    public enum ReturnType: String, Sendable {
        /// `nativePromise`: one answer.
        case promise
        /// `nativeCallback`: answers kept on one callback (`rtype: "callback"`).
        case callback
        /// `nativeCallback` with no answer (no `rtype` in the header).
        case none
    }

    public var name: String
    public var returnType: ReturnType

    public init(_ name: String, _ returnType: ReturnType = .promise) { self.name = name; self.returnType = returnType }

    public var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        if returnType != .none { object["rtype"] = .string(returnType.rawValue) }
        return .object(object)
    }
}

/// What every plugin is made with: the app's identity and configuration.
public struct CapacitorAppInfo: Sendable, Equatable {
    /// `appId` (the bundle id), nil when none was given.
    public var appId: String?
    public var appName: String?
    public var appVersion: String?
    /// The device's name as the system gives it.
    public var deviceName: String?
    /// `sandbox` or `production` (`--apns-environment`).
    public var apnsEnvironment: String
    /// The project's `plugins` block of `capacitor.config.json`, by plugin name.
    public var pluginConfig: JSONObject

    public init(appId: String? = nil, appName: String? = nil, appVersion: String? = nil, deviceName: String? = nil,
                apnsEnvironment: String = "sandbox", pluginConfig: JSONObject = [:]) {
        self.appId = appId; self.appName = appName; self.appVersion = appVersion; self.deviceName = deviceName
        self.apnsEnvironment = apnsEnvironment; self.pluginConfig = pluginConfig
    }

    /// `plugins.<name>` of the configuration.
    public func config(for plugin: String) -> JSONObject { pluginConfig[plugin]?.objectValue ?? [:] }
}

/// What a plugin asks for.
public enum PluginEffect: Sendable, Equatable {
    /// Answer `call` (dropped when the call's document is gone or nobody waits).
    case resolve(CapacitorCall, JSONObject?)
    case reject(CapacitorCall, CapacitorError)
    /// An event to the plugin's listeners (`save: true`); queued when none listens and the
    /// event is one of its `retainedEvents`, else dropped.
    case emit(event: String, data: JSONObject)
    /// Effectful work for the plugin's glue (see `HostRequest`), answered later with `answered`.
    /// `call`, when given, is the call waiting on it, handed back in the answer.
    case ask(action: String, arguments: JSONObject, call: CapacitorCall?)
    /// One of the plugin's timers, by name (at most one per name); it fires as
    /// `hostEvent(.timerFired(name))`.
    case startTimer(String, after: Double)
    case cancelTimer(String)
    /// A line for the bridge log and event stream (what the plugin did, for people).
    case note(String)
}

/// Effectful work a plugin asked for, as its glue receives it.
public struct HostRequest: Sendable, Equatable {
    /// Names the request in `answered` (the bridge numbers them).
    public var ticket: Int
    public var plugin: String
    /// What to do, in the plugin's own words (`secret.get`, `permission.ask`…).
    public var action: String
    public var arguments: JSONObject

    public init(ticket: Int, plugin: String, action: String, arguments: JSONObject) {
        self.ticket = ticket; self.plugin = plugin; self.action = action; self.arguments = arguments
    }
}

/// A request's outcome, from the glue: a value, or what went wrong in a sentence.
public typealias HostOutcome = Result<JSONValue, HostFailure>

public struct HostFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The host's answer as the plugin receives it: the request and the call waiting on it.
public struct HostAnswer: Sendable, Equatable {
    public var action: String
    public var arguments: JSONObject
    /// The call that asked, when one did; resolving it after its document is gone is harmless.
    public var call: CapacitorCall?
    public var outcome: HostOutcome

    public init(action: String, arguments: JSONObject, call: CapacitorCall?, outcome: HostOutcome) {
        self.action = action; self.arguments = arguments; self.call = call; self.outcome = outcome
    }
}

/// Events from the host, offered to every plugin until one takes it.
public enum PluginHostEvent: Sendable, Equatable {
    /// The window lost or got the focus, went to the background or came back.
    case lifecycle(ControlCommand.LifecycleChange)
    /// The app is now in this state (`AppLifecycle`); offered to every plugin, like `lifecycle`.
    case appState(AppState)
    /// A link for the app (`hostshell open-url`, the desktop); `launch` when it started the app.
    case openURL(String, launch: Bool)
    /// `ctl permission grant|deny`.
    case permission(grant: Bool)
    /// `ctl push-token rotate`.
    case rotatePushToken
    /// A timer the plugin started fired (offered to that plugin only).
    case timerFired(String)
    /// Anything else the glue reports, by name (e.g. a push delivered).
    case custom(String, JSONObject)
}

/// The header `registerPlugin` reads for a plugin.
public enum CapacitorPluginHeader {
    /// Every header lists these first, as Capacitor's iOS shell does.
    public static let standardMethods: [CapacitorMethod] = [
        CapacitorMethod("addListener", .none), CapacitorMethod("removeListener", .none),
        CapacitorMethod("removeAllListeners"), CapacitorMethod("checkPermissions"), CapacitorMethod("requestPermissions"),
    ]

    public static func json(_ plugin: any CapacitorPlugin.Type) -> JSONValue {
        let own = plugin.methods.filter { method in !standardMethods.contains { $0.name == method.name } }
        return ["name": .string(plugin.name), "methods": .array((standardMethods + own).map(\.json))]
    }

    /// `window.Capacitor.PluginHeaders` for these plugins.
    public static func all(_ plugins: [any CapacitorPlugin.Type]) -> JSONValue { .array(plugins.map(json)) }
}
