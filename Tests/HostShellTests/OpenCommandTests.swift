import Foundation
import Testing

/// `hostshell open --check` against a real reference server, headless when there is no display.
@Suite("hostshell open: a saved server in its window", .serialized)
struct OpenCommandTests {
    static func check(_ home: TemporaryHome, _ extra: [String] = []) throws -> (status: Int32, state: [String: Any]) {
        let run = try HostShellBinary.run(["open", "--check", "--timeout", "60"] + extra, environment: home.environment)
        let line = try #require(run.stdout.split(separator: "\n").last, "nothing printed: \(run.stderr)")
        return (run.status, try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]))
    }

    @Test("a saved server is verified, loaded and revealed with its native chrome")
    func revealed() throws {
        let server = try ReferenceServer()
        let home = TemporaryHome()
        defer { home.remove() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let (status, state) = try Self.check(home, ["--device", "tablet"])
        #expect(status == 0)
        #expect(state["screen"] as? String == "page")
        #expect((state["navigation"] as? [String: Any])?["kind"] as? String == "sidebar")
        #expect(state["negotiated"] as? Bool == true)
    }

    @Test("an unreachable server gets a clear screen with Retry, and nothing is loaded")
    func unreachable() throws {
        let server = try ReferenceServer()
        let home = TemporaryHome()
        defer { home.remove() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        server.stop()
        let (status, state) = try Self.check(home)
        #expect(status == 1)
        #expect(state["screen"] as? String == "error")
        let text = try #require(state["status"] as? [String: Any])
        #expect((text["title"] as? String)?.hasPrefix("Can't reach") == true)
        #expect(state["negotiated"] as? Bool == false)
    }

    @Test("a different installation at the saved address blocks loading, with an explanation")
    func identityMismatch() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let original = try ReferenceServer()
        let port = original.port
        #expect(try HostShellBinary.run(["server", "add", original.url, "--allow-http"], environment: home.environment).status == 0)
        original.stop()
        let impostor = try ReferenceServer(installation: "00000000-0000-4000-8000-000000000001", port: port)
        #expect(impostor.port == port)
        let (status, state) = try Self.check(home)
        #expect(status == 1)
        #expect(state["screen"] as? String == "error")
        let text = try #require(state["status"] as? [String: Any])
        #expect(text["title"] as? String == "This is not the server you saved")
        #expect((text["detail"] as? String)?.contains("00000000-0000-4000-8000-000000000001") == true)
        #expect(state["negotiated"] as? Bool == false, "the impostor's Studio was never loaded")
    }

    @Test("open without saved servers, or with an unknown one, says what to do (exit 2)")
    func noServers() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let none = try HostShellBinary.run(["open", "--check"], environment: home.environment)
        #expect(none.status == 2)
        #expect(none.stderr.contains("hostshell server add"))
        let unknown = try HostShellBinary.run(["open", "nope", "--check"], environment: home.environment)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("server list"))
    }
}
