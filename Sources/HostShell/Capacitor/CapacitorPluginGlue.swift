import BridgeRuntime
import CGtk

/// The effectful half of a plugin (docs/architecture.md "How to add a plugin"): it carries out
/// the `HostRequest`s its pure plugin asks for — the secret store, a dialog, a file in the
/// app's profile — and answers each exactly once, now or later. It decides nothing the contract
/// says; the plugin does.
@MainActor
protocol CapacitorPluginGlue: AnyObject {
    /// Carries out `request` (its `action` and `arguments` are the plugin's own words) and calls
    /// `answer` once with the value or a one-sentence failure.
    func perform(_ request: HostRequest, answer: @escaping @MainActor (HostOutcome) -> Void)
    /// The page is going away for good (the app ends): stop anything running.
    func close()
}

extension CapacitorPluginGlue {
    func close() {}
}

/// What a plugin's glue is made with: who the app is, where its data lives, and a way back into
/// the bridge for what happens on the host's own initiative (a push arrived, a dialog answered).
@MainActor
struct CapacitorGlueContext {
    /// The app as its configuration describes it.
    let app: CapacitorAppInfo
    /// The app's own persistent directory (its profile: one per app id), for files it keeps.
    let dataDirectory: String
    /// Whether a person can answer dialogs (false in a kiosk or on a display the app started).
    let attended: Bool
    let environment: AppEnvironment
    /// The app's window, for a dialog's parent (nil before it is shown).
    let window: () -> WidgetPointer?
    /// Reports a host event to the plugins (`PluginHostEvent.custom` and the others).
    let post: (PluginHostEvent) -> Void
    /// Whether the app is in the foreground as its plugins saw the lifecycle (nil: not known).
    var inForeground: () -> Bool? = { nil }
}

/// The glue of every plugin that has one, by plugin name. Adding a plugin that asks the host
/// for work is its pure file (listed in `CapacitorPlugins.builtIn`), its glue file, and one
/// line here. A request for a plugin with no glue fails with a clear message.
@MainActor
enum CapacitorPluginGlues {
    static let all: [String: @MainActor (CapacitorGlueContext) -> any CapacitorPluginGlue] = [
        HomeSecAuth.pluginName: { HomeSecAuthGlue($0) },
        PushNotifications.pluginName: { PushNotificationsGlue($0) },
    ]
}
