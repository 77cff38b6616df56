import CGtk
import CapacitorContract
import HostCore
import ShellKit

/// The effectful half of a plugin (docs/architecture.md "How to add a plugin"): it carries out
/// the `HostRequest`s its pure plugin asks for — the secret store, a dialog, a file in the
/// app's profile — and answers each exactly once, now or later. It decides nothing the contract
/// says; the plugin does.
@MainActor
package protocol CapacitorPluginGlue: AnyObject {
    /// Carries out `request` (its `action` and `arguments` are the plugin's own words) and calls
    /// `answer` once with the value or a one-sentence failure.
    func perform(_ request: HostRequest, answer: @escaping @MainActor (HostOutcome) -> Void)
    /// The page is going away for good (the app ends): stop anything running.
    func close()
}

extension CapacitorPluginGlue {
    package func close() {}
}

/// What a plugin's glue is made with: who the app is, where its data lives, and a way back into
/// the bridge for what happens on the host's own initiative (a push arrived, a dialog answered).
@MainActor
package struct CapacitorGlueContext {
    /// The app as its configuration describes it.
    package let app: CapacitorAppInfo
    /// The app's own persistent directory (its profile: one per app id), for files it keeps.
    package let dataDirectory: String
    /// Whether a person can answer dialogs (false in a kiosk or on a display the app started).
    let attended: Bool
    let environment: AppEnvironment
    /// The app's window, for a dialog's parent (nil before it is shown).
    package let window: () -> WidgetPointer?
    /// Reports a host event to the plugins (`PluginHostEvent.custom` and the others).
    package let post: (PluginHostEvent) -> Void
    /// Whether the app is in the foreground as its plugins saw the lifecycle (nil: not known).
    var inForeground: () -> Bool? = { nil }
    /// The page's permission center, where the app's own questions take their turn (nil: the
    /// glue's own, as in tests without a page).
    var permissions: PermissionCenter?
    /// The page, for a question's prompt and its system surface.
    var page: () -> WebPage? = { nil }
    /// A person opened one of the app's notifications: the app's lifecycle delivers `response`
    /// and brings the app forward around it (nil: posted to the plugins as it is).
    var notificationOpened: ((PluginHostEvent) -> Void)?
}

/// The plugins an app runs with: their pure types and, for those that ask the host for work,
/// their glue by plugin name. `standard` is Capacitor's own; the command that runs an app adds
/// the app's own plugins (`adding`). A request for a plugin with no glue fails with a clear
/// message.
package struct CapacitorPluginSet: Sendable {
    package typealias MakeGlue = @MainActor @Sendable (CapacitorGlueContext) -> any CapacitorPluginGlue
    /// Runs once before the app starts, with `--credential-store`'s word and the app's data
    /// directory (the choice is the app's: a fleet runs apps with different ones); says what it
    /// chose, for the start-up report, or refuses the word.
    package typealias Prepare = @MainActor @Sendable (_ credentialStore: String, _ dataDirectory: String) throws -> String
    var types: [any CapacitorPlugin.Type]
    var glues: [String: MakeGlue]
    var prepare: [Prepare]

    package init(types: [any CapacitorPlugin.Type], glues: [String: MakeGlue], prepare: [Prepare] = []) {
        self.types = CapacitorPlugins.combined(types)
        self.glues = glues
        self.prepare = prepare
    }

    package static var standard: CapacitorPluginSet {
        CapacitorPluginSet(types: CapacitorPlugins.standard, glues: [PushNotifications.pluginName: { PushNotificationsGlue($0) }])
    }

    /// This set and `other`'s plugins, each name once (this set's wins).
    package func adding(_ other: CapacitorPluginSet) -> CapacitorPluginSet {
        CapacitorPluginSet(types: CapacitorPlugins.combined(types, other.types), glues: glues.merging(other.glues) { mine, _ in mine },
                           prepare: prepare + other.prepare)
    }

    /// Which methods' values the logs hide.
    var secrets: CapacitorSecrets { CapacitorSecrets(plugins: types) }
}
