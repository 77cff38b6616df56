/// What is found at a profile file's path (`push.json`, `push-permission.json`,
/// `homesec-secrets.json`, `permissions.json`, `servers.json`), as the file system says: a
/// symbolic link is followed to what it points to.
public enum ProfileFileEntry: Sendable, Equatable {
    case missing
    case regular(size: Int)
    case directory, fifo, socket, device, other
    /// A symbolic link to nothing (or a loop of links).
    case brokenLink
}

/// The one rule for a file a profile keeps (issue 29 item 8), as the server list has it
/// (`ServerStoreRules`): a link is followed to its file, read there and written there (the link
/// is kept); a link to nothing, a FIFO, a directory, a device or a socket is refused — neither
/// read (a FIFO would hang a reader) nor replaced — with words a person can act on; a file
/// larger than any the app writes is damaged, as is one whose contents the app does not
/// understand. A damaged file is never overwritten or silently reset: it is kept aside under a
/// name no other kept copy has (`damagedName`, created exclusively), before anything new is
/// written, and the person is told where it went.
public enum ProfileFileRules {
    /// What to do with what is at the path, before any byte is read.
    public enum Plan: Sendable, Equatable {
        /// Nothing there: the app starts from nothing.
        case absent
        /// A regular file of a sane size (through a link, maybe): read it.
        case read
        /// Larger than any the app writes: damaged, without reading it.
        case damaged(problem: String)
        /// Not a file the app may read or replace: say so, and touch nothing.
        case refused(String)
    }

    public static func plan(_ entry: ProfileFileEntry, path: String, what: String, limit: Int) -> Plan {
        let leave = "HostShell neither reads nor replaces it; move it away (\(what) then starts afresh) or put the file back."
        switch entry {
        case .missing: return .absent
        case .regular(let size):
            guard size > limit else { return .read }
            return .damaged(problem: "it is \(size) bytes, larger than any \(what) HostShell writes (at most \(limit) bytes)")
        case .brokenLink: return .refused("\(path) is a symbolic link to a file that does not exist (or a loop of links). \(leave)")
        case .directory: return .refused("\(path) is a directory, not \(what). \(leave)")
        case .fifo: return .refused("\(path) is a named pipe (FIFO), not \(what). \(leave)")
        case .socket: return .refused("\(path) is a socket, not \(what). \(leave)")
        case .device: return .refused("\(path) is a device, not \(what). \(leave)")
        case .other: return .refused("\(path) is not a regular file. \(leave)")
        }
    }

    /// The name a damaged `fileName` is kept under: the time it was found (UTC) and, when that
    /// name is taken — two damaged files in one second — a number. The glue creates the name
    /// exclusively (`O_EXCL`) and tries the next attempt when it exists, so no kept copy is
    /// ever replaced.
    public static func damagedName(_ fileName: String, utcSeconds: Int, attempt: Int) -> String {
        let (year, month, day, hour, minute, second) = CivilTime.components(utcSeconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let stamp = "\(year)\(two(month))\(two(day))T\(two(hour))\(two(minute))\(two(second))Z"
        return "\(fileName).damaged-\(stamp)" + (attempt > 1 ? "-\(attempt)" : "")
    }

    /// How many names `damagedName` offers before the glue gives up (and refuses to go on,
    /// leaving the damaged file where it is).
    public static let maxDamagedAttempts = 1000

    /// What the person is told when a damaged file was kept aside: what, why, where it went,
    /// and what the app does instead.
    public static func keptAside(path: String, what: String, problem: String, aside: String, instead: String) -> String {
        "\(what) \(path) was damaged (\(problem)); it is kept at \(aside), \(instead)"
    }
}
