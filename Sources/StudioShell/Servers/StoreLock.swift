import Glibc
import HostCore
import StudioContract

/// The saved-servers store's writer lock: an exclusive `flock` on `servers.json.lock` beside the
/// list, held around a whole read-modify-write. The kernel releases it when the holder exits or
/// is killed, so a dead holder never blocks anyone; the lock file itself is never removed.
package final class StoreLock {
    private var fd: Int32

    /// Waits up to `ServerStoreRules.lockWaitSeconds` for other writers to finish.
    init(path: String) throws(UsageError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw UsageError("cannot open the server list's lock \(path): \(String(cString: strerror(errno)))") }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                close(fd)
                throw UsageError("cannot lock the server list (\(path)): \(String(cString: strerror(reason)))")
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            if Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9 > ServerStoreRules.lockWaitSeconds {
                close(fd)
                throw UsageError("another hostshell has been changing the server list for \(Int(ServerStoreRules.lockWaitSeconds)) s and still holds \(path); try again when it is done")
            }
            usleep(useconds_t(ServerStoreRules.lockRetryMilliseconds * 1000))  // another writer holds it: try again shortly
        }
        self.fd = fd
    }

    /// Closing the descriptor releases the lock.
    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
