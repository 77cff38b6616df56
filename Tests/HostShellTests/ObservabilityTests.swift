import Foundation
import Testing

/// The control interface's event stream, and replaying a recorded bridge log against the host.
@Suite("Event stream and replay (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct ObservabilityTests {
    /// `hostshell ctl SOCKET events ARGS…` started in the background, returning once the app
    /// streams to it (ctl says so on stderr); its output once it ends.
    final class EventReader {
        let process = Process()
        private let pipe = Pipe()
        private let errors = Pipe()

        init(_ app: RunningApp, _ arguments: [String]) throws {
            process.executableURL = HostShellBinary.url
            process.arguments = ["ctl", app.socket, "events"] + arguments
            process.environment = HostShellBinary.environment()
            process.standardOutput = pipe
            process.standardError = errors
            try process.run()
            // Blocks until ctl says the stream started, or ends (end of file) without it.
            var said = ""
            while !said.contains("\n") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            #expect(said.hasPrefix("hostshell ctl: streaming "), "the stream did not start: \(said)")
        }

        func finish() -> (status: Int32, events: [[String: Any]]) {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(events.count == lines.count, "one JSON object per line")
            return (process.terminationStatus, events)
        }

        /// Reads events as they come until one satisfies `wanted` (then stops the stream), or the
        /// stream ends; returns every event read, the wanted one last when it came.
        func events(until wanted: ([String: Any]) -> Bool) -> [[String: Any]] {
            var events: [[String: Any]] = []
            var pending = Data()
            reading: while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[pending.index(after: newline)...])
                    guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                    events.append(event)
                    if wanted(event) { break reading }
                }
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return events
        }
    }

    @Test("events streams bridge messages and state changes as they happen; bad requests are refused")
    func eventStream() throws {
        let live = try LiveApp()
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true")
        let both = try EventReader(app, ["--timeout", "5"])  // everything in 5 s
        let bridgeOnly = try EventReader(app, ["--kind", "bridge", "--count", "3", "--timeout", "30"])
        #expect(try app.ctl("tap", "media").status == 0)
        let streamed = both.finish()
        #expect(streamed.status == 0)
        let kinds = Set(streamed.events.compactMap { $0["event"] as? String })
        #expect(kinds == ["bridge", "state"])
        // The first state event is the whole state; later ones carry what changed.
        let first = try #require(streamed.events.first { $0["event"] as? String == "state" })
        #expect((first["changed"] as? [String: Any])?["screen"] as? String == "page")
        #expect(streamed.events.contains { (($0["changed"] as? [String: Any])?["navigation"] as? [String: Any])?["selected"] as? String == "media" })
        let request = streamed.events.first { ($0["message"] as? [String: Any])?["type"] as? String == "navigation/request" }
        #expect(request?["dir"] as? String == "host-to-studio" && request?["accepted"] as? Bool == true)
        let bridge = bridgeOnly.finish()
        #expect(bridge.status == 0 && bridge.events.count == 3 && bridge.events.allSatisfy { $0["event"] as? String == "bridge" })

        // Nothing comes in time: exit 1 and say how many came.
        let quiet = try HostShellBinary.run(["ctl", app.socket, "events", "--kind", "bridge", "--count", "5", "--timeout", "1"])
        #expect(quiet.status == 1 && quiet.stderr.contains("0 of 5 events"), "\(quiet.stderr)")
        let badKind = try HostShellBinary.run(["ctl", app.socket, "events", "--kind", "everything"])
        #expect(badKind.status == 2 && badKind.stderr.contains("--kind takes bridge or state or warning"))
        let answer = rawExchange(app.socket, Array(#"{"id":4,"command":"events","kinds":["bridge","dreams"]}"#.utf8) + [10], lines: 1)
        #expect(answer.first?.contains(#""ok":false"#) == true && answer.first?.contains("kinds") == true, "\(answer)")
        _ = try app.state("screen=page")  // the app carried on
    }

    @Test("a recorded session replays with the same replies; a reply that differs is reported; a bad log is refused")
    func replay() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let log = try home.file("bridge.log")
        do {
            let app = try RunningApp(home: home, arguments: ["--allow-eval", "--bridge-log", log.path])
            defer { app.stop() }
            _ = try app.state("screen=page", "negotiated=true", "presentation.ready=true")
            #expect(try app.ctl("tap", "screens").status == 0)
            _ = try app.state("navigation.selected=screens")
        }
        let recorded = try String(contentsOf: log, encoding: .utf8)
        #expect(recorded.contains(#""context":"presentation""#), "the sheet page's messages are in the log too")

        let same = try HostShellBinary.run(["replay", log.path, "--verbose"], environment: home.environment)
        #expect(same.status == 0, "\(same.stdout)\n\(same.stderr)")
        #expect(same.stdout.contains(" 0 differed, 0 skipped"), "\(same.stdout)")
        #expect(same.stdout.contains("same line") && same.stdout.contains("config/get"))

        // A recorded reply that is not what the host answers now.
        let tampered = home.root.appendingPathComponent("tampered.log")
        let changed = recorded.replacingOccurrences(of: #""protocolVersion":1"#, with: #""protocolVersion":7"#)
        #expect(changed != recorded)
        try changed.write(to: tampered, atomically: true, encoding: .utf8)
        let differs = try HostShellBinary.run(["replay", tampered.path], environment: home.environment)
        #expect(differs.status == 1)
        #expect(differs.stdout.contains("DIFF line") && differs.stdout.contains("config/get"), "\(differs.stdout)")

        let broken = home.root.appendingPathComponent("broken.log")
        try (recorded + "this is not a record\n").write(to: broken, atomically: true, encoding: .utf8)
        let refused = try HostShellBinary.run(["replay", broken.path], environment: home.environment)
        #expect(refused.status == 2 && refused.stderr.contains("is not a bridge log record"), "\(refused.stderr)")
        let missing = try HostShellBinary.run(["replay", home.root.appendingPathComponent("nothing.log").path], environment: home.environment)
        #expect(missing.status == 2 && missing.stderr.contains("cannot read"))
    }

    @Test("the README's complete test (examples/ci/studio-bridge-test.sh) passes against the reference Studio")
    func readmeExample() throws {
        let script = HostShellBinary.root.appendingPathComponent("examples/ci/studio-bridge-test.sh").path
        let process = Process()
        // As the README runs it: on an X server of its own (other suites' apps share this one,
        // and a menu cannot open while another app's menu holds the pointer).
        let xvfb = "/usr/bin/xvfb-run"
        if FileManager.default.isExecutableFile(atPath: xvfb) {
            process.executableURL = URL(fileURLWithPath: xvfb)
            process.arguments = ["-a", "-s", "-screen 0 1280x800x24 -nolisten tcp", "/bin/bash", script]
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script]
        }
        process.environment = HostShellBinary.environment(["HOSTSHELL": HostShellBinary.url.path])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("0 differed, 0 skipped") && text.contains("studio-bridge-test: passed"), "\(text)")
    }
}
