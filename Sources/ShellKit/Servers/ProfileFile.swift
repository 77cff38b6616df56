import Glibc
import HostCore

/// A file a profile keeps, read and written as `ProfileFileRules` says (the server list's rule,
/// for every profile file): through a link to its file (the link is kept); never from a FIFO,
/// a device, a directory, a socket or a link to nothing (refused with a `UsageError`, nothing
/// read, moved or replaced); a damaged file kept aside under a name of its own before anything
/// new is written. The caller says what damage is (it knows the format) and tells the person
/// (`AppEnvironment.tell`).
package struct ProfileFile {
    package let path: String
    /// What the file is, for messages: "the push registration".
    package let what: String
    /// Larger than this, the file is damaged (the app never writes one so large).
    package let limit: Int

    package init(_ path: String, what: String, limit: Int) {
        self.path = path; self.what = what; self.limit = limit
    }

    /// What a read found.
    package enum Found: Equatable {
        case absent
        case bytes([UInt8])
        /// Damaged without being read (too large): keep it aside before writing.
        case damaged(problem: String)
    }

    /// A damaged file moved aside: where it went and why.
    package struct KeptAside: Equatable {
        package let path: String
        package let problem: String
    }

    /// The file's bytes, nothing, or damage; a `UsageError` naming what is there instead of a
    /// file. Never blocks: a FIFO is refused before it is opened, and opened without blocking
    /// should one be put there meanwhile.
    package func read() throws(UsageError) -> Found {
        switch ProfileFileRules.plan(Self.entry(at: path), path: path, what: what, limit: limit) {
        case .absent: return .absent
        case .refused(let why): throw UsageError(why)
        case .damaged(let problem): return .damaged(problem: problem)
        case .read:
            do throws(UsageError) {
                return .bytes(try FileReading.bytes(path, limit: limit))
            } catch {
                // Changed since it was looked at: grown past the limit is damage, the rest refused.
                if case .damaged(let problem) = ProfileFileRules.plan(Self.entry(at: path), path: path, what: what, limit: limit) {
                    return .damaged(problem: problem)
                }
                throw error
            }
        }
    }

    /// Moves the file at `path` (a link itself, when it is one: what it points to stays) to a
    /// name no other file has, created exclusively first so two damaged files in one second
    /// are both kept. Returns that path; throws, moving nothing, when it cannot.
    package func keepAside(_ problem: String) throws(UsageError) -> KeptAside {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for attempt in 1...ProfileFileRules.maxDamagedAttempts {
            let aside = directory + "/" + ProfileFileRules.damagedName(name, utcSeconds: Int(now.tv_sec), attempt: attempt)
            let fd = open(aside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                break
            }
            close(fd)
            guard rename(path, aside) == 0 else { unlink(aside); break }
            return KeptAside(path: aside, problem: problem)
        }
        throw UsageError("\(path) is damaged (\(problem)) and could not be kept aside: \(String(cString: strerror(errno))). Nothing was written; move it away yourself.")
    }

    /// Replaces the file with `bytes` (owner-only, atomically; through a link, the file it
    /// points to). What is there now is checked first: a damaged file (too large, or one in
    /// which `damage` finds a problem) is kept aside, and returned so the caller tells the
    /// person; anything but a file or nothing is refused and left as it is.
    @discardableResult
    package func write(_ bytes: [UInt8], damage: ([UInt8]) -> String?) throws(UsageError) -> KeptAside? {
        var kept: KeptAside?
        switch try read() {
        case .absent: break
        case .damaged(let problem): kept = try keepAside(problem)
        case .bytes(let current): if let problem = damage(current) { kept = try keepAside(problem) }
        }
        try AtomicFile.write(bytes, to: kept == nil ? Self.resolved(path) : path, what: what)
        return kept
    }

    /// `path`, or the file it links to (so that writing keeps the link).
    package static func resolved(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// What is at `path`, following links.
    package static func entry(at path: String) -> ProfileFileEntry {
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: return .regular(size: Int(status.st_size))
            case S_IFDIR: return .directory
            case S_IFIFO: return .fifo
            case S_IFSOCK: return .socket
            case S_IFCHR, S_IFBLK: return .device
            default: return .other
            }
        }
        let reason = errno
        var link = stat()
        if lstat(path, &link) == 0 { return .brokenLink }  // there, but what it points to is not
        return reason == ENOENT || reason == ENOTDIR ? .missing : .other
    }
}

extension AppEnvironment {
    /// Tells the person something they should act on or know (a damaged profile file kept
    /// aside, one refused): a line on standard error and a `warning` on the event stream.
    package func tell(_ text: String, source: String, path: String? = nil) {
        printError("hostshell: warning: \(TerminalText.escaped(text))")
        var fields: JSONObject = ["source": .string(source), "message": .string(text)]
        if let path { fields["path"] = .string(path) }
        warn(fields)
    }
}
