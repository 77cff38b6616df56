import CGtk
import HostCore
import ShellKit
import StudioContract

/// The running app follows the saved-servers store: `server add` and `server remove` tell it
/// over its instance socket (`servers-changed`), and it reads the store again and carries out
/// `ServerListFollower`'s effects, one after the other — a new server appears in the switcher
/// and can be switched to; a removed server on screen is closed, and every removed server's
/// website data is deleted through its own network session, before the answer goes back (so
/// `server remove` deletes its directories only once nothing in the app can write them again).
extension ShellApp {
    func followStore(done: @escaping @MainActor (Result<String, ControlError>) -> Void) {
        let now: [ServerRecord]
        do throws(UsageError) { now = try ServerStoreFile.standard.load(keepingDamageAside: false) } catch {
            return done(.failure(ControlError("the saved servers could not be read: \(error.message)")))
        }
        let change = ServerListChange(from: records, to: now)
        let effects = ServerListFollower.reaction(to: change, shown: session.record.id, now: now)
        records = now
        perform(effects[...]) {
            done(.success(change.isEmpty ? "nothing changed" : "\(change.added.count) added, \(change.removed.count) removed, "
                          + "\(change.replaced.count) replaced, \(change.renamed.count) renamed"))
        }
    }

    private func perform(_ effects: ArraySlice<ServerListEffect>, then finished: @escaping @MainActor () -> Void) {
        guard let effect = effects.first else { return finished() }
        let rest = effects.dropFirst()
        switch effect {
        case .closeShown:
            closeShown()
            perform(rest, then: finished)
        case .forget(let id):
            forgetWebsiteData(of: id) { [weak self] in self?.perform(rest, then: finished) ?? finished() }
        case .show(let id):
            if let record = records.first(where: { $0.id == id }) { show(record) }
            perform(rest, then: finished)
        case .quit(let message):
            printError("hostshell: \(message)")
            finished()
            MainLoop.whenIdle { [weak self] in self?.onQuit?(message) }  // once the answer is written
        case .updateSwitcher:
            refreshSwitcher()
            onScreenChanged?()
            perform(rest, then: finished)
        }
    }

    /// Lets go of a server's network session after deleting all its website data through it
    /// (cookies, storage, caches), so its network process has nothing left to write. Under
    /// `--automation` the session is WebKit's own throw-away one, shared, and is left alone.
    private func forgetWebsiteData(of id: String, then finished: @escaping @MainActor () -> Void) {
        forgotten.insert(id)
        guard let network = networkSessions.removeValue(forKey: id) else { return finished() }
        guard environment.automation == nil else { return finished() }
        let manager = webkit_network_session_get_website_data_manager(network)
        webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, AsyncReply.callback, AsyncReply.data { source, result in
            var error: UnsafeMutablePointer<GError>? = nil
            _ = webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error)
            g_clear_error(&error)  // what could not be deleted, `server remove` deletes with the directories
            g_object_unref(UnsafeMutableRawPointer(network))
            finished()
        })
    }
}

extension ShellApp {
    /// When the app ends: deletes the profile directories of the servers removed while it ran
    /// (and not saved again), once more. WebKit's network process writes its HTTP disk cache a
    /// while after a page's loads, and a write already under way when the session is let go of
    /// still lands (measured: about 1 run in 6 wrote two cache records of the removed server
    /// after its `WebKitNetworkSession` was finalized); cookies and storage never come back.
    func removeForgottenProfiles() {
        let saved = Set(records.map(\.id))
        for id in forgotten where !saved.contains(id) {
            let directories = ServerStoreFile.profileDirectories(for: id, root: environment.profileRoot)
            removeTree(directories.data)
            removeTree(directories.cache)
        }
    }
}
