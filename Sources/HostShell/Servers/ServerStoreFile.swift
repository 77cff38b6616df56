import BridgeRuntime
import CGtk
import Glibc

/// The saved servers on disk: `$XDG_CONFIG_HOME/hostshell/servers.json`, owner-only, replaced
/// atomically (temporary file, fsync, rename, fsync of the directory) so a crash or kill -9 at
/// any moment leaves either the old list or the new one. A damaged file is reported and kept
/// aside, never silently replaced; one from a newer HostShell is left alone.
struct ServerStoreFile {
    let directory: String
    var path: String { directory + "/servers.json" }

    /// The store in the user's configuration directory.
    static var standard: ServerStoreFile {
        ServerStoreFile(directory: String(cString: g_get_user_config_dir()) + "/hostshell")
    }

    /// Website data and cache of one server's profile.
    static func profileDirectories(for id: String) -> (data: String, cache: String) {
        (String(cString: g_get_user_data_dir()) + "/hostshell/servers/" + id,
         String(cString: g_get_user_cache_dir()) + "/hostshell/servers/" + id)
    }

    /// The saved servers. A missing file is an empty list; a damaged one is moved aside with a
    /// warning on standard error, and the list starts empty.
    func load() throws(UsageError) -> [ServerRecord] {
        guard access(path, F_OK) == 0 else { return [] }
        let bytes = try FileReading.bytes(path, limit: ServerStoreFormat.maxFileBytes)
        switch ServerStoreFormat.decode(bytes) {
        case .success(let records):
            return records
        case .failure(.newerSchema(let version)):
            throw UsageError("\(path) was written by a newer HostShell (schema \(version)); it is left untouched. Use that HostShell, or move the file away to start over.")
        case .failure(let problem):
            var stamp = timespec()
            clock_gettime(CLOCK_REALTIME, &stamp)
            let aside = "\(path).damaged-\(stamp.tv_sec)"
            guard rename(path, aside) == 0 else {
                throw UsageError("\(path) is damaged (\(problem)) and could not be moved aside: \(String(cString: strerror(errno)))")
            }
            printError("hostshell: warning: the server list \(path) was damaged (\(problem)). It is kept at \(aside); starting with an empty list.")
            return []
        }
    }

    func save(_ records: [ServerRecord]) throws(UsageError) {
        try AtomicFile.write(ServerStoreFormat.encode(records), to: path, what: "the server list")
    }
}

/// Removes a directory tree (a server's website data or cache).
func removeTree(_ path: String) {
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
