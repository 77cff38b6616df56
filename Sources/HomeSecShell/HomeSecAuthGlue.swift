import CGtk
import CapacitorContract
import CapacitorShell
import Dispatch
import HomeSec
import HostCore
import ShellKit

/// HomeSecAuth's glue: runs each call's rules (`HomeSecAuth.call`) against the app's secret
/// store and answers with the result, the store's entry names (never values) and which store
/// it is. The store is the keyring or a file, and the keyring may hold a call for as long as
/// its prompt (a new password, an unlock) waits for a person: so calls run off the main thread,
/// one at a time and in the order the page made them, and each is answered on the main loop
/// when it is done. The window keeps drawing and `ctl` keeps answering meanwhile.
@MainActor
package final class HomeSecAuthGlue: CapacitorPluginGlue {
    let store: HomeSecSecretStore
    /// One queue per app: a `set` then a `get` from the page meet the store in that order.
    private let calls = DispatchQueue(label: "HomeSecAuth's secret store")
    private let post: (PluginHostEvent) -> Void

    init(_ context: CapacitorGlueContext) {
        let store = HomeSecSecretStore(kind: CapacitorSecretStores.kind(for: context.dataDirectory), app: context.app.appId ?? context.dataDirectory,
                                       dataDirectory: context.dataDirectory)
        self.store = store
        post = context.post
        // `ctl state` shows the stored entries' names from the start, not only after a call.
        calls.async { [weak self] in
            let entries = HomeSecAuth.entryNames(store)
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self?.post(.custom(HomeSecAuthPlugin.entriesEvent, ["entries": entries, "store": .string(store.kind.rawValue)]))
                }
            }
        }
    }

    package func perform(_ request: HostRequest, answer: @escaping @MainActor (HostOutcome) -> Void) {
        guard request.action == HomeSecAuthPlugin.action, let method = request.arguments["method"]?.stringValue else {
            answer(.failure(HostFailure("HomeSecAuth's glue does not know \(request.action)")))
            return
        }
        guard HomeSecAuth.methods.contains(method) else {
            answer(.failure(HostFailure("HomeSecAuth.\(method)() is not implemented on ios")))
            return
        }
        let options = request.arguments["options"]?.objectValue ?? [:]
        let store = store
        let reply = Reply(answer)
        calls.async {
            var result = HomeSecAuth.call(method, options: options, store: store)?.reply ?? [:]
            result["entries"] = HomeSecAuth.entryNames(store)
            result["store"] = .string(store.kind.rawValue)
            let outcome = JSONValue.object(result)
            DispatchQueue.main.async { MainActor.assumeIsolated { reply.send(.success(outcome)) } }
        }
    }
}

/// A call's answer, carried to the store's queue and back to the main loop, where alone it runs.
private final class Reply: @unchecked Sendable {
    private let answer: @MainActor (HostOutcome) -> Void
    init(_ answer: @escaping @MainActor (HostOutcome) -> Void) { self.answer = answer }
    @MainActor func send(_ outcome: HostOutcome) { answer(outcome) }
}
