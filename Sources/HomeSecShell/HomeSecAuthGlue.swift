import CGtk
import CapacitorContract
import CapacitorShell
import HomeSec
import ShellKit

/// HomeSecAuth's glue: runs each call's rules (`HomeSecAuth.call`) against the app's secret
/// store and answers with the result, the store's entry names (never values) and which store
/// it is. Everything is answered at once.
@MainActor
package final class HomeSecAuthGlue: CapacitorPluginGlue {
    let store: HomeSecSecretStore

    init(_ context: CapacitorGlueContext) {
        store = HomeSecSecretStore(kind: CapacitorSecretStores.kind, app: context.app.appId ?? context.dataDirectory,
                                   dataDirectory: context.dataDirectory)
        // `ctl state` shows the stored entries' names from the start, not only after a call.
        let post = context.post
        MainLoop.whenIdle { [weak self] in
            guard let self else { return }
            post(.custom(HomeSecAuthPlugin.entriesEvent, ["entries": HomeSecAuth.entryNames(self.store), "store": .string(self.store.kind.rawValue)]))
        }
    }

    package func perform(_ request: HostRequest, answer: @escaping @MainActor (HostOutcome) -> Void) {
        guard request.action == HomeSecAuthPlugin.action, let method = request.arguments["method"]?.stringValue else {
            answer(.failure(HostFailure("HomeSecAuth's glue does not know \(request.action)")))
            return
        }
        let options = request.arguments["options"]?.objectValue ?? [:]
        guard let result = HomeSecAuth.call(method, options: options, store: store) else {
            answer(.failure(HostFailure("HomeSecAuth.\(method)() is not implemented on ios")))
            return
        }
        var reply = result.reply
        reply["entries"] = HomeSecAuth.entryNames(store)
        reply["store"] = .string(store.kind.rawValue)
        answer(.success(.object(reply)))
    }
}
