import Foundation
import Glibc
import Testing

/// WebKit's remote inspector (which WebKitWebDriver reaches over loopback TCP) is reachable by
/// no other local user: without `--automation` nothing listens even when the variable is set;
/// with it, a connection another user makes is closed before WebKit reads a byte, while this
/// user's stays open. The other user is `nobody`, through `setpriv` (these tests run as root).
@Suite("The remote inspector: never for another local user", .serialized)
struct InspectorExposureTests {
    static let project = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/test-app").path

    /// What a client sees on `port` within `seconds`: "refused", "closed" (the server ended the
    /// connection: end of stream or reset), or "open" (connected and still so when time was up).
    static func probe(_ port: Int, as user: String? = nil, seconds: Double = 2) throws -> String {
        let script = """
            import socket, sys
            s = socket.socket(); s.settimeout(\(seconds))
            try:
                s.connect(("127.0.0.1", \(port)))
            except ConnectionRefusedError:
                print("refused"); sys.exit(0)
            try:
                data = s.recv(1)
                print("open" if data else "closed")
            except socket.timeout:
                print("open")
            except (ConnectionResetError, BrokenPipeError):
                print("closed")
            """
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "/usr/bin/python3", "-c", script]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script]
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("without --automation the driver's variable opens no listener")
    func noListenerUnlessAutomation() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let port = try freePort()
        let app = try RunningApp(home: home, arguments: [Self.project], command: "capacitor",
                                 environment: ["WEBKIT_INSPECTOR_SERVER": "127.0.0.1:\(port)"])
        defer { app.stop() }
        _ = try app.stateWhen("app")
        #expect(try Self.probe(port) == "refused")
    }

    @Test("under --automation this user's connection is served and another user's is closed before a byte is read",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func onlyThisUser() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let port = try freePort()
        let app = try RunningApp(home: home, arguments: [Self.project, "--automation"], command: "capacitor",
                                 environment: ["WEBKIT_INSPECTOR_SERVER": "127.0.0.1:\(port)"])
        defer { app.stop() }
        var seen = ""
        #expect(waitUntil(timeout: 20) { seen = (try? Self.probe(port, seconds: 0.5)) ?? ""; return seen != "refused" }, "nothing listens")
        #expect(try Self.probe(port, as: "65534") == "closed", "another user reached the inspector")
        #expect(try Self.probe(port) == "open", "this user is refused")
    }

    @Test("a driver address that is not loopback is refused: nothing listens, and the app says why")
    func loopbackOnly() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let port = try freePort()
        let app = try RunningApp(home: home, arguments: [Self.project, "--automation"], command: "capacitor",
                                 environment: ["WEBKIT_INSPECTOR_SERVER": "0.0.0.0:\(port)"])
        defer { app.stop() }
        #expect(waitUntil(timeout: 20) { ((try? String(contentsOf: app.logFile, encoding: .utf8)) ?? "").contains("not a loopback address") })
        #expect(try Self.probe(port) == "refused")
    }
}
