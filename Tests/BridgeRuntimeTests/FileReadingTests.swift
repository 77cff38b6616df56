import Foundation
import Glibc
import HostCore
import Testing

/// Every read of a path a person gave or a profile keeps: regular files only, never blocking,
/// capped before a byte is read.
@Suite("File reading: regular files only, at once")
struct FileReadingTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a FIFO with no writer, a directory and a device are refused at once, naming what they are")
    func refusesWhatIsNotAFile() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (directory.path, "a directory"), ("/dev/null", "a device")] {
            do {
                _ = try FileReading.bytes(path)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.message == "\(path) is \(kind)\(kind == "a FIFO" ? " (named pipe)" : ""), not a regular file", "\(error.message)")
            }
        }
        #expect(throws: UsageError.self) { try FileReading.bytes(directory.appendingPathComponent("missing").path) }
    }

    @Test("a regular file is read whole; one over its cap is refused before it is read; a link to a file is followed")
    func readsFiles() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.json")
        let body = Array(repeating: UInt8(ascii: "x"), count: 200_000)
        try Data(body).write(to: file)
        #expect(try FileReading.bytes(file.path) == body)
        do { _ = try FileReading.bytes(file.path, limit: 1000); Issue.record("over the cap was read") } catch {
            #expect(error.message.contains("larger than 1000 bytes"), "\(error.message)")
        }
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file.path)
        #expect(try FileReading.bytes(link).count == body.count)
    }
}
