import Foundation
import Testing

/// A real reference Studio server in its own process (`hostshell serve --reference`).
final class ReferenceServer {
    private let serving: ServingProcess
    var process: Process { serving.process }
    var url: String { serving.url }

    init(installation: String? = nil, port: Int? = nil, extra: [String] = []) throws {
        serving = try ServingProcess(["serve", "--reference"] + (installation.map { ["--installation", $0] } ?? [])
                                     + (port.map { ["--port", String($0)] } ?? []) + extra, what: "the reference server")
        #expect(url.hasPrefix("http://127.0.0.1:") || url.hasPrefix("https://127.0.0.1:"), "the reference server did not give a loopback address: \(url)")
    }

    var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    func stop() { serving.stop() }
}

/// A private configuration, data and cache home for one test.
/// Ends a child process: SIGTERM, up to 5 s to go, then SIGKILL.
func stopProcess(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    if !waitUntil(timeout: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }  // never hang the suite
    process.waitUntilExit()
}

struct TemporaryHome {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-home-\(UUID().uuidString)")
    var environment: [String: String] {
        ["XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "XDG_DATA_HOME": root.appendingPathComponent("data").path,
         "XDG_CACHE_HOME": root.appendingPathComponent("cache").path]
    }
    var store: URL { root.appendingPathComponent("config/hostshell/servers.json") }
    var storeDirectory: URL { root.appendingPathComponent("config/hostshell") }
    func remove() { try? FileManager.default.removeItem(at: root) }
    /// `name` in the home's root, which is made if need be (for files the app is told to write).
    func file(_ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.appendingPathComponent(name)
    }
}

@Suite("hostshell server: saved servers", .serialized)
struct ServerCommandTests {
    @Test("add verifies the identity, list shows it, a second add is refused, remove forgets it")
    func lifecycle() throws {
        let server = try ReferenceServer()
        let home = TemporaryHome()
        defer { home.remove() }
        let refused = try HostShellBinary.run(["server", "add", server.url], environment: home.environment)
        #expect(refused.status == 2, "plain http needs a confirmation")
        #expect(refused.stderr.contains("--allow-http"))
        let added = try HostShellBinary.run(["server", "add", server.url, "--allow-http", "--name", "Lobby"], environment: home.environment)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("installation 7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"))
        let listed = try HostShellBinary.run(["server", "list", "--json"], environment: home.environment)
        let servers = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(servers.map { $0["id"] as? String } == ["lobby"])
        #expect(servers.first?["address"] as? String == server.url)
        let attributes = try FileManager.default.attributesOfItem(atPath: home.store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "the store is owner-only")
        let again = try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment)
        // Issue 32 item 6: adding it again succeeds and says so (scripts re-run in CI).
        #expect(again.status == 0)
        #expect(again.stdout.contains("already saved as lobby") && again.stdout.contains("Nothing to do."), "\(again.stdout)")
        let removed = try HostShellBinary.run(["server", "remove", "lobby"], environment: home.environment)
        #expect(removed.status == 0)
        #expect(try HostShellBinary.run(["server", "list", "--json"], environment: home.environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try HostShellBinary.run(["server", "remove", "lobby"], environment: home.environment).status == 1)
    }

    @Test("addresses the policy refuses, and servers that are not Tilecast, are not saved")
    func refusals() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        for (input, message) in [("http://example.org", "must use https"), ("ftp://example.org", "not supported"),
                                 ("https://example.org/studio", "without a path"), ("", "Enter the server's address")] {
            let run = try HostShellBinary.run(["server", "add", input], environment: home.environment)
            #expect(run.status == 2, "\(input)")
            #expect(run.stderr.contains(message), "\(input): \(run.stderr)")
        }
        // A port nobody listens on: reported as unreachable, nothing saved.
        let run = try HostShellBinary.run(["server", "add", "http://127.0.0.1:9", "--allow-http"], environment: home.environment)
        #expect(run.status == 1)
        #expect(run.stderr.contains("could not be reached"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.store.path))

        // A bare local address is https (§4); a server that speaks plain http there is found
        // over http beside the https check, and the person is told how to add it — at once, not
        // after the https check's 10 s (this server never answers a TLS hello).
        let server = try ReferenceServer()
        defer { server.stop() }
        let bare = "127.0.0.1:\(server.port)"
        let hinted = try HostShellBinary.run(["server", "add", bare], environment: home.environment)
        #expect(hinted.status == 1 && hinted.stderr.contains("hostshell server add http://\(bare) --allow-http"), "\(hinted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.store.path))
    }

    @Test("a damaged store is reported and kept aside, never silently replaced")
    func damagedStore() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.storeDirectory, withIntermediateDirectories: true)
        try Data("{\"schemaVersion\": 1, \"servers\": [tru".utf8).write(to: home.store)
        let run = try HostShellBinary.run(["server", "list"], environment: home.environment)
        #expect(run.stderr.contains("was damaged"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: home.storeDirectory.path).filter { $0.contains("damaged") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: home.storeDirectory.appendingPathComponent(aside[0])) == Data("{\"schemaVersion\": 1, \"servers\": [tru".utf8))
        // A store from a newer HostShell is left alone.
        try Data(#"{"schemaVersion": 9, "servers": []}"#.utf8).write(to: home.store)
        let newer = try HostShellBinary.run(["server", "list"], environment: home.environment)
        #expect(newer.status == 2)
        #expect(newer.stderr.contains("newer HostShell"))
        #expect(try Data(contentsOf: home.store) == Data(#"{"schemaVersion": 9, "servers": []}"#.utf8))
    }

    @Test("the store survives kill -9 in the middle of writes: always the old list or the new one")
    func killDuringWrites() throws {
        let server = try ReferenceServer()
        let home = TemporaryHome()
        defer { home.remove() }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<24 {
            let process = Process()
            process.executableURL = HostShellBinary.url
            process.arguments = round % 3 == 2 ? ["server", "remove", "s\(round - 1)"]
                : ["server", "add", server.url.replacingOccurrences(of: "127.0.0.1", with: round % 2 == 0 ? "127.0.0.1" : "localhost"),
                   "--allow-http", "--name", "s\(round)"]
            process.environment = HostShellBinary.environment(home.environment)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Killed at a random moment of its run: the point of the test, not a wait for the app.
            usleep(UInt32.random(in: 0...30_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if FileManager.default.fileExists(atPath: home.store.path) {
                let list = try HostShellBinary.run(["server", "list", "--json"], environment: home.environment)
                #expect(list.status == 0, "round \(round): \(list.stderr)")
                #expect(!list.stderr.contains("damaged"), "round \(round): \(list.stderr)")
            }
        }
        // However the rounds fell, the store is there and sound afterwards.
        let final = try HostShellBinary.run(["server", "add", server.url, "--allow-http", "--name", "last"], environment: home.environment)
        #expect(final.status == 0 && !final.stderr.contains("damaged"), "\(final.stderr)")
        let listed = try HostShellBinary.run(["server", "list", "--json"], environment: home.environment)
        #expect(listed.status == 0 && listed.stdout.contains("\"last\""), "\(listed.stdout)\n\(listed.stderr)")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: home.storeDirectory.path)) ?? []
        #expect(leftovers.allSatisfy { !$0.contains("damaged") }, "\(leftovers)")
    }
}
