import HostCore
/// How the saved list changed between what the running app knew and what the store says now.
public struct ServerListChange: Sendable, Equatable {
    /// Ids in the new list only, in its order.
    public var added: [String]
    /// Ids in the old list only, in its order.
    public var removed: [String]
    /// Ids in both whose address or installation differ (removed and added again under the
    /// same id): the server known by that id is another one now.
    public var replaced: [String]
    /// Ids in both with only their name changed.
    public var renamed: [String]

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && replaced.isEmpty && renamed.isEmpty }

    /// Linear in the lists' lengths.
    public init(from old: [ServerRecord], to new: [ServerRecord]) {
        var oldById: [String: ServerRecord] = [:]
        for record in old { oldById[record.id] = record }
        var newIds = Set<String>()
        added = []; replaced = []; renamed = []
        for record in new {
            newIds.insert(record.id)
            guard let before = oldById[record.id] else { added.append(record.id); continue }
            if before.address != record.address || !before.identity.installationId.isExactly(record.identity.installationId) {
                replaced.append(record.id)
            } else if before != record {
                renamed.append(record.id)
            }
        }
        removed = old.map(\.id).filter { !newIds.contains($0) }
    }
}

/// What the running app does when the store changed under it, in this order, each one done
/// before the next starts.
public enum ServerListEffect: Sendable, Equatable {
    /// Close the session shown (its page, sheets, sign-in window): its server is gone.
    case closeShown
    /// Let go of a removed (or replaced) server's network session and delete its website data
    /// through it, so nothing the app still holds writes it again after `server remove`.
    case forget(String)
    /// Show this saved server in the window (a fresh session on it).
    case show(String)
    /// End the app: no saved server is left to show.
    case quit(message: String)
    /// Offer the new list in the header's server switcher.
    case updateSwitcher
}

/// The running app follows the store: a server added meanwhile can be switched to, and a
/// removed server is closed before its website data is deleted.
public enum ServerListFollower {
    public static func reaction(to change: ServerListChange, shown: String, now records: [ServerRecord]) -> [ServerListEffect] {
        guard !change.isEmpty else { return [] }
        let gone = (change.removed + change.replaced).map(ServerListEffect.forget)
        if change.removed.contains(shown) {
            guard let next = records.first else {
                return [.closeShown] + gone + [.quit(message: "The server shown (\(shown)) was removed and no other is saved; add one with hostshell server add.")]
            }
            // The window shows the next server first: the removed one's page and web process
            // are gone before its data is deleted (a page still open writes its cache again).
            return [.show(next.id)] + gone + [.updateSwitcher]
        }
        if change.replaced.contains(shown) {
            // The same id, another server: its old session and data go before a fresh one starts.
            return [.closeShown] + gone + [.show(shown), .updateSwitcher]
        }
        return gone + [.updateSwitcher]
    }
}
