import Foundation
import Testing

/// Issue 15 item 1 in the real app: a hostile page on the server's origin embeds content every
/// way a page can and tries to leave or hand addresses out without a person. Frames show their
/// content; nothing reaches the desktop (`ctl state` `external` records what was handed out
/// and what was refused — the suites run with HOSTSHELL_HANDOFF=record, so nothing is launched).
@Suite("Navigation policy: frames load, nothing leaves without a person (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct NavigationTests {
    static func external(_ app: RunningApp) throws -> (opened: [String], refused: [String]) {
        let state = try #require(try app.ctl("state").result as? [String: Any])
        let external = state["external"] as? [String: Any]
        func urls(_ key: String) -> [String] { (external?[key] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String } }
        return (urls("opened"), urls("refused"))
    }

    /// Waits until `url` is among the refused (or opened) addresses.
    static func waitFor(_ url: String, in list: KeyPath<(opened: [String], refused: [String]), [String]>, _ app: RunningApp) throws -> Bool {
        try waitUntil(timeout: 30) { try Self.external(app)[keyPath: list].contains(url) }
    }

    @Test("cross-origin, object, embed, srcdoc and blob frames show their content without a bridge; a mailto frame and a pop-up hand nothing out")
    func framesLoad() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        #expect(try app.ctl("eval", "location.href = '/__test/hostile.html'; true").status == 0)
        let report = try app.evalWhen("Object.keys(window.__frames || {}).length >= 5 && JSON.stringify(window.__frames)")
        let frames = try #require(try JSONSerialization.jsonObject(with: Data(((report as? String) ?? "{}").utf8)) as? [String: [String: Any]])
        let other = "http://localhost:\(live.server.port)"
        for (tag, text, origin) in [("cross", "embedded content", other), ("object", "embedded content", other), ("embed", "embedded content", other),
                                    ("srcdoc", "srcdoc content", live.server.url), ("blob", "blob content", live.server.url)] {
            #expect(frames[tag]?["text"] as? String == text, "\(tag): \(String(describing: frames[tag]))")
            #expect(frames[tag]?["origin"] as? String == origin, "\(tag)")
            #expect(frames[tag]?["handler"] as? Bool == false, "\(tag) has no bridge")
        }
        #expect(try app.ctl("eval", "window.__popup").result as? String == "blocked")
        #expect(try Self.waitFor("mailto:frame@example.org", in: \.refused, app), "the mailto frame is refused")
        #expect(try Self.waitFor("\(live.server.url)/__test/payload.bin", in: \.refused, app), "a frame's download is refused")
        #expect(try Self.waitFor("\(other)/__test/payload.bin?other", in: \.refused, app), "a cross-origin frame's download is refused")
        #expect(try Self.external(app).opened.isEmpty, "nothing was handed to the desktop")
        #expect(try app.ctl("eval", "location.pathname").result as? String == "/__test/hostile.html")
    }

    @Test("the main frame cannot leave for another origin or a mail address without a gesture", arguments: ["OTHER/__test/nav-frame.html?tag=away", "mailto:leave@example.org"])
    func noLeaving(_ target: String) throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        let leave = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        #expect(try app.ctl("eval", "location.href = '/__test/hostile.html?leave=\(leave)'; true").status == 0)
        let url = target.replacingOccurrences(of: "OTHER", with: "http://localhost:\(live.server.port)")
        #expect(try Self.waitFor(url, in: \.refused, app), "\(String(describing: try? Self.external(app)))")
        #expect(try Self.external(app).opened.isEmpty, "nothing was handed to the desktop")
        #expect(try app.ctl("eval", "location.pathname").result as? String == "/__test/hostile.html", "the main frame stayed")
        #expect(try app.ctl("eval", "Object.keys(window.__frames).length").result as? Int == 5, "its document was not replaced")
    }

    @Test("issue 29 item 5: a main-frame navigation the policy refuses, or hands out, sends no request from the app")
    func refusedSendsNothing() throws {
        let other = try ConnectionCounter()
        defer { other.stop() }
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        // A script moves the main frame to another server without a gesture: refused, no request.
        let away = "http://127.0.0.1:\(other.port)/collect?secret=1"
        let leave = away.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? away
        #expect(try app.ctl("eval", "location.href = '/__test/hostile.html?leave=\(leave)'; true").status == 0)
        #expect(try Self.waitFor(away, in: \.refused, app), "\(String(describing: try? Self.external(app)))")
        // A person's click to it: handed to the desktop, and still no request from the app.
        let clicked = "http://127.0.0.1:\(other.port)/clicked"
        #expect(try app.ctl("eval", "const a = document.createElement('a'); a.href = '\(clicked)'; document.body.append(a); a.click(); true").status == 0)
        #expect(try Self.waitFor(clicked, in: \.opened, app), "\(String(describing: try? Self.external(app)))")
        // Frames still load from other origins (the page's five frames reported).
        #expect(try app.ctl("eval", "Object.keys(window.__frames).length").result as? Int == 5)
        #expect(try app.ctl("eval", "location.pathname").result as? String == "/__test/hostile.html", "the main frame stayed")
        #expect(other.requests == 0, "no request reached the other server (\(other.connections) connections)")
    }

    @Test("issue 29, the team's own probe: a meta refresh, a scripted form POST and a same-origin redirect to another server send it nothing",
          arguments: ["meta", "form", "redirect"])
    func otherWaysOut(_ how: String) throws {
        let other = try ConnectionCounter()
        defer { other.stop() }
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        let away = "http://127.0.0.1:\(other.port)/collect-\(how)"
        let to = away.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? away
        #expect(try app.ctl("eval", "location.href = '/__test/leave.html?how=\(how)&to=\(to)'; true").status == 0)
        #expect(try Self.waitFor(away, in: \.refused, app), "\(String(describing: try? Self.external(app))) \(String(describing: try? app.ctl("eval", "location.href").result))")
        #expect(try app.ctl("eval", "location.pathname").result as? String == "/__test/leave.html", "the main frame stayed")
        #expect(other.requests == 0, "no request reached the other server (\(other.connections) connections)")
        #expect(try Self.external(app).opened.isEmpty)
    }

    @Test("a kiosk fills its screen and hands nothing out, not even a person's click")
    func kioskKeepsEverything() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval", "--device", "phone"], command: "kiosk")
        defer { app.stop() }
        // It fills the screen (Xvfb's 1280×800 in scripts/test), with no window manager to do it,
        // whatever the device's own window size (a phone's is 390×844).
        _ = try app.state("screen=page", "window.width=1280", "window.height=800", timeout: 60)
        #expect(try app.ctl("eval", "location.href = '/__test/hostile.html'; true").status == 0)
        _ = try app.evalWhen("Object.keys(window.__frames || {}).length >= 5")
        #expect(try app.ctl("eval", "document.getElementById('away').click(); true").status == 0)
        let away = "http://localhost:\(server.port)/__test/nav-frame.html?tag=clicked"
        #expect(try Self.waitFor(away, in: \.refused, app))
        #expect(try Self.external(app).opened.isEmpty)
    }

    @Test("a person's activation of a link in the main frame hands it to the desktop and the page stays")
    func personClicks() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", timeout: 60)
        #expect(try app.ctl("eval", "location.href = '/__test/hostile.html'; true").status == 0)
        _ = try app.evalWhen("Object.keys(window.__frames || {}).length >= 5")
        // The control interface's eval runs as a person's action (WebKit counts it as a gesture).
        #expect(try app.ctl("eval", "document.getElementById('away').click(); true").status == 0)
        let away = "http://localhost:\(live.server.port)/__test/nav-frame.html?tag=clicked"
        #expect(try Self.waitFor(away, in: \.opened, app), "\(String(describing: try? Self.external(app)))")
        #expect(try app.ctl("eval", "document.getElementById('mail').click(); true").status == 0)
        #expect(try Self.waitFor("mailto:person@example.org", in: \.opened, app), "\(String(describing: try? Self.external(app)))")
        #expect(try app.ctl("eval", "location.pathname").result as? String == "/__test/hostile.html", "the page stayed")
    }
}

/// A loopback TCP listener that counts the connections made to it, and the requests (bytes)
/// that came on them, and answers none.
final class ConnectionCounter: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var count = 0
    private var sent = 0
    var connections: Int { lock.withLock { count } }
    var requests: Int { lock.withLock { sent } }

    init() throws {
        let (fd, port) = try loopbackListener(backlog: 16)
        self.fd = fd
        self.port = port
        Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                lock.withLock { count += 1 }
                Thread { [self] in
                    var byte: UInt8 = 0
                    if recv(client, &byte, 1, 0) == 1 { lock.withLock { sent += 1 } }
                    Glibc.close(client)
                }.start()
            }
        }.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }
}
