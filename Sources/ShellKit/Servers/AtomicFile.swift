import CGtk
import Glibc
import HostCore

/// Writes a file so that a reader (or a crash) only ever sees the old contents or the new:
/// a temporary file beside it, fsync, rename, then fsync of the directory. Owner-only (0600),
/// in an owner-only directory it creates if needed. A writer killed before the rename leaves its
/// temporary; the server list's next writer removes those under its lock (`ServerStoreFile`).
package enum AtomicFile {
    package static func write(_ bytes: [UInt8], to path: String, what: String) throws(UsageError) {
        let directory = takeGString(g_path_get_dirname(path)) ?? "."
        guard g_mkdir_with_parents(directory, 0o700) == 0 else {
            throw UsageError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw UsageError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        let ok: Bool = bytes.withUnsafeBufferPointer { buffer in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            return fsync(fd) == 0
        }
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw UsageError("cannot save \(what) to \(path): \(reason)")
        }
        // The rename itself is durable only once the directory is.
        let dirFd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFd >= 0 { fsync(dirFd); close(dirFd) }
    }
}
