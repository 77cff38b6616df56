import Foundation
import Testing

/// The loading and failure screens as the state dump reports them (the `LoadingMachine`'s
/// value), against real WebKit and reference servers on loopback.
@Suite("Loading screens (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct LoadingScreenTests {
    /// Saves a reference server in `home` and stops it; returns its port, for another to take.
    static func savedServerGone(_ home: TemporaryHome) throws -> Int {
        let original = try ReferenceServer()
        #expect(try HostShellBinary.run(["server", "add", original.url, "--allow-http"], environment: home.environment).status == 0)
        original.stop()
        return original.port
    }

    @Test("a 404 for Studio's page is an error screen with its status, not blamed on the server; the dump names the kind")
    func notFound() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer(extra: ["--fail", "/=404"])
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let (code, state) = try OpenCommandTests.check(home)
        #expect(code == 1)
        #expect(state["screen"] as? String == "error")
        let status = try #require(state["status"] as? [String: Any])
        #expect(status["kind"] as? String == "httpError" && status["httpStatus"] as? Double == 404, "\(status)")
        #expect((status["detail"] as? String)?.contains("HTTP 404") == true)
        #expect((status["detail"] as? String)?.contains("a problem on the server") == false, "a 404 is not the server's fault")
        #expect(status["icon"] as? String == "dialog-error-symbolic")
    }

    @Test("an identity check the server answers with an error: it did not say who it is, and nothing is loaded")
    func notIdentified() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let port = try Self.savedServerGone(home)
        let refusing = try ReferenceServer(port: port, extra: ["--fail", "/api/v1/system/identity=500"])
        defer { refusing.stop() }
        #expect(refusing.port == port)
        let (code, state) = try OpenCommandTests.check(home)
        #expect(code == 1)
        #expect(state["screen"] as? String == "error")
        let status = try #require(state["status"] as? [String: Any])
        #expect(status["kind"] as? String == "notIdentified", "\(status)")
        #expect((status["title"] as? String)?.hasSuffix("did not say who it is") == true)
        #expect((status["detail"] as? String)?.contains("HTTP 500") == true)
        #expect(state["negotiated"] as? Bool == false, "Studio was never loaded")
    }

    @Test("a kiosk whose server answers Studio's page with 503 retries behind the loading mark until the page is there")
    func kioskErrorPage() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        var server = try ReferenceServer(extra: ["--fail", "/=503"])
        let port = server.port
        let app = try KioskTests.start(server, home: home)
        defer { app.stop() }
        let waiting = try app.state("screen=loading", "kiosk.retry.attempt=2", timeout: 30)
        let retry = try #require((waiting["kiosk"] as? [String: Any])?["retry"] as? [String: Any])
        #expect((retry["reason"] as? String)?.hasSuffix("answered with an error") == true, "\(retry)")
        #expect(retry["inSeconds"] as? Double == 2)
        let status = try #require(waiting["status"] as? [String: Any])
        #expect(status["kind"] == nil, "a kiosk shows the loading mark, not an error screen: \(status)")
        server.stop()
        server = try ReferenceServer(port: port)
        defer { server.stop() }
        _ = try app.state("screen=page", "negotiated=true", "kiosk.retry=null", "status=null", timeout: 60)
    }
}
