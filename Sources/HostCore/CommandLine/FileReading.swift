import Glibc

/// Every read of a path a person gave (on the command line) or a profile keeps goes through
/// here: regular files only — a FIFO, a device, a socket or a directory is refused at once, as
/// is a file over its size cap, before a byte is read — opened without blocking (a FIFO with
/// no writer would otherwise wait for good), with errors a person can act on.
package enum FileReading {
    /// The bytes of `path`, or a `UsageError` that says why they could not be read.
    package static func bytes(_ path: String, limit: Int = 256 << 20) throws(UsageError) -> [UInt8] {
        let fd = try openRegular(path)
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0 && Int(status.st_size) > limit {
            throw UsageError("\(path) is larger than \(limit >> 20 > 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, min(Int(status.st_size), limit)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            // The file grew while it was read: the cap holds all the same.
            if bytes.count > limit { throw UsageError("\(path) is larger than \(limit >> 20 > 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")") }
        }
    }

    /// A descriptor of `path` open for reading (blocking again once it is known to be a regular
    /// file), or a `UsageError` naming what it is instead.
    /// The process's working directory ("/" when it cannot be read: deleted, or too deep).
    package static var workingDirectory: String {
        guard let raw = getcwd(nil, 0) else { return "/" }
        defer { free(raw) }
        return String(cString: raw)
    }

    package static func openRegular(_ path: String) throws(UsageError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw UsageError("cannot read \(path): \(why)")
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw UsageError("\(path) is \(describe(kind)), not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// What a file of `kind` (`st_mode & S_IFMT`) is, for a message.
    package static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }
}
