import HostCore

/// What is found at the store's path, as the file system says (a symbolic link is followed to
/// what it points to).
public enum StoreEntry: Sendable, Equatable {
    case missing
    case regular(size: Int)
    case directory, fifo, socket, characterDevice, blockDevice, other
    /// A symbolic link to nothing (or a loop of links).
    case brokenLink
}

/// The rules of the saved-servers store on disk that are not its format: which files it reads,
/// how a damaged one is kept aside, which temporary files are stale, and how long a writer waits
/// for another. The glue (`ServerStoreFile`) carries them out.
public enum ServerStoreRules {
    public static let fileName = "servers.json"
    /// Every change is a read-modify-write under an exclusive `flock` of this file beside the
    /// list. The kernel drops the lock when its holder exits or is killed, so a dead holder never
    /// blocks the next; the file itself stays (removing it would let two writers lock two files).
    public static let lockFileName = "servers.json.lock"
    /// A writer waits this long for another to finish before giving up with a message. A change
    /// holds the lock for a read, an fsync'd write and a rename: milliseconds.
    public static let lockWaitSeconds = 15.0
    /// How often a waiting writer tries the lock again.
    public static let lockRetryMilliseconds = 10

    /// Why the store's path cannot be read as the server list, or nil when it can (a regular
    /// file no larger than the format's limit, or nothing at all). Nothing is read, moved or
    /// replaced when this refuses: a pipe would hang a reader, a device could be anything.
    public static func refusal(_ entry: StoreEntry, path: String) -> String? {
        let moveAway = "Move it away (HostShell then starts with no saved servers) or put the server list back."
        switch entry {
        case .missing: return nil
        case .regular(let size):
            guard size > ServerStoreFormat.maxFileBytes else { return nil }
            return "\(path) is \(size >> 20) MiB, larger than any server list HostShell writes (at most \(ServerStoreFormat.maxFileBytes >> 20) MiB); it is left untouched. \(moveAway)"
        case .directory: return "\(path) is a directory, not the server list file. \(moveAway)"
        case .fifo: return "\(path) is a named pipe, not the server list file; HostShell does not read from it. \(moveAway)"
        case .socket: return "\(path) is a socket, not the server list file. \(moveAway)"
        case .characterDevice, .blockDevice: return "\(path) is a device, not the server list file; HostShell does not read from it. \(moveAway)"
        case .other: return "\(path) is not a regular file. \(moveAway)"
        case .brokenLink: return "\(path) is a symbolic link to a file that does not exist (or a loop of links). \(moveAway)"
        }
    }

    /// The name a damaged list is kept under: the time it was found (UTC) and, when that name is
    /// taken — two damaged lists in one second — a number. The glue creates the name exclusively
    /// (`O_EXCL`) and tries the next attempt when it exists, so no kept copy is ever replaced.
    public static func damagedName(utcSeconds: Int, attempt: Int) -> String {
        ProfileFileRules.damagedName(fileName, utcSeconds: utcSeconds, attempt: attempt)
    }

    /// How many names `damagedName` offers before the glue gives up (and keeps the damaged list
    /// where it is, refusing to go on).
    public static let maxDamagedAttempts = 1000

    /// The temporary file a writer (process `pid`) writes the new list to, in the same directory,
    /// before renaming it over the list.
    public static func temporaryName(pid: Int32) -> String { "\(fileName).tmp-\(pid)" }

    /// Which of a directory's `names` are temporaries of killed writers and are removed. Only
    /// asked while the store's lock is held: every writer writes its temporary under the lock,
    /// so while it is held no live writer has one, and each one found was left by a writer that
    /// was killed — whatever its age.
    public static func staleTemporaries(among names: [String]) -> [String] {
        let prefix = fileName + ".tmp-"
        return names.filter { name in
            name.utf8.count > prefix.utf8.count && name.utf8.starts(with: prefix.utf8)
                && name.utf8.dropFirst(prefix.utf8.count).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }
}
