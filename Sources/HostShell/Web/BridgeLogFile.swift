import BridgeRuntime
import Glibc

/// Where `open --bridge-log FILE` writes the bridge event log: appended line by line, owner-only,
/// so a crash loses at most the line being written. Every page of the app logs to it.
@MainActor
final class BridgeLogFile {
    static var current: BridgeLogFile?
    private let fd: Int32

    init(path: String) throws(UsageError) {
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw UsageError("--bridge-log: cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    func close() { Glibc.close(fd) }
}
