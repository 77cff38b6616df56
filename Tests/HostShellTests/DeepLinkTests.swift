import Foundation
import Testing

/// Deep links end to end: the control interface's and the desktop's `open-url`, the queue until
/// Studio is ready, another server's link, and links that must not be followed.
@Suite("Deep links (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct DeepLinkTests {
    static let north = "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"
    static let south = "11111111-2222-4333-8444-555555555555"

    static func link(_ installation: String, _ path: String) -> String {
        "tilecast-ios://open?installation=\(installation)&path=" + path.replacingOccurrences(of: "/", with: "%2F")
    }

    @Test("a link opens its path; another server's link switches; unknown and refused links contact no one")
    func links() throws {
        let live = try TwoServerApp(["--device", "phone"])
        defer { live.finish() }
        let (app, home, north, south) = (live.app, live.home, live.north, live.south)
        _ = try app.state("screen=page", "negotiated=true")

        #expect(try app.ctl("open-url", Self.link(Self.north, "/screens/lobby-north")).status == 0)
        _ = try app.state("url=\"\(north.url)/screens/lobby-north\"", "backBar.label=Screens")

        // From the desktop: `hostshell open-url` hands it to the running app.
        let desktop = try HostShellBinary.run(["open-url", Self.link(Self.south, "/media")], environment: home.environment)
        #expect(desktop.status == 0, "\(desktop.stderr)")
        _ = try app.state("server.id=\"south-studio\"", "url=\"\(south.url)/media\"", "navigation.selected=media")

        let before = try #require(try HTTP.json(north.url + "/__test/requests")["count"] as? Int)
        let unknown = try app.ctl("open-url", Self.link("99999999-9999-4999-8999-999999999999", "/media"))
        #expect(unknown.status == 1 && unknown.error.contains("not set up here"))
        let login = try app.ctl("open-url", Self.link(Self.south, "/login"))
        #expect(login.status == 1 && login.error.contains("cannot be opened"))
        // Both were refused before the app answered (the link is parsed and its installation
        // looked up first), so nothing could have been asked of a server since.
        #expect(try HTTP.json(north.url + "/__test/requests")["count"] as? Int == before, "nothing went to any server")
        let notices = try #require(try app.state("server.id=\"south-studio\"")["notices"] as? [String])
        #expect(notices.contains { $0.contains("not set up here") })
    }

    @Test("a link that starts the app waits for Studio to be ready, then opens")
    func coldStart() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let (north, south) = try ControlTests.twoServers(home)
        defer { north.stop(); south.stop() }
        // No app is running: open-url starts one, on the link's own server.
        let app = try RunningApp(home: home, arguments: ["--open-url", Self.link(Self.south, "/screens/cafeteria")])
        defer { app.stop() }
        _ = try app.state("server.id=\"south-studio\"", "url=\"\(south.url)/screens/cafeteria\"", "negotiated=true")
    }
}
