import Foundation
import Testing

/// A `hostshell …` process that prints what to reach it by on its first line (a server's address,
/// a device's control socket): that line and the process.
final class ServingProcess {
    let process = Process()
    let url: String

    /// `what` names it when it does not start (in the test's failure).
    init(_ arguments: [String], environment: [String: String] = [:], what: String? = nil) throws {
        process.executableURL = HostShellBinary.url
        process.arguments = arguments
        process.environment = HostShellBinary.environment(environment)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-serve-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = ""
        waitUntil(timeout: 15) { [process] in
            line = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init) ?? ""
            return !line.isEmpty || !process.isRunning
        }
        url = line
        #expect(!url.isEmpty, "\(what ?? arguments.prefix(2).joined(separator: " ")) did not start")
    }

    func stop() { stopProcess(process) }
    deinit { stop() }
}


/// Starts `process` (a daemon that prints where it listens as its first line: a bus address, a
/// display number) with its standard output on a pipe, and returns that line once it is there;
/// nil when the process ended without printing one.
func runUntilFirstLine(_ process: Process) throws -> String? {
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = Data()
    while !text.contains(UInt8(ascii: "\n")) {
        let chunk = out.fileHandleForReading.availableData  // waits for more, or the end
        if chunk.isEmpty { return nil }
        text.append(chunk)
    }
    return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
