import Foundation
import Testing

/// What a WebDriver test here needs, found once: WebKitWebDriver (Debian `webkit2gtk-driver`)
/// and Selenium for Debian's own Python (`python3-selenium`, which other Pythons do not see).
enum WebDriverTools {
    static let driver: String? = ["/usr/bin/WebKitWebDriver", "/usr/local/bin/WebKitWebDriver"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let python = "/usr/bin/python3"
    static let selenium: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import selenium.webdriver.webkitgtk.options"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()
    static let example = HostShellBinary.root.appendingPathComponent("examples/webdriver/test_studio.py").path
}

/// `hostshell open --automation` under WebKitWebDriver: the README's Selenium recipe run as is,
/// and the WebDriver protocol spoken directly for what the recipe does not show.
@Suite("WebDriver: open --automation (real WebKit, WebKitWebDriver)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .enabled(if: WebDriverTools.driver != nil, "WebKitWebDriver is not installed (Debian package webkit2gtk-driver; scripts/install-deps installs it)"),
       .serialized)
struct WebDriverTests {
    @Test("the Selenium recipe: the DOM drives the native chrome, ctl reads it back; one page per window; browserName is hostshell",
          .enabled(if: WebDriverTools.selenium, "Selenium is not installed for /usr/bin/python3 (Debian package python3-selenium; scripts/install-deps installs it)"))
    func seleniumRecipe() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-selenium-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: output) }
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let run = Process()
        run.executableURL = URL(fileURLWithPath: WebDriverTools.python)
        // Foundation.Process hands children this runner's blocked signal mask, and Selenium stops
        // the driver with SIGTERM: unblock every signal before the recipe starts.
        run.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.executable, [sys.executable] + sys.argv[1:])",
                         WebDriverTools.example, "-v"]
        run.environment = HostShellBinary.environment(["HOSTSHELL": HostShellBinary.url.path])
        let log = try FileHandle(forWritingTo: output)
        run.standardOutput = log
        run.standardError = log
        try run.run()
        let timedOut = !waitUntil(timeout: 240) { !run.isRunning }
        stopProcess(run)
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(!timedOut, "the recipe did not finish in 240 s")
        #expect(run.terminationStatus == 0, "the recipe failed:\n\(text.suffix(4000))")
        #expect(text.contains("Ran 3 tests"), "\(text.suffix(2000))")
        #expect(!text.contains("skipped"), "a recipe test was skipped:\n\(text.suffix(2000))")
    }

    @Test("issue 32 item 3: without a binary the recipe and the pytest suite fail, saying how to point at one; they never skip",
          .enabled(if: WebDriverTools.selenium, "Selenium is not installed for /usr/bin/python3 (Debian package python3-selenium)"))
    func nothingToRun() throws {
        for arguments in [[WebDriverTools.example], ["-m", "pytest", "-q", "-p", "no:cacheprovider", HostShellBinary.root.appendingPathComponent("examples/pytest").path]] {
            let run = Process()
            run.executableURL = URL(fileURLWithPath: WebDriverTools.python)
            run.arguments = arguments
            run.environment = HostShellBinary.environment(["HOSTSHELL": "/nonexistent/hostshell"])
            let output = Pipe()
            run.standardOutput = output
            run.standardError = output
            try run.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.waitUntilExit()
            #expect(run.terminationStatus != 0, "\(arguments.last ?? ""): \(text.suffix(1500))")
            #expect(text.contains("hostshell was not found") && text.contains("HOSTSHELL="), "\(text.suffix(1500))")
            #expect(!text.contains("skipped"), "\(text.suffix(1500))")
        }
    }

    @Test("a Studio that requires sign-in: the app's sign-in reaches the page WebDriver drives, and deleting the session quits the app")
    func signedInStudio() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer(extra: ["--require-sign-in", "--auto-approve"])
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let driver = try WebDriverService(environment: home.environment)
        defer { driver.stop() }
        let socket = home.root.appendingPathComponent("app.sock").path
        let session = try driver.newSession(arguments: ["open", "--automation", "--control", socket, "--credential-store", "file"])

        // The app signs in with its own window and puts Studio's cookie where the page is: on
        // WebKit's automation session (a profile session would leave the page on /login).
        let ready = try HostShellBinary.run(["ctl", socket, "wait", "screen=page", "negotiated=true", "auth.credential=true",
                                             "url=\"\(server.url)/\"", "--timeout", "60"])
        #expect(ready.status == 0, "\(ready.stderr)")
        #expect(try driver.value("GET", "/session/\(session)/url") as? String == server.url + "/")
        let page = try driver.value("POST", "/session/\(session)/execute/sync", [
            "script": "return [document.title, typeof window.webkit.messageHandlers.tilecastNative.postMessage]", "args": [Any]()])
        #expect(page as? [String] == ["Overview · Reference Studio", "function"], "the driven page is the app's signed-in Studio page")

        _ = try driver.value("DELETE", "/session/\(session)")
        #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: socket) },
                "the app quit with its page and removed its control socket")
    }

    @Test("issue 32 item 3: an app that cannot start (no saved server) answers the driver: session not created, not a wait for good")
    func appThatCannotStart() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let driver = try WebDriverService(environment: home.environment)
        defer { driver.stop() }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "hostshell",
            "webkitgtk:browserOptions": ["binary": HostShellBinary.url.path, "args": ["open", "--automation"]]]]]
        // Bounded: before, the driver never answered (its request is ended by the watchdog).
        let watchdog = DispatchWorkItem { [process = driver.process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        let answer = try HTTP.request("POST", "http://127.0.0.1:\(driver.port)/session", json: capabilities)
        let value = (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["value"] as? [String: Any]
        #expect(answer.status == 500 && value?["error"] as? String == "session not created", "\(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test("switching servers would end the session's page, so it is refused while a session drives it")
    func noSwitchUnderAutomation() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let (north, south) = try ControlTests.twoServers(home)
        defer { north.stop(); south.stop() }
        let driver = try WebDriverService(environment: home.environment)
        defer { driver.stop() }
        let socket = home.root.appendingPathComponent("app.sock").path
        let session = try driver.newSession(arguments: ["open", "north-studio", "--automation", "--control", socket, "--credential-store", "file"])
        #expect(try HostShellBinary.run(["ctl", socket, "wait", "screen=page", "--timeout", "60"]).status == 0)
        let refused = try HostShellBinary.run(["ctl", socket, "switch-server", "south-studio"])
        #expect(refused.status == 1 && refused.stderr.contains("a WebDriver session drives north-studio's page"), "\(refused.stderr)")
        #expect(try driver.value("GET", "/session/\(session)/url") as? String == north.url + "/", "the session still has its page")
        _ = try driver.value("DELETE", "/session/\(session)")
    }
}

@Suite("WebDriver: open --automation arguments")
struct AutomationArgumentTests {
    @Test("--automation waits for a driver, so it is refused with --check (exit 2)")
    func notWithCheck() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let run = try HostShellBinary.run(["open", "--automation", "--check"], environment: home.environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--automation") && run.stderr.contains("--check"))
    }
}

/// A WebKitWebDriver on a free loopback port, spoken to with the WebDriver protocol's JSON.
final class WebDriverService {
    let process = Process()
    let port: Int

    /// `arguments`: the driver's own beyond its port (`--target=ADDRESS` for a fleet's sessions).
    init(environment: [String: String], arguments: [String] = []) throws {
        port = try freePort()
        process.executableURL = URL(fileURLWithPath: try #require(WebDriverTools.driver))
        process.arguments = ["--port=\(port)"] + arguments
        // The driver starts the app with its own environment: the test's throw-away home.
        process.environment = HostShellBinary.environment(environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let up = waitUntil(timeout: 10) { [process, port] in
            !process.isRunning || (try? HTTP.request("GET", "http://127.0.0.1:\(port)/status").status) == 200
        }
        #expect(up && process.isRunning, "WebKitWebDriver did not start on port \(port)")
    }

    /// Starts a session whose browser is the hostshell binary with `arguments`; its id.
    func newSession(arguments: [String]) throws -> String {
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "hostshell",
            "webkitgtk:browserOptions": ["binary": HostShellBinary.url.path, "args": arguments]]]]
        let value = try #require(try self.value("POST", "/session", capabilities) as? [String: Any])
        return try #require(value["sessionId"] as? String)
    }

    /// One command's `value`; a WebDriver error fails the test with the driver's words. A driver
    /// waiting on an app that never came up is ended after 60 s, so the test fails, not hangs.
    func value(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        let answer = try HTTP.request(method, "http://127.0.0.1:\(port)\(path)", json: body ?? (method == "POST" ? [:] : nil))
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        let value = object?["value"]
        if answer.status != 200 {
            Issue.record("\(method) \(path): HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return value is NSNull ? nil : value
    }

    func stop() { stopProcess(process) }
}

/// A loopback TCP port nothing listens on now (the kernel picks it).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    try #require(bound, "no free loopback port")
    return Int(UInt16(bigEndian: address.sin_port))
}
