import Glibc
import HostCore

/// A log HostShell writes for a person (`--bridge-log FILE`, `apns serve --record FILE`):
/// appended line by line, owner-only (a file that was there is made owner-only too: these logs
/// hold device tokens, payloads and page messages), so a crash loses at most the line being
/// written. It rotates as `LogRotation` says (FILE → FILE.1 …), so it never grows without
/// bound. Only a regular file is taken: a FIFO, a device or a directory is refused at once.
@MainActor
package final class LogFile {
    private let path: String
    private let option: String
    private var fd: Int32
    private var rotation: LogRotation

    /// `option` names the flag that gave `path`, for the person's messages.
    package init(path: String, option: String, limit: Int = LogRotation.maxFileBytes) throws(UsageError) {
        self.path = path
        self.option = option
        switch Self.open(path) {
        case .success(let opened): fd = opened
        case .failure(let why): throw UsageError("\(option): cannot write \(path): \(why)")
        }
        var info = stat()
        rotation = LogRotation(existingBytes: fstat(fd, &info) == 0 ? Int(info.st_size) : 0, limit: limit)
    }

    /// Opens `path` for appending without blocking (a FIFO without a reader would wait), takes
    /// it only when it is a regular file, and makes it owner-only.
    private static func open(_ path: String) -> Result<Int32, UsageErrorText> {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else { return .failure(UsageErrorText(String(cString: strerror(errno)))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            return .failure(UsageErrorText("it is not a regular file"))
        }
        _ = fchmod(fd, 0o600)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    package func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if rotation.write(bytes.count) { rotate() }
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }  // O_APPEND: one write per line
    }

    /// Moves the files one step down and starts FILE afresh. A rename that fails (a rotated
    /// file that is not there yet) is skipped; a FILE that cannot be made again stops the log,
    /// said once.
    private func rotate() {
        for step in LogRotation.renames(of: path) { _ = rename(step.from, step.to) }
        Glibc.close(fd)
        switch Self.open(path) {
        case .success(let opened): fd = opened
        case .failure(let why):
            fd = -1
            printError("hostshell: \(option) stopped: cannot write \(path): \(why.text)")
        }
    }

    package func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}

/// Why a file could not be opened, as text (an `Error` for `Result`).
struct UsageErrorText: Error, CustomStringConvertible {
    let text: String
    init(_ text: String) { self.text = text }
    var description: String { text }
}
