import CapacitorContract
import CapacitorShell
import HomeSec
import HostCore

extension CapacitorPluginSet {
    /// HomeSec's own plugins with their glue: `HomeSecAuth` on the platform secret store,
    /// `HomeSecDevice` (no glue: its facts are in `CapacitorAppInfo`).
    static var homeSec: CapacitorPluginSet {
        CapacitorPluginSet(types: HomeSecPluginTypes.all, glues: [HomeSecAuth.pluginName: { HomeSecAuthGlue($0) }],
                           prepare: [chooseSecretStore])
    }

    /// Chooses where HomeSecAuth keeps its entries (`--credential-store`), and says so.
    @MainActor private static func chooseSecretStore(_ preference: String) throws -> String {
        let reason = "HomeSecAuth keeps its entries " + (try CapacitorSecretStores.choose(preference))
        CapacitorApp.secretErasers.append(HomeSecSecretStore.eraseAll)
        return reason
    }

    /// What `hostshell capacitor` runs an app with: Capacitor's own plugins and HomeSec's, as
    /// HomeSec's iOS app registers them. An app that never calls HomeSec's plugins sees only
    /// their headers, as it would in any shell that bundles them.
    package static var withHomeSec: CapacitorPluginSet { standard.adding(homeSec) }
}
