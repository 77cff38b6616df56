import Foundation
import Testing

/// Issue 28 item 6: `hostshell capacitor --check` waits for the app to boot and reports what it
/// did. The app (`fixtures/capacitor/boot-app`) makes its bridge calls after its document has
/// loaded and painted, as a React app's first effects do.
@Suite("capacitor --check waits for the app's boot and says what it did (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"))
struct CapacitorBootCheckLiveTests {
    static let web = HostShellBinary.root.appendingPathComponent("fixtures/capacitor/boot-app/www").path

    @Test("--web-dir alone: the nearest project's name and version; the report has the calls made after the load, the console error and the unimplemented call")
    func reportsTheBoot() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let check = try HostShellBinary.run(["capacitor", "--web-dir", Self.web, "--check"], environment: home.environment)
        #expect(check.status == 0, "\(check.stderr)")
        let state = try #require(try JSONSerialization.jsonObject(with: Data(check.lastLine.utf8)) as? [String: Any], "\(check.stdout)")
        let app = try #require(state["app"] as? [String: Any])
        #expect(app["name"] as? String == "Boot App" && app["id"] as? String == "dev.hostshell.bootapp", "from the nearest capacitor.config.json: \(app)")
        #expect(app["version"] as? String == "2.4.1", "from the nearest package.json: \(app)")
        let boot = try #require(state["boot"] as? [String: Any], "the report says what the app did: \(state.keys.sorted())")
        #expect(boot["verdict"] as? String == "booted", "\(boot)")
        let calls = boot["calls"] as? [String: Int] ?? [:]
        #expect(calls["App.getInfo"] == 1 && calls["App.getState"] == 2, "the calls made after the load: \(boot)")
        #expect(boot["unimplemented"] as? [String: Int] == ["LiveView.start": 1], "\(boot)")
        let errors = (boot["consoleErrors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(errors == ["live view unavailable: UNIMPLEMENTED"], "\(boot)")
        #expect(check.stderr.contains("hostshell: booted after") && check.stderr.contains("1 unimplemented call (LiveView.start)"), "\(check.stderr)")
    }

    @Test("an app that never calls the bridge is reported once it has loaded and painted, within the wait for a first call")
    func reportsAnAppWithoutBridgeCalls() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let quiet = home.root.appendingPathComponent("quiet-app")
        try FileManager.default.createDirectory(at: quiet, withIntermediateDirectories: true)
        try "<!doctype html><title>Quiet</title><h1>Nothing native here</h1>".write(to: quiet.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let check = try HostShellBinary.run(["capacitor", "--web-dir", quiet.path, "--app-id", "dev.hostshell.quiet", "--check"], environment: home.environment)
        #expect(check.status == 0, "\(check.stderr)")
        let state = try #require(try JSONSerialization.jsonObject(with: Data(check.lastLine.utf8)) as? [String: Any], "\(check.stdout)")
        let boot = try #require(state["boot"] as? [String: Any])
        #expect(boot["verdict"] as? String == "no-bridge-call" && (boot["calls"] as? [String: Any])?.isEmpty == true, "\(boot)")
        #expect((state["app"] as? [String: Any])?["version"] is NSNull, "no package.json near it")
    }
}
