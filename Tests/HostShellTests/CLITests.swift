import Foundation
import Testing

/// Runs the built `hostshell` binary as a user would.
enum HostShellBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["HOSTSHELL_BIN"] { return URL(fileURLWithPath: path) }
        // Beside the test bundle in the build directory.
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hostshell")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return root.appendingPathComponent(".build/debug/hostshell")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var lastLine: String { stdout.split(separator: "\n").last.map(String.init) ?? "" }
    }

    /// The environment of every process a test starts that runs the app (the app itself, `ctl`,
    /// the reference server, the example scripts and the WebDriver that launch it): the test's own
    /// with `extra`, and GLib's criticals made fatal, so a GLib, GTK or WebKit critical anywhere in
    /// the app (or its web processes) aborts it and fails the test instead of scrolling by.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let flags = (environment["G_DEBUG"] ?? "").split(separator: ",").map(String.init)
        if !flags.contains("fatal-criticals") { environment["G_DEBUG"] = (flags + ["fatal-criticals"]).joined(separator: ",") }
        // Addresses the app hands to the desktop are recorded (ctl state's "external"), never launched.
        environment["HOSTSHELL_HANDOFF"] = "record"
        // Caches (provider tokens, compiled content filters, phones' sockets) go to the test
        // run's own directory, not the person's ~/.cache, unless the test gives one.
        if extra["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = testCache }
        return environment
    }

    /// This test process's cache directory, removed when the process ends.
    static let testCache: String = {
        var template = Array((NSTemporaryDirectory() + "/hostshell-test-cache-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let path = made.map { String(cString: $0) } ?? NSTemporaryDirectory()
        atexit {
            let path = HostShellBinary.testCache
            if path.contains("hostshell-test-cache-") { try? FileManager.default.removeItem(atPath: path) }
        }
        return path
    }()

    /// No display given: the app starts an Xvfb of its own (`HeadlessDisplay`), apart from the
    /// display the suites share.
    static let ownDisplay = ["DISPLAY": "", "WAYLAND_DISPLAY": ""]

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = Self.environment(environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let run = Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
        // A critical in a web process does not end the command (WebKit reloads the page): say so.
        let criticals = run.stderr.split(separator: "\n").filter { $0.contains("-CRITICAL **") }
        if !criticals.isEmpty { Issue.record("hostshell \(arguments.prefix(2).joined(separator: " ")) logged criticals:\n\(criticals.joined(separator: "\n"))") }
        return run
    }

    static func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-test-\(UUID().uuidString).json")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

@Suite("hostshell command line")
struct CLITests {
    static let corpus = HostShellBinary.root.appendingPathComponent("fixtures/contracts/studio-bridge/messages-v1.json").path

    @Test("contract check passes the contract's corpus and says so on its last line")
    func contractCheckPasses() throws {
        let run = try HostShellBinary.run(["contract", "check", Self.corpus])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.lastLine == "255 passed, 0 failed")
    }

    @Test("contract check runs the Capacitor wire corpus beside the Studio one")
    func contractCheckCapacitor() throws {
        let capacitor = HostShellBinary.root.appendingPathComponent("fixtures/contracts/capacitor-shell/wire-v1.json").path
        let run = try HostShellBinary.run(["contract", "check", Self.corpus, capacitor])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("Capacitor wire cases: "))
        #expect(run.lastLine.hasSuffix("passed, 0 failed"))
        #expect(run.lastLine != "255 passed, 0 failed")
    }

    @Test("contract check prints each failing case with expected and actual, and exits 1")
    func contractCheckReportsFailures() throws {
        // Expect the first case (config/get) to be malformed: the host will disagree.
        let data = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.corpus))) as! [String: Any]
        var cases = data["cases"] as! [[String: Any]]
        cases[0]["outcome"] = "malformed"
        var mutated = data
        mutated["cases"] = cases
        let file = try HostShellBinary.temporaryFile(String(decoding: try JSONSerialization.data(withJSONObject: mutated), as: UTF8.self))
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try HostShellBinary.run(["contract", "check", file.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL"))
        #expect(run.stdout.contains("expected: malformed"))
        #expect(run.stdout.contains("actual:   accept"))
        #expect(run.lastLine == "254 passed, 1 failed")
    }

    @Test("files that are not corpora get a clear error and exit code 2", arguments: [
        "not json at all", "[1, 2, 3]", #"{"cases": "none"}"#, #"{"schemaVersion": 9, "cases": []}"#,
    ])
    func notACorpus(_ contents: String) throws {
        let file = try HostShellBinary.temporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try HostShellBinary.run(["contract", "check", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("is not a conformance corpus"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing is printed as a result")
    }

    @Test("bad arguments get one clear line and exit code 2", arguments: [
        [], ["frobnicate"], ["contract"], ["contract", "check"], ["contract", "check", "--verbose", corpus],
        ["contract", "check", "/nonexistent/corpus.json"], ["contract", "check", "/"], ["bench"], ["bench", "codec", "--seconds", "x"], ["bench", "capacitor"], ["bench", "capacitor", "/nonexistent/www"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let run = try HostShellBinary.run(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.isEmpty)
        #expect(!run.stderr.contains("Fatal error"), "no crash on bad input")
    }

    @Test("help lists the commands and exits 0")
    func help() throws {
        let run = try HostShellBinary.run(["help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("contract check"))
        // Issue 32 item 6: help for a command that does not exist is an error, with the nearest one.
        let bogus = try HostShellBinary.run(["help", "sever"])
        #expect(bogus.status == 2 && bogus.stdout.isEmpty && bogus.stderr.contains("did you mean server?"), "\(bogus.stderr)")
        #expect(try HostShellBinary.run(["help", "server"]).status == 0)
    }
}
