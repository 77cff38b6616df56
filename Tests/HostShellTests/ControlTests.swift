import Foundation
import Testing

/// A running `hostshell open … --control SOCKET`, driven through `hostshell ctl`.
final class RunningApp {
    let process = Process()
    let socket: String
    let home: TemporaryHome

    /// Everything the app and its web processes print: one file per app, even in a shared home.
    let logFile: URL
    /// How much of the log there was when the test killed the app (see `kill`).
    private var loggedBeforeKill: Int?

    init(home: TemporaryHome, arguments: [String], command: String = "open", environment: [String: String] = [:]) throws {
        self.home = home
        logFile = home.root.appendingPathComponent("app-\(UUID().uuidString.prefix(8)).log")
        try FileManager.default.createDirectory(at: home.root, withIntermediateDirectories: true)
        socket = home.root.appendingPathComponent("control.sock").path
        process.executableURL = HostShellBinary.url
        process.arguments = [command, "--control", socket] + arguments
        process.environment = HostShellBinary.environment(home.environment.merging(environment) { $1 })
        // Everything the app prints, for tests that check what it logs.
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        // Connectable, not merely present: a stale file from an earlier app may already be there.
        let listening = waitUntil(timeout: 10) { [socket, process] in
            !process.isRunning || !rawExchange(socket, Array("{\"command\":\"state\"}\n".utf8), lines: 1).isEmpty
        }
        #expect(listening && process.isRunning, "the app did not open its control socket")
    }

    /// `hostshell ctl SOCKET ARGS…`: the exit status, and the result as a JSON value or the error text.
    @discardableResult
    func ctl(_ arguments: String...) throws -> (status: Int32, result: Any?, error: String) { try ctl(arguments) }

    @discardableResult
    func ctl(_ arguments: [String]) throws -> (status: Int32, result: Any?, error: String) {
        let run = try HostShellBinary.run(["ctl", socket] + arguments)
        let result = run.status == 0 ? try JSONSerialization.jsonObject(with: Data(run.stdout.utf8), options: .fragmentsAllowed) : nil
        return (run.status, result, run.stderr)
    }

    /// The state, polled until `key` (a dotted path; numbers index arrays) is present and not null.
    func stateWhen(_ path: String, timeout: Double = 30) throws -> [String: Any] {
        var found: [String: Any]?
        _ = try waitUntil(timeout: timeout) {
            let run = try HostShellBinary.run(["ctl", socket, "state"])
            guard let state = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else { return false }
            var value: Any? = state
            for key in path.split(separator: ".") {
                if let array = value as? [Any], let index = Int(key) {
                    value = array.indices.contains(index) ? array[index] : nil
                } else {
                    value = (value as? [String: Any])?[String(key)]
                }
            }
            if let value, !(value is NSNull) { found = state }
            return found != nil
        }
        guard let found else {
            Issue.record("\(path) did not appear within \(timeout) s\(diagnosis())")
            return [:]
        }
        return found
    }

    /// The state once every condition holds (`ctl wait`); a wait that timed out ends the test
    /// with the app's own account of what did not hold.
    func state(_ conditions: String..., timeout: Int = 30) throws -> [String: Any] {
        let answer = try HostShellBinary.run(["ctl", socket, "wait"] + conditions + ["--timeout", String(timeout), "--state"])
        try #require(answer.status == 0, "wait \(conditions.joined(separator: " ")): \(answer.stderr)\(diagnosis())")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any],
                            "the app's answer to wait is not a state: \(answer.stdout)")
    }

    /// What the window shows and what the app said, for a failed wait.
    func diagnosis() -> String {
        let state = (try? HostShellBinary.run(["ctl", socket, "state"]))
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) as? [String: Any] }
        let shown = state.map { "screen \($0["screen"] ?? "?"), status \($0["status"] ?? "?"), url \($0["url"] ?? "?")" } ?? "no state (is the app alive?)"
        let said = ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("hostshell:") || $0.contains("-CRITICAL **") || $0.contains("-WARNING **") }.suffix(10)
        return "\n  \(shown)\n  the app said:\n  " + said.joined(separator: "\n  ")
    }

    /// Opens a menu of the page as a click on its trigger would, and waits until it is on screen.
    /// The suites' apps share one X display: while another app's menu holds the pointer and
    /// keyboard, GTK cannot show this one and the app says so (and tells Studio nothing); then
    /// it is asked for again, as a person would click again.
    func openMenu(_ menuId: String, timeout: Double = 30) throws {
        var last: (status: Int32, result: Any?, error: String) = (1, nil, "")
        let answered = try waitUntil(timeout: timeout) {
            last = try ctl("menu-open", menuId)
            return last.status == 0 || !last.error.contains("could not be shown")
        }
        #expect(answered && last.status == 0, "menu-open \(menuId): \(last.error)")
        _ = try state("menus.open=\"\(menuId)\"")
    }

    /// Evaluates `script` in the page (or the sheet's page) until its result is neither null nor
    /// false: a wait on what the page did. The result, or nil and an issue after `timeout` s.
    func evalWhen(_ script: String, sheet: Bool = false, timeout: Double = 30) throws -> Any? {
        var result: Any?
        let arguments = ["eval"] + (sheet ? ["--sheet"] : []) + [script]
        let held = try waitUntil(timeout: timeout) {
            result = try ctl(arguments).result
            return !(result == nil || result is NSNull || (result as? Bool) == false)
        }
        if !held { Issue.record("\(script) was still \(String(describing: result)) after \(timeout) s\(diagnosis())") }
        return held ? result : nil
    }

    private var stopped = false
    private var killedOnPurpose = false

    /// Ends the app as a crash would (SIGKILL), which `stop` then does not report.
    func kill() {
        killedOnPurpose = true
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // What its orphaned web processes log from now on is WebKit's reaction to the app's end.
        loggedBeforeKill = logged()
    }

    private func logged() -> Int { ((try? FileManager.default.attributesOfItem(atPath: logFile.path))?[.size] as? Int) ?? 0 }

    /// A web process's critical seen only while the app exits on SIGTERM, a few times in many
    /// runs and not yet understood (no WebKit symbols here to see where): shown as a known
    /// issue, not hidden, and only that exact one, only then.
    static let knownExitCritical = "GLib-GObject-CRITICAL **", knownExitAssertion = "g_object_ref: assertion 'G_IS_OBJECT (object)' failed"

    func stop() {
        guard !stopped else { return }
        stopped = true
        let crashed = !killedOnPurpose && !process.isRunning && process.terminationReason == .uncaughtSignal
        let loggedBeforeStop = logged()
        stopProcess(process)
        // The app and its web processes log here. With G_DEBUG=fatal-criticals a critical ends
        // the process that raised it; one in a web process may only show as a reload.
        let log = (try? Data(contentsOf: logFile)) ?? Data()
        let kept = log.prefix(loggedBeforeKill ?? log.count)
        let running = String(decoding: kept.prefix(loggedBeforeStop), as: UTF8.self).split(separator: "\n")
        let exiting = String(decoding: kept.dropFirst(loggedBeforeStop), as: UTF8.self).split(separator: "\n")
        let lines = running + exiting
        let app = "(hostshell:\(process.processIdentifier))", appUnnamed = "(process:\(process.processIdentifier))"
        let known = exiting.filter { line in
            line.contains(Self.knownExitCritical) && line.contains(Self.knownExitAssertion) && !line.contains(app) && !line.contains(appUnnamed)
        }
        let criticals = lines.indices.filter { lines[$0].contains("-CRITICAL **") && !known.contains(lines[$0]) }
        if !criticals.isEmpty {
            // With what came just before each.
            let context = criticals.map { lines[max(0, $0 - 3)...$0].joined(separator: "\n") }
            Issue.record("the app or its web processes logged criticals:\n\(context.joined(separator: "\n--\n"))")
        }
        if !known.isEmpty {
            withKnownIssue("a web process's critical while the app exits (open: cause not found yet)") {
                Issue.record("logged after SIGTERM:\n\(known.joined(separator: "\n"))")
            }
        }
        // An app that crashed on its own says why in its log, which goes with the home.
        if crashed {
            let tail = lines.filter { !$0.hasPrefix("0x0000") && !$0.allSatisfy(\.isWhitespace) && !$0.hasSuffix("...") }
            Issue.record("the app died of signal \(process.terminationStatus); its log ends:\n\(tail.suffix(30).joined(separator: "\n"))")
        }
    }

    deinit { stop() }
}

/// Polls `condition` every 50 ms until it holds (true) or `timeout` seconds pass (false): a wait
/// on a condition, never a pause of a guessed length.
@discardableResult
func waitUntil(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(50_000)
    }
}

/// The usual live setup: a reference server, saved in a throw-away home, and the app open on it
/// with a control socket.
struct LiveApp {
    let home = TemporaryHome()
    let server: ReferenceServer
    let app: RunningApp

    init(_ arguments: [String] = [], serverOptions: [String] = []) throws {
        server = try ReferenceServer(extra: serverOptions)
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        app = try RunningApp(home: home, arguments: arguments)
    }

    func finish() {
        app.stop()
        server.stop()
        home.remove()
    }
}

/// North and South Studio (two reference servers) saved in a throw-away home, and the app open on
/// north-studio with a control socket.
struct TwoServerApp {
    let home = TemporaryHome()
    let north: ReferenceServer
    let south: ReferenceServer
    let app: RunningApp

    init(_ arguments: [String] = []) throws {
        (north, south) = try ControlTests.twoServers(home)
        app = try RunningApp(home: home, arguments: ["north-studio"] + arguments)
    }

    func finish() {
        app.stop()
        north.stop()
        south.stop()
        home.remove()
    }
}

/// Sends raw bytes to a Unix socket and reads what comes back until the peer closes or a
/// line count is reached: for the malformed-input cases `hostshell ctl` would never send.
func rawExchange(_ path: String, _ bytes: [UInt8], lines wanted: Int) -> [String] {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { return [] }
    var sent = 0
    while sent < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
        guard n > 0 else { break }
        sent += n
    }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    while received.filter({ $0 == UInt8(ascii: "\n") }).count < wanted {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { break }
        received += chunk[0..<n]
    }
    return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
}

@Suite("Control interface and server switching (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct ControlTests {
    static func twoServers(_ home: TemporaryHome) throws -> (ReferenceServer, ReferenceServer) {
        let north = try ReferenceServer(extra: ["--organization", "North Studio"])
        let south = try ReferenceServer(installation: "11111111-2222-4333-8444-555555555555", extra: ["--organization", "South Studio"])
        for server in [north, south] {
            #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        }
        return (north, south)
    }

    @Test("issue 32 item 6: ctl wait prints what it waited for; --state prints the whole state")
    func waitPrintsItsConditions() throws {
        let live = try LiveApp()
        defer { live.finish() }
        _ = try live.app.state("screen=page", "negotiated=true", timeout: 60)
        let run = try HostShellBinary.run(["ctl", live.app.socket, "wait", "screen=page", "negotiated=true"])
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        #expect(printed.count == 2 && printed["screen"] as? String == "page" && printed["negotiated"] as? Bool == true, "\(printed)")
        let whole = try live.app.state("screen=page")
        #expect(whole["hostCapabilities"] != nil, "--state: the whole state")
    }

    @Test("issue 32 item 2: ctl snapshot with a relative path writes it where ctl runs, not where the app does")
    func relativeSnapshot() throws {
        let live = try LiveApp()
        defer { live.finish() }
        _ = try live.app.state("screen=page", timeout: 60)
        let here = live.home.root.appendingPathComponent("here")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = HostShellBinary.url
        process.arguments = ["ctl", live.app.socket, "snapshot", "shot.png"]
        process.environment = HostShellBinary.environment([:])
        process.currentDirectoryURL = here
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
        let png = try Data(contentsOf: here.appendingPathComponent("shot.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG where ctl ran")
    }

    @Test("state, wait, tap and back drive the native chrome; refusals say why")
    func driveChrome() throws {
        let live = try TwoServerApp(["--device", "phone"])
        defer { live.finish() }
        let (app, home, north) = (live.app, live.home, live.north)
        let ready = try app.state("screen=page", "navigation.selected=overview")
        #expect((ready["server"] as? [String: Any])?["id"] as? String == "north-studio")
        #expect(ready["servers"] as? [String] == ["north-studio", "south-studio"])
        #expect(ready["status"] is NSNull)

        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.state("navigation.selected=screens", "url=\"\(north.url)/screens\"")
        let unknown = try app.ctl("tap", "nowhere")
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no destination \"nowhere\" in the catalog"))
        let noBar = try app.ctl("back")
        #expect(noBar.status == 1 && noBar.error.contains("no back bar"))

        let eval = try app.ctl("eval", "1 + 1")
        #expect(eval.status == 1 && eval.error.contains("--allow-eval"), "eval is refused unless the session allows it")

        let timedOut = try app.ctl("wait", "navigation.selected=media", "--timeout", "0.3")
        #expect(timedOut.status == 1)
        #expect(timedOut.error.contains("timed out") && timedOut.error.contains("navigation.selected is \"screens\""))

        let shot = home.root.appendingPathComponent("window.png").path
        #expect(try app.ctl("snapshot", shot).status == 0)
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG was written")

        let attributes = try FileManager.default.attributesOfItem(atPath: app.socket)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "only the owner may drive the app")
    }

    @Test("malformed lines get an error answer and the connection goes on; an endless line is cut off")
    func malformedInput() throws {
        let live = try TwoServerApp([])
        defer { live.finish() }
        let app = live.app
        let lines = rawExchange(app.socket, Array("{nope\n[1]\n{\"id\":4,\"command\":\"tap\"}\n\u{1}\u{2}\n{\"id\":\"s\",\"command\":\"state\"}\n".utf8), lines: 5)
        #expect(lines.count == 5)
        let answers = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(answers.count == 5, "every answer is one JSON object per line")
        #expect(answers.prefix(4).allSatisfy { $0["ok"] as? Bool == false && ($0["error"] as? String)?.isEmpty == false })
        #expect(answers[2]["id"] as? Int == 4, "the id is echoed even when the request is refused")
        #expect(answers[4]["id"] as? String == "s" && answers[4]["ok"] as? Bool == true)

        let endless = rawExchange(app.socket, [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 70_000), lines: 1)
        #expect(endless.first?.contains("longer than") == true)
        #expect(try app.ctl("state").status == 0, "the app still answers")
    }

    @Test("switching servers in the running app keeps each server's data and sign-in cookie")
    func switchServers() throws {
        let live = try TwoServerApp(["--allow-eval"])
        defer { live.finish() }
        let (app, south) = (live.app, live.south)
        _ = try app.state("screen=page", "negotiated=true")
        // The header's switcher (F10) opens inside the window, not past its left edge.
        #expect(try app.ctl("action", "switch-server").status == 0)
        let opened = try app.state("desktop.overlays.0.kind=\"popover\"")
        let frame = try #require(((opened["desktop"] as? [String: Any])?["overlays"] as? [[String: Any]])?.first)
        let windowWidth = try #require((opened["window"] as? [String: Any])?["width"] as? Int)
        #expect((frame["x"] as! Int) >= 0 && (frame["x"] as! Int) + (frame["width"] as! Int) <= windowWidth, "\(frame)")
        #expect(try app.ctl("action", "switch-server").status == 0)
        _ = try app.state("desktop.overlays=[]")
        #expect(try app.ctl("eval", #"localStorage.setItem("who", "north"); document.cookie = "session=north; max-age=3600"; true"#).status == 0)

        #expect(try app.ctl("switch-server", "south-studio").status == 0)
        let south1 = try app.state("screen=page", "server.id=\"south-studio\"", "negotiated=true")
        #expect(south1["url"] as? String == south.url + "/")
        let southView = try app.ctl("eval", #"[localStorage.getItem("who"), document.cookie]"#)
        #expect(southView.result as? [AnyHashable] == [NSNull(), ""], "south sees nothing of north")
        #expect(try app.ctl("eval", #"localStorage.setItem("who", "south"); true"#).status == 0)

        #expect(try app.ctl("switch-server", "north-studio").status == 0)
        _ = try app.state("screen=page", "server.id=\"north-studio\"", "negotiated=true")
        let northView = try app.ctl("eval", #"[localStorage.getItem("who"), document.cookie]"#)
        #expect(northView.result as? [String] == ["north", "session=north"], "north's data came back with it")

        let unknown = try app.ctl("switch-server", "west")
        #expect(unknown.status == 1 && unknown.error.contains("no saved server \"west\""))
    }

    @Test("switching servers while a row's menu was just closed and a sheet shows leaves the app alive, on the new server, with nothing left over")
    func switchAfterMenuAndSheet() throws {
        let live = try TwoServerApp(["--device", "phone"])
        defer { live.finish() }
        let (app, north, south) = (live.app, live.north, live.south)
        for round in 0..<2 {
            let (from, to) = round == 0 ? ("north-studio", "south-studio") : ("south-studio", "north-studio")
            _ = try app.state("screen=page", "server.id=\"\(from)\"", "negotiated=true", "presentation.ready=true", timeout: 60)
            #expect(try app.ctl("tap", "screens").status == 0)
            _ = try app.state("menus.triggers=[\"row-cafeteria\",\"row-lobby-north\",\"row-reception\"]")
            // A menu opened and dismissed, then one whose choice opens a sheet: both popovers
            // are let go of while the switch happens.
            try app.openMenu("row-cafeteria")
            #expect(try app.ctl("menu-close").status == 0)
            try app.openMenu("row-lobby-north")
            #expect(try app.ctl("menu", "preview").status == 0)
            _ = try app.state("presentation.shown.revealed=true", "menus.open=null")
            let switched = try app.ctl("switch-server", to)
            #expect(switched.status == 0, "\(switched.error)")
            let after = try app.state("screen=page", "server.id=\"\(to)\"", "negotiated=true", "presentation.shown=null",
                                      "menus.open=null", "alert=null", "presentation.ready=true", timeout: 60)
            #expect(after["url"] as? String == (to == "south-studio" ? south.url : north.url) + "/")
            #expect(app.process.isRunning, "the app is alive after the switch")
        }
        // The app still shows sheets after the switches.
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.state("menus.triggers.0=row-cafeteria")
        try app.openMenu("row-cafeteria")
        #expect(try app.ctl("menu", "preview").status == 0)
        _ = try app.state("presentation.shown.revealed=true", "presentation.shown.title=Cafeteria")
        #expect(try app.ctl("sheet-dismiss").status == 0)
        _ = try app.state("presentation.shown=null", "presentation.ready=true")
    }

    @Test("an HTTP error for Studio's page gets an error screen, not the server's error page")
    func httpError() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let failing = try ReferenceServer(extra: ["--fail", "/=503"])
        defer { failing.stop() }
        #expect(try HostShellBinary.run(["server", "add", failing.url, "--allow-http"], environment: home.environment).status == 0)
        let run = try HostShellBinary.run(["open", "--check", "--timeout", "60"], environment: home.environment)
        #expect(run.status == 1)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(run.lastLine.utf8)) as? [String: Any])
        #expect(state["screen"] as? String == "error")
        let status = try #require(state["status"] as? [String: Any])
        #expect((status["title"] as? String)?.contains("answered with an error") == true)
        #expect((status["detail"] as? String)?.contains("HTTP 503") == true)
    }

    @Test("a stale socket file is replaced, a live one refused, and the file goes when the app ends")
    func socketLifecycle() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let (north, south) = try Self.twoServers(home)
        defer { north.stop(); south.stop() }
        let first = try RunningApp(home: home, arguments: ["north-studio"])
        _ = try first.state("screen=page")
        let second = try HostShellBinary.run(["open", "north-studio", "--control", first.socket], environment: home.environment)
        #expect(second.status == 2 && second.stderr.contains("already listening"))
        first.kill()  // leaves the socket file behind
        first.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: first.socket))
        let again = try RunningApp(home: home, arguments: ["north-studio"])
        #expect(try again.ctl("state").status == 0, "the stale file was replaced by a live socket")
        again.stop()
        #expect(!FileManager.default.fileExists(atPath: again.socket), "SIGTERM removes the socket")
    }
}

/// The live host's failure screens and per-document negotiation, driven through the control
/// interface against real WebKit.
@Suite("Live host: failures and re-negotiation (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct LiveFailureTests {
    /// The app's WebKit web processes: descendants of `pid` whose command line names WebKitWebProcess.
    static func webProcesses(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        var queue = [pid]
        while let parent = queue.popLast() {
            let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ Int32($0) }) {
                queue.append(child)
                    // The web process itself, not the bwrap sandbox that launches it: WebKit aborts the
                // app if a launcher dies before it has said which process it started, which no
                // crash of a running page does.
                let command = (try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? ""
                let program = command.split(separator: "\0", maxSplits: 1).first.map(String.init) ?? ""
                if program.hasSuffix("/WebKitWebProcess") { found.append(child) }
            }
        }
        return found
    }

    @Test("a killed web process is reloaded; more than two deaths in 30 s give an error screen with Retry")
    func webProcessCrash() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true")
        for death in 1...3 {
            // Both pages settled (the sheet page is prewarmed once main is ready): no process is
            // being launched when they die.
            _ = try app.state("presentation.ready=true")
            #expect(try app.ctl("eval", "window.__before = \(death); true").status == 0)
            let victims = Self.webProcesses(of: app.process.processIdentifier)
            #expect(!victims.isEmpty, "no web process found under the app")
            for victim in victims { kill(victim, SIGKILL) }
            guard death < 3 else { break }
            // Reloaded: a new document (the marker is gone) negotiates again and the page shows.
            let fresh = try app.evalWhen(#"typeof window.__before === "undefined""#) as? Bool
            #expect(fresh == true, "the page was not reloaded after web-process death \(death)")
            _ = try app.state("screen=page", "negotiated=true")
        }
        let failed = try app.state("screen=error")
        let status = try #require(failed["status"] as? [String: Any])
        #expect(status["title"] as? String == "Studio keeps stopping")
        // The dead document's state is gone with it: its sheet page is discarded (a state change
        // after the error screen, which once revealed the dead page) and nothing is prewarmed
        // for it; the error screen stays.
        let still = try app.state("presentation.prepared=false", "presentation.ready=false", "negotiated=false")
        #expect(still["screen"] as? String == "error")
        #expect((still["status"] as? [String: Any])?["title"] as? String == "Studio keeps stopping")
        // Retry (the control interface's reload) brings it back.
        #expect(try app.ctl("reload").status == 0)
        _ = try app.state("screen=page", "negotiated=true")
    }

    @Test("every document negotiates again; a document without config/get gets no native chrome")
    func renegotiationAndFallback() throws {
        let live = try LiveApp(["--device", "phone", "--allow-eval"])
        defer { live.finish() }
        let (app, server) = (live.app, live.server)
        _ = try app.state("screen=page", "negotiated=true", "navigation.kind=tabs")
        // A full document load (not a route change): the new document negotiates on its own.
        #expect(try app.ctl("eval", #"window.__marker = 1; location.assign("/media"); true"#).status == 0)
        _ = try app.state("url=\"\(server.url)/media\"", "negotiated=true", "navigation.kind=tabs", "navigation.selected=media")
        let marker = try app.ctl("eval", "typeof window.__marker")
        #expect(marker.result as? String == "undefined", "it really was a new document")
        // A page of the same origin that never sends config/get: no native chrome at all.
        #expect(try app.ctl("eval", #"location.assign("/__test/storage.html"); true"#).status == 0)
        let fallback = try app.state("url=\"\(server.url)/__test/storage.html\"", "negotiated=false", "navigation.kind=none", "backBar=null")
        #expect(fallback["frontendReady"] as? Bool == false)
    }

    @Test("a server whose certificate nobody trusts is refused as not secure, when saving and when opening")
    func untrustedCertificate() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let tls = HostShellBinary.root.appendingPathComponent("fixtures/tls").path
        let secure = try ReferenceServer(extra: ["--tls", tls])
        defer { secure.stop() }
        #expect(secure.url.hasPrefix("https://127.0.0.1:"))
        let refused = try HostShellBinary.run(["server", "add", secure.url], environment: home.environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not secure"), "\(refused.stderr)")
        // A saved server whose certificate stopped being trusted: save it over plain http, then
        // point the saved record at the HTTPS address.
        let plain = try ReferenceServer()
        defer { plain.stop() }
        #expect(try HostShellBinary.run(["server", "add", plain.url, "--allow-http"], environment: home.environment).status == 0)
        let stored = try String(contentsOf: home.store, encoding: .utf8)
        try stored.replacingOccurrences(of: plain.url, with: secure.url).write(to: home.store, atomically: true, encoding: .utf8)
        let run = try HostShellBinary.run(["open", "--check", "--timeout", "60"], environment: home.environment)
        #expect(run.status == 1)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(run.lastLine.utf8)) as? [String: Any])
        #expect(state["screen"] as? String == "error")
        let status = try #require(state["status"] as? [String: Any])
        #expect((status["title"] as? String)?.contains("isn't secure") == true, "\(status)")
        #expect(state["negotiated"] as? Bool == false, "nothing was loaded from it")
    }
}
