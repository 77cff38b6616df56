import HostCore

/// `@capacitor/app` as its iOS shell runs it (contract §4): the window's focus and visibility in
/// iOS's meaning, the launch URL and links.
///
/// Active is "has the focus" (iOS: not resigned active); foreground is "shown" (iOS: not in the
/// background). Losing the focus sends `appStateChange {isActive: false}` only; going to the
/// background also `pause`; coming back `resume`, then `appStateChange {isActive: true}`.
public struct AppPlugin: CapacitorPlugin {
    public static let name = "App"
    public static let methods = [CapacitorMethod("getInfo"), CapacitorMethod("getLaunchUrl"), CapacitorMethod("getState")]
    public static let retainedEvents: Set<String> = ["appUrlOpen"]

    public private(set) var isActive = true
    public private(set) var inForeground = true
    /// The last URL that opened the app (cold or warm), as `getLaunchUrl` answers.
    public private(set) var lastURL: String?
    /// Lifecycle events sent, in order (for `ctl state`: the last few).
    public private(set) var history: [String] = []
    private let app: CapacitorAppInfo

    public static let historyLength = 16

    public init(_ app: CapacitorAppInfo) { self.app = app }

    public mutating func call(_ call: CapacitorCall) -> [PluginEffect] {
        switch call.methodName {
        case "getState": return [.resolve(call, ["isActive": .bool(isActive)])]
        case "getLaunchUrl": return [.resolve(call, lastURL.map { ["url": .string($0)] })]
        case "getInfo":
            let version = JSONValue.string(app.appVersion ?? "")
            return [.resolve(call, ["name": .string(app.appName ?? ""), "id": .string(app.appId ?? ""), "build": version, "version": version])]
        default: return [.reject(call, .unknownMethod(Self.name, call.methodName))]
        }
    }

    public mutating func hostEvent(_ event: PluginHostEvent) -> [PluginEffect]? {
        switch event {
        case .lifecycle(let change): return move(to: target(change))
        case .appState(let new): return move(to: new)
        case .openURL(let url, let launch):
            lastURL = url
            // A cold start reads it with getLaunchUrl; a running app is told.
            if launch { return [] }
            return [.emit(event: "appUrlOpen", data: ["url": .string(url), "iosSourceApplication": "", "iosOpenInPlace": false])]
        default: return nil
        }
    }

    /// The state as the plugin's events left it.
    public var appState: AppState { !inForeground ? .background : isActive ? .active : .inactive }

    /// A window change as the state it leaves the app in: the focus lost in the background
    /// leaves it there; the focus got, or shown again, makes it active.
    private func target(_ change: ControlCommand.LifecycleChange) -> AppState {
        switch change {
        case .blur: appState == .background ? .background : .inactive
        case .background: .background
        case .focus, .foreground: .active
        }
    }

    /// Capacitor's iOS App plugin names iOS's notifications (ionic-team/capacitor-plugins,
    /// app/ios AppPlugin.swift): willResignActive → `appStateChange {isActive: false}`,
    /// didEnterBackground → `pause`, willEnterForeground → `resume`, didBecomeActive →
    /// `appStateChange {isActive: true}`; here each transition to `new`, in iOS's order.
    private mutating func move(to new: AppState) -> [PluginEffect] {
        var effects: [PluginEffect] = []
        func send(_ event: String, _ data: JSONObject = [:]) {
            effects.append(.emit(event: event, data: data))
            history.append(event == "appStateChange" ? "appStateChange:\(data["isActive"] == true)" : event)
            if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
        }
        for transition in appState.transitions(to: new) {
            switch transition {
            case .willResignActive: isActive = false; send("appStateChange", ["isActive": false])
            case .didEnterBackground: inForeground = false; send("pause")
            case .willEnterForeground: inForeground = true; send("resume")
            case .didBecomeActive: isActive = true; send("appStateChange", ["isActive": true])
            }
        }
        return effects
    }

    public var state: JSONObject {
        [
            "isActive": .bool(isActive),
            "inForeground": .bool(inForeground),
            "lifecycle": .string(appState.rawValue),
            "launchUrl": lastURL.map(JSONValue.string) ?? .null,
            "history": .array(history.map(JSONValue.string)),
        ]
    }
}
