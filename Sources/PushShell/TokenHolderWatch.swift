import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// The stand-in's view of who holds which token (`TokenHolders`), read from the phone directory
/// and the app profiles once and kept until either changes — so a push costs no file lookups.
///
/// Changes are seen through inotify on the phone directory, the profiles' root and each profile
/// directory. Its descriptor is a main-loop source of high priority: GLib dispatches only the
/// highest-priority ready sources in an iteration, so a change that happened before a push's
/// bytes arrived is taken before that push is read. A watch is added before what it watches is
/// read, so a change made during a read is not missed. Without inotify (or when a watch cannot
/// be added) nothing is kept and every lookup reads the files.
@MainActor
package final class TokenHolderWatch {
    private let inotify: Int32
    private var source: UInt32 = 0
    private var kept: TokenHolders?

    init() {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { return }
        source = MainLoop.watch(inotify, G_IO_IN, priority: G_PRIORITY_HIGH) { [weak self] in
            self?.drain()
            return true
        }
    }

    isolated deinit {
        if source != 0 { g_source_remove(source) }
        if inotify >= 0 { close(inotify) }
    }

    /// Who holds what now.
    var holders: TokenHolders {
        if let kept { return kept }
        var watched = inotify >= 0
        let holders = Self.read { directory in
            if watched, !watchWhereItWillBe(directory) { watched = false }
        }
        if watched { kept = holders }
        return holders
    }

    /// Watches `directory`, or while it is missing the deepest folder above it that exists (so
    /// its making is seen); a folder on the way made meanwhile is watched too. False when
    /// inotify refuses a watch.
    private func watchWhereItWillBe(_ directory: String) -> Bool {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)
        let parts = directory.split(separator: "/", omittingEmptySubsequences: true)
        func path(_ count: Int) -> String { "/" + parts.prefix(count).joined(separator: "/") }
        var depth = parts.count
        while depth > 0, access(path(depth), F_OK) != 0 { depth -= 1 }
        while true {
            guard inotify_add_watch(inotify, path(depth), mask) >= 0 else { return false }
            // Watched before looking further down: a folder made after this is an event.
            guard depth < parts.count, access(path(depth + 1), F_OK) == 0 else { return true }
            depth += 1
        }
    }

    /// Reads who holds what from the files, calling `watching` with each directory before
    /// reading it.
    static func read(watching: (String) -> Void = { _ in }) -> TokenHolders {
        watching(PhoneListener.directory)
        let entries = DirectoryNames.of(PhoneListener.directory).compactMap { PhoneDirectory.token(ofEntryName: $0) }
            .compactMap(PhoneDelivery.readEntry)
        watching(AppProfiles.root)
        let profiles = DirectoryNames.of(AppProfiles.root).filter { !$0.hasPrefix(".") }.compactMap { appId -> TokenHolders.ProfileRecord? in
            watching(AppProfiles.directory(appId))
            return AppProfiles.profile(appId).map { TokenHolders.ProfileRecord(appId: $0.appId, record: $0.record) }
        }
        return TokenHolders(entries: entries, profiles: profiles)
    }

    /// Any change forgets what was kept.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ Glibc.read(inotify, $0.baseAddress, $0.count) }) > 0 { kept = nil }
    }
}
