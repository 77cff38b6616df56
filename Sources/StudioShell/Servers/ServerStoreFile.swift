import CGtk
import Glibc
import HostCore
import ShellKit
import StudioContract

/// The saved servers on disk: `$XDG_CONFIG_HOME/hostshell/servers.json`, owner-only, replaced
/// atomically (temporary file in the same directory, fsync, rename, fsync of the directory) so a
/// crash or kill -9 at any moment leaves either the old list or the new one. Every change is a
/// read-modify-write under the store's lock (`StoreLock`), so parallel changes are all kept; a
/// writer that was killed leaves at most a temporary, which the next writer removes. A damaged
/// file is reported and kept aside under a name no other kept copy has, never silently replaced;
/// one from a newer HostShell is left alone; anything but a regular file (a pipe, a directory, a
/// device, a huge file) is refused without being read (`ServerStoreRules.refusal`).
package struct ServerStoreFile {
    let directory: String
    package var path: String { directory + "/" + ServerStoreRules.fileName }
    var lockPath: String { directory + "/" + ServerStoreRules.lockFileName }

    /// The store in the user's configuration directory.
    package static var standard: ServerStoreFile {
        ServerStoreFile(directory: String(cString: g_get_user_config_dir()) + "/hostshell")
    }

    /// Website data and cache of one server's profile.
    /// `root`: a throw-away profile's home (`ROOT/data/…`, `ROOT/cache/…`) instead of the user's.
    static func profileDirectories(for id: String, root: String? = nil) -> (data: String, cache: String) {
        ((root.map { $0 + "/data" } ?? String(cString: g_get_user_data_dir())) + "/hostshell/servers/" + id,
         (root.map { $0 + "/cache" } ?? String(cString: g_get_user_cache_dir())) + "/hostshell/servers/" + id)
    }

    /// The saved servers. A missing file is an empty list; a damaged one is moved aside (under
    /// the lock) with a warning on standard error, and the list starts empty — or, when
    /// `keepingDamageAside` is false (the running app reading it again), is left where it is and
    /// reported as an error.
    package func load(keepingDamageAside: Bool = true) throws(UsageError) -> [ServerRecord] {
        switch try readList() {
        case .success(let records): return records
        case .failure(let problem) where !keepingDamageAside:
            throw UsageError("\(path) is damaged (\(problem)); the app keeps the servers it knows. Run hostshell server list to keep the damaged file aside and start over.")
        case .failure:
            try prepareDirectory()
            let lock = try StoreLock(path: lockPath)
            defer { lock.release() }
            return try readKeepingDamageAside()
        }
    }

    /// Changes the list as one read-modify-write under the lock: `change` sees the list as it is
    /// now, after every change that came before, and the list is saved when it returns. Stale
    /// temporaries of killed writers are removed first.
    func update<T>(_ change: (inout [ServerRecord]) throws(UsageError) -> T) throws(UsageError) -> T {
        try prepareDirectory()
        let lock = try StoreLock(path: lockPath)
        defer { lock.release() }
        sweepTemporaries()
        var records: [ServerRecord]
        switch try readList() {
        case .success(let current): records = current
        case .failure: records = try readKeepingDamageAside()
        }
        let before = records
        let result = try change(&records)
        if records != before {
            try AtomicFile.write(ServerStoreFormat.encode(records), to: writePath(), what: "the server list")
        }
        return result
    }

    // MARK: reading

    /// The list, or what is wrong with its contents. Refuses (throws) anything that is not a
    /// regular file of a sane size without reading it, and a list from a newer HostShell.
    private func readList() throws(UsageError) -> Result<[ServerRecord], ServerStoreFormat.Problem> {
        let entry = Self.entry(at: path)
        if let refusal = ServerStoreRules.refusal(entry, path: path) { throw UsageError(refusal) }
        guard entry != .missing else { return .success([]) }
        // Non-blocking, so a pipe put there after the check still cannot hang the read.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return .success([]) }
            throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))") }
        let opened = Self.entry(status)
        if let refusal = ServerStoreRules.refusal(opened, path: path) { throw UsageError(refusal) }
        var bytes = [UInt8](repeating: 0, count: ServerStoreFormat.maxFileBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 { if errno == EINTR { continue }; throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            count += n
        }
        if let refusal = ServerStoreRules.refusal(.regular(size: count), path: path) { throw UsageError(refusal) }
        switch ServerStoreFormat.decode(Array(bytes[0..<count])) {
        case .success(let records): return .success(records)
        case .failure(.newerSchema(let version)):
            throw UsageError("\(path) was written by a newer HostShell (schema \(version)); it is left untouched. Use that HostShell, or move the file away to start over.")
        case .failure(let problem): return .failure(problem)
        }
    }

    /// With the lock held: reads again (another process may have dealt with it meanwhile) and,
    /// if the list is still damaged, keeps it aside and starts empty.
    private func readKeepingDamageAside() throws(UsageError) -> [ServerRecord] {
        let problem: ServerStoreFormat.Problem
        switch try readList() {
        case .success(let records): return records
        case .failure(let found): problem = found
        }
        let aside = try keepAside(problem)
        printError("hostshell: warning: the server list \(path) was damaged (\(problem)). It is kept at \(aside); starting with an empty list.")
        return []
    }

    /// Moves the damaged list to a name no other file has: created exclusively first, so two
    /// damaged lists in the same second are both kept.
    private func keepAside(_ problem: ServerStoreFormat.Problem) throws(UsageError) -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for attempt in 1...ServerStoreRules.maxDamagedAttempts {
            let aside = directory + "/" + ServerStoreRules.damagedName(utcSeconds: Int(now.tv_sec), attempt: attempt)
            let fd = open(aside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                break
            }
            close(fd)
            guard rename(path, aside) == 0 else { unlink(aside); break }
            return aside
        }
        throw UsageError("\(path) is damaged (\(problem)) and could not be moved aside: \(String(cString: strerror(errno))). Move it away yourself to start over.")
    }

    // MARK: writing

    /// Where the new list goes: the list itself, or, when it is a symbolic link to the list,
    /// the file the link points to (so the link is kept).
    private func writePath() -> String { ProfileFile.resolved(path) }

    private func prepareDirectory() throws(UsageError) {
        guard g_mkdir_with_parents(directory, 0o700) == 0 else {
            throw UsageError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// With the lock held: removes the temporaries writers that were killed left behind.
    private func sweepTemporaries() {
        for name in ServerStoreRules.staleTemporaries(among: DirectoryNames.of(directory)) { unlink(directory + "/" + name) }
    }

    // MARK: what is there

    static func entry(at path: String) -> StoreEntry {
        var status = stat()
        if stat(path, &status) == 0 { return entry(status) }
        let reason = errno
        var link = stat()
        if lstat(path, &link) == 0 { return .brokenLink }  // there, but what it points to is not
        return reason == ENOENT || reason == ENOTDIR ? .missing : .other
    }

    static func entry(_ status: stat) -> StoreEntry {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(status.st_size))
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        default: return .other
        }
    }
}

/// Removes a directory tree (a server's website data or cache).
package func removeTree(_ path: String) {
    let file = g_file_new_for_path(path)
    defer { g_object_unref(UnsafeMutableRawPointer(file)) }
    let enumerator = g_file_enumerate_children(file, "standard::name,standard::type", G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil, nil)
    if let enumerator {
        while let info = g_file_enumerator_next_file(enumerator, nil, nil) {
            let child = path + "/" + String(cString: g_file_info_get_name(info))
            if g_file_info_get_file_type(info) == G_FILE_TYPE_DIRECTORY { removeTree(child) } else { unlink(child) }
            g_object_unref(UnsafeMutableRawPointer(info))
        }
        g_object_unref(UnsafeMutableRawPointer(enumerator))
    }
    rmdir(path)
}

extension AppEnvironment {
    /// A saved server's network session, in its profile directories.
    func networkSession(forServer id: String) -> NetworkSessionPointer {
        let directories = ServerStoreFile.profileDirectories(for: id, root: profileRoot)
        return networkSession(data: directories.data, cache: directories.cache)
    }
}
