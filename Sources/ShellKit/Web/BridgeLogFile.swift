import Glibc
import HostCore

/// Where `open --bridge-log FILE` writes the bridge event log: appended line by line, owner-only,
/// so a crash loses at most the line being written. Every page of the app logs to it. It
/// rotates as `BridgeLogRotation` says (FILE → FILE.1 …), so it never grows without bound.
@MainActor
package final class BridgeLogFile {
    private let path: String
    private var fd: Int32
    private var rotation: BridgeLogRotation

    package init(path: String) throws(UsageError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw UsageError("--bridge-log: cannot write \(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        rotation = BridgeLogRotation(existingBytes: fstat(fd, &info) == 0 ? Int(info.st_size) : 0)
    }

    package func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if rotation.write(bytes.count) { rotate() }
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// Moves the files one step down and starts FILE afresh. A rename that fails (a rotated
    /// file that is not there yet) is skipped; a FILE that cannot be made again stops the log,
    /// said once.
    private func rotate() {
        for step in BridgeLogRotation.renames(of: path) { _ = rename(step.from, step.to) }
        Glibc.close(fd)
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if fd < 0 { printError("hostshell: --bridge-log stopped: cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    package func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
