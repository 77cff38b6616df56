import Foundation
import Testing

/// Issue 30 item 4 (second half) in the real app: the page's locale and time zone, erase, a
/// private root trusted for one app, and a screen recording — each observed where it lands (the
/// page's own JavaScript, WebKit's TLS check, a real video decoder). Capacitor apps on a web
/// directory or a loopback HTTPS server made with the real openssl tool.
@Suite("The simulator's controls: locale, time zone, erase, root certificates, recording (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct SimulatorControlsTests {
    /// A web directory with one animated page.
    static func webDirectory(_ home: TemporaryHome) throws -> String {
        let directory = home.root.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try """
        <!doctype html><html><head><title>device</title></head><body><h1 id="tick">0</h1>
        <script>let n = 0; setInterval(() => { document.getElementById('tick').textContent = String(n++); }, 50);</script>
        </body></html>
        """.write(to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        return directory.path
    }

    static func capacitor(_ home: TemporaryHome, id: String, _ more: [String] = []) throws -> RunningApp {
        try RunningApp(home: home, arguments: ["--web-dir", try webDirectory(home), "--app-id", id, "--allow-eval", "--credential-store", "file"] + more,
                       command: "capacitor")
    }

    /// A tool's exit status and standard output.
    @discardableResult
    static func tool(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, out: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let zoneAndLocale = "JSON.stringify([navigator.language, Intl.DateTimeFormat().resolvedOptions().locale, Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(2026, 0, 15).getTimezoneOffset()])"

    @Test("--locale and --timezone at launch, ctl locale and ctl timezone later: the page's navigator, Intl and Date follow; bad names are refused")
    func localeAndTimeZone() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let app = try Self.capacitor(home, id: "dev.hostshell.locale", ["--locale", "fr-FR", "--timezone", "Asia/Tokyo"])
        defer { app.stop() }
        let state = try app.state("screen=page", "locale=fr-FR", "timeZone=Asia/Tokyo", timeout: 60)
        #expect(state["locale"] as? String == "fr-FR")
        #expect(try app.evalWhen(Self.zoneAndLocale) as? String == #"["fr-FR","fr-FR","Asia/Tokyo",-540]"#)
        #expect(try app.ctl("eval", "sessionStorage.setItem('kept', 'yes'); true").status == 0)

        #expect(try app.ctl("locale", "de-DE").status == 0)
        _ = try app.state("locale=de-DE", "screen=page", timeout: 60)
        #expect(try app.evalWhen("navigator.language === 'de-DE' && \(Self.zoneAndLocale)") as? String == #"["de-DE","de-DE","Asia/Tokyo",-540]"#)
        #expect(try app.ctl("timezone", "America/New_York").status == 0)
        _ = try app.state("timeZone=America/New_York", "screen=page", timeout: 60)
        #expect(try app.evalWhen("Intl.DateTimeFormat().resolvedOptions().timeZone === 'America/New_York' && \(Self.zoneAndLocale)") as? String
            == #"["de-DE","de-DE","America/New_York",300]"#)
        // The page started again in a new web process; WebKit keeps the tab's sessionStorage (measured).
        #expect(try app.evalWhen("sessionStorage.getItem('kept')") as? String == "yes")

        let unknown = try app.ctl("timezone", "Europe/Atlantis")
        #expect(unknown.status != 0 && unknown.error.contains("/usr/share/zoneinfo"), "\(unknown.error)")
        let badTag = try app.ctl("locale", "french")
        #expect(badTag.status != 0 && badTag.error.contains("fr-FR"), "\(badTag.error)")
        #expect(try app.state("timeZone=America/New_York", "locale=de-DE")["timeZone"] as? String == "America/New_York", "a refused change changes nothing")
    }

    @Test("Accept-Language of the page's requests follows --locale and ctl locale (a loopback server echoes it)")
    func acceptLanguage() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let echo = """
        import http.server, sys
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                said = self.headers.get('Accept-Language') or 'none'
                body = ('<!doctype html><title>%s</title>' % said).encode()
                self.send_response(200); self.send_header('Content-Type', 'text/html'); self.send_header('Content-Length', str(len(body)))
                self.end_headers(); self.wfile.write(body)
            def log_message(self, *a): pass
        server = http.server.HTTPServer(('127.0.0.1', 0), H)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", echo]
        let pipe = Pipe()
        server.standardOutput = pipe
        try server.run()
        defer { stopProcess(server) }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = pipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), "the echo server gave no port")
        let app = try RunningApp(home: home, arguments: ["--url", "http://127.0.0.1:\(port)/", "--app-id", "dev.hostshell.language", "--allow-eval",
                                                         "--credential-store", "file", "--locale", "fr-FR"], command: "capacitor")
        defer { app.stop() }
        _ = try app.state("screen=page", timeout: 60)
        #expect(try app.evalWhen("document.title") as? String == "fr-FR,fr;q=0.90")
        #expect(try app.ctl("eval", "fetch('/again').then((r) => r.text()).then((t) => { window.__said = t; }); true").status == 0)
        #expect(try app.evalWhen("window.__said") as? String == "<!doctype html><title>fr-FR,fr;q=0.90</title>", "a fetch says it too")
        #expect(try app.ctl("locale", "ja-JP").status == 0)
        _ = try app.state("locale=ja-JP", "screen=page", timeout: 60)
        #expect(try app.evalWhen("document.title.startsWith('ja') && document.title") as? String == "ja-JP,ja;q=0.90")
    }

    @Test("erase: the page shut, its storage and cookies gone, back at the start page; another app's data untouched")
    func erase() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let keep = "localStorage.setItem('k', 'v'); sessionStorage.setItem('s', 'v'); document.cookie = 'c=v; max-age=3600'; true"
        let read = "JSON.stringify([localStorage.getItem('k'), sessionStorage.getItem('s'), document.cookie, location.href])"
        // The other app keeps data of its own first.
        do {
            let other = try Self.capacitor(home, id: "dev.hostshell.other")
            defer { other.stop() }
            _ = try other.state("screen=page", timeout: 60)
            #expect(try other.ctl("eval", "localStorage.setItem('mine', 'kept'); true").status == 0)
            #expect(try other.evalWhen("localStorage.getItem('mine')") as? String == "kept")
        }
        do {
            let app = try Self.capacitor(home, id: "dev.hostshell.erase")
            defer { app.stop() }
            _ = try app.state("screen=page", timeout: 60)
            #expect(try app.ctl("eval", keep).status == 0)
            let before = try app.evalWhen(read) as? String
            #expect(before?.hasPrefix(#"["v","v","#) == true, "\(before ?? "")")
            #expect(try app.ctl("eval", "location.hash = 'elsewhere'; window.__inMemory = 1; true").status == 0)
            // Every other control set away from its default, so erase's reset shows (issue 30 item 5).
            for control in [["appearance", "dark"], ["contrast", "on"], ["text-size", "extra-large"], ["privacy", "grant", "camera"],
                            ["location", "set", "48.8584,2.2945"], ["pasteboard", "set", "kept?"]] {
                #expect(try app.ctl(control).status == 0, "\(control)")
            }
            _ = try app.state("appearance.scheme=\"dark\"", "privacy.camera=\"granted\"", "location.mode=\"fixed\"", "pasteboard.hasText=true")
            let erased = try app.ctl("erase")
            #expect(erased.status == 0, "\(erased.error)")
            let removed = ((erased.result as? [String: Any])?["removed"] as? [String]) ?? []
            #expect(removed.first?.contains("website data") == true && removed.contains { $0.contains("HomeSecAuth") }, "\(removed)")
            _ = try app.state("screen=page", "url=capacitor://localhost/", timeout: 60)
            #expect(try app.evalWhen("window.__inMemory === undefined && \(read)") as? String == #"[null,null,"","capacitor://localhost/"]"#)
            #expect(try app.ctl("eval", "localStorage.length + sessionStorage.length").result as? Int == 0)
            _ = try app.state("appearance.scheme=\"auto\"", "appearance.contrast=false", "appearance.textSize=\"large\"",
                              "privacy.camera=\"ask\"", "location.mode=\"none\"", "pasteboard.hasText=false")
        }
        let other = try Self.capacitor(home, id: "dev.hostshell.other")
        defer { other.stop() }
        _ = try other.state("screen=page", timeout: 60)
        #expect(try other.evalWhen("localStorage.getItem('mine')") as? String == "kept", "erasing one app never touches another's data")
    }

    /// A CA, a leaf for 127.0.0.1 signed by it, and a leaf signed by another CA, made by openssl.
    static func certificates(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
        set -e
        ca() { openssl req -x509 -newkey rsa:2048 -nodes -keyout $1.key -out $1.pem -days 2 -subj "/CN=$1" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign; }
        leaf() { openssl req -newkey rsa:2048 -nodes -keyout $1.key -out $1.csr -subj "/CN=localhost"
          printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > $1.ext
          openssl x509 -req -in $1.csr -CA $2.pem -CAkey $2.key -CAcreateserial -out $1.pem -days 1 -extfile $1.ext; }
        ca ca; ca other; leaf leaf ca; leaf rogue other
        echo '<!doctype html><title>secure</title><h1>secure</h1>' > index.html
        """
        let made = try tool(["bash", "-c", script], in: directory)
        try #require(made.status == 0, "openssl could not make the certificates")
    }

    /// openssl s_server on a free loopback port with `name`.pem, serving the directory's files.
    static func httpsServer(_ name: String, in directory: URL) throws -> (process: Process, port: Int) {
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<60_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl", "s_server", "-quiet", "-accept", "127.0.0.1:\(port)", "-cert", "\(name).pem", "-key", "\(name).key", "-WWW"]
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let listening = waitUntil(timeout: 5) { !process.isRunning || (try? tool(["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"]).status) == 0 }
            if listening && process.isRunning { return (process, port) }
            stopProcess(process)
        }
        throw CocoaError(.fileNoSuchFile)
    }

    @Test("a private root: refused without it, the page loads with it (launch or ctl), a leaf of another CA stays refused")
    func trustRootCertificate() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let directory = home.root.appendingPathComponent("tls")
        try Self.certificates(in: directory)
        let good = try Self.httpsServer("leaf", in: directory)
        defer { stopProcess(good.process) }
        let rogue = try Self.httpsServer("rogue", in: directory)
        defer { stopProcess(rogue.process) }
        let root = directory.appendingPathComponent("ca.pem").path
        func app(_ port: Int, _ more: [String]) throws -> RunningApp {
            try RunningApp(home: home, arguments: ["--url", "https://127.0.0.1:\(port)/index.html", "--app-id", "dev.hostshell.tls",
                                                   "--allow-eval", "--credential-store", "file"] + more, command: "capacitor")
        }
        do {
            let refused = try app(good.port, [])
            defer { refused.stop() }
            let state = try refused.state("screen=error", timeout: 60)
            #expect(((state["status"] as? [String: Any])?["detail"] as? String)?.contains("TLS") == true, "\(state["status"] ?? "")")
            // Trusted while running: the retry loads it.
            let bad = try refused.ctl("trust-root-cert", "add", directory.appendingPathComponent("leaf.key").path)
            #expect(bad.status != 0 && bad.error.contains("private key"), "\(bad.error)")
            // Added while the failure shows: the app starts again, and the root lets the page through.
            #expect(try refused.ctl("trust-root-cert", "add", root).status == 0)
            _ = try refused.state("screen=page", "trustedRoots.count=1", "trustedRoots.allowedHosts.0=127.0.0.1", timeout: 60)
            #expect(try refused.evalWhen("document.title === 'secure'") as? Bool == true)
        }
        do {
            let trusted = try app(good.port, ["--trust-root-cert", root])
            defer { trusted.stop() }
            _ = try trusted.state("screen=page", timeout: 60)
            #expect(try trusted.evalWhen("document.title === 'secure'") as? Bool == true)
        }
        let other = try app(rogue.port, ["--trust-root-cert", root])
        defer { other.stop() }
        let state = try other.state("screen=error", timeout: 60)
        #expect(((state["status"] as? [String: Any])?["detail"] as? String)?.contains("TLS") == true, "a leaf of another CA: \(state["status"] ?? "")")
        #expect((state["trustedRoots"] as? [String: Any])?["allowedHosts"] as? [String] == [])
    }

    /// Width, height and duration (s) of a video, as GStreamer's discoverer decodes it.
    static func discovered(_ file: String) throws -> (width: Int, height: Int, seconds: Double) {
        let out = try tool(["gst-discoverer-1.0", file]).out
        func number(_ key: String) -> Int? {
            out.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") }
                .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        let duration = out.split(separator: "\n").first { $0.contains("Duration:") }.map { line -> Double in
            let parts = line.split(separator: " ").last!.split(separator: ":").compactMap { Double($0) }
            return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : 0
        } ?? 0
        return (number("Width") ?? 0, number("Height") ?? 0, duration)
    }

    /// A PNG's width and height, from its header.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        func be(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test("ctl record start/stop: a WebM a real decoder reads, the window's size, a duration; stopped and finished when the app quits")
    func recording() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let file = home.root.appendingPathComponent("run.webm").path
        let app = try Self.capacitor(home, id: "dev.hostshell.record")
        _ = try app.state("screen=page", timeout: 60)
        let picture = home.root.appendingPathComponent("window.png").path
        #expect(try app.ctl("snapshot", picture).status == 0)
        let refused = try app.ctl("record", "start", home.root.appendingPathComponent("run.avi").path)
        #expect(refused.status != 0 && refused.error.contains(".webm"))
        // The device events, streamed from before the recording starts.
        let streamed = home.root.appendingPathComponent("events.out"), said = home.root.appendingPathComponent("events.err")
        FileManager.default.createFile(atPath: streamed.path, contents: nil)
        FileManager.default.createFile(atPath: said.path, contents: nil)
        let events = Process()
        events.executableURL = HostShellBinary.url
        events.arguments = ["ctl", app.socket, "events", "--kind", "device", "--count", "2", "--timeout", "60"]
        events.environment = HostShellBinary.environment(home.environment)
        events.standardOutput = try FileHandle(forWritingTo: streamed)
        events.standardError = try FileHandle(forWritingTo: said)
        try events.run()
        defer { stopProcess(events) }
        #expect(waitUntil(timeout: 20) { ((try? String(contentsOf: said, encoding: .utf8)) ?? "").contains("streaming") }, "the event stream did not start")
        let started = try app.ctl("record", "start", file)
        #expect(started.status == 0, "\(started.error)")
        _ = try app.state("recording.file=\(file)")
        #expect(try app.ctl("eval", "document.body.style.background = 'rgb(200, 30, 30)'; true").status == 0)
        #expect(try app.evalWhen("Number(document.getElementById('tick').textContent) > 20") as? Bool == true)
        let again = try app.ctl("record", "start", file)
        #expect(again.status != 0 && again.error.contains("under way"))
        let stopped = try app.ctl("record", "stop")
        #expect(stopped.status == 0, "\(stopped.error)")
        _ = try app.state("recording=null")
        #expect(waitUntil(timeout: 30) { !events.isRunning }, "two device events came")
        let lines = ((try? String(contentsOf: streamed, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.map { $0["event"] as? String } == ["recording-started", "recording-stopped"] && lines.allSatisfy { $0["file"] as? String == file }, "\(lines)")
        let video = try Self.discovered(file)
        let window = try Self.pngSize(picture)
        #expect(video.seconds > 0, "duration \(video.seconds)")
        #expect(video.width == window.0 && video.height == window.1, "video \(video.width)×\(video.height), window \(window)")
        #expect(try app.ctl("record", "stop").error.contains("nothing is being recorded"))

        // MP4 (H.264): even sides, the odd last column or row left out.
        let mp4 = home.root.appendingPathComponent("run.mp4").path
        #expect(try app.ctl("record", "start", mp4).status == 0)
        _ = try app.state("recording.file=\(mp4)")
        #expect(try app.evalWhen("Number(document.getElementById('tick').textContent) > 30") as? Bool == true)
        #expect(try app.ctl("record", "stop").status == 0)
        let h264 = try Self.discovered(mp4)
        #expect(h264.seconds > 0 && h264.width == window.0 & ~1 && h264.height == window.1 & ~1, "\(h264)")

        // Quitting while recording finishes the file.
        let second = home.root.appendingPathComponent("quit.webm").path
        #expect(try app.ctl("record", "start", second).status == 0)
        _ = try app.state("recording.file=\(second)")
        #expect(try app.evalWhen("Number(document.getElementById('tick').textContent) > 40") as? Bool == true)
        app.stop()
        #expect(try Self.discovered(second).seconds > 0, "the recording cut by quitting is a whole file")
    }

    @Test("hostshell device: simctl's words on a running app; io recordVideo records until SIGINT and finishes the file")
    func simctlWords() throws {
        let help = try HostShellBinary.run(["device", "--help"])
        #expect(help.status == 0 && help.stdout.contains("keychain add-root-cert FILE") && help.stdout.contains("ctl trust-root-cert add FILE")
            && help.stdout.contains("status_bar override"), "\(help.stdout)")
        let bad = try HostShellBinary.run(["device", "/nowhere.sock", "ui", "appearance", "sepia"])
        #expect(bad.status == 2 && bad.stderr.contains("light or dark"), "\(bad.stderr)")

        let home = TemporaryHome()
        defer { home.remove() }
        let app = try Self.capacitor(home, id: "dev.hostshell.simctl")
        defer { app.stop() }
        _ = try app.state("screen=page", timeout: 60)
        let locale = try HostShellBinary.run(["device", app.socket, "locale", "en-GB"])
        #expect(locale.status == 0, "\(locale.stderr)")
        _ = try app.state("locale=en-GB", "screen=page", timeout: 60)
        #expect(try app.evalWhen("navigator.language === 'en-GB'") as? Bool == true)

        let file = home.root.appendingPathComponent("simctl.webm").path
        let recording = Process()
        recording.executableURL = HostShellBinary.url
        recording.arguments = ["device", "--socket", app.socket, "io", "recordVideo", file]
        recording.environment = HostShellBinary.environment(home.environment)
        recording.standardOutput = FileHandle.nullDevice
        recording.standardError = FileHandle.nullDevice
        try recording.run()
        _ = try app.state("recording.file=\(file)", timeout: 30)
        #expect(try app.evalWhen("Number(document.getElementById('tick').textContent) > 60") as? Bool == true)
        kill(recording.processIdentifier, SIGINT)
        recording.waitUntilExit()
        #expect(recording.terminationStatus == 0, "device io recordVideo ends cleanly on SIGINT")
        _ = try app.state("recording=null")
        #expect(try Self.discovered(file).seconds > 0)
    }

    @Test("Studio (open): --locale and --timezone reach the server's page; erase removes one server's data and sign-in, never another's")
    func studioEraseAndLocale() throws {
        let two = try TwoServerApp(["--allow-eval", "--credential-store", "file", "--locale", "pt-BR", "--timezone", "America/Sao_Paulo"])
        defer { two.finish() }
        let app = two.app
        _ = try app.state("screen=page", "server.id=\"north-studio\"", "negotiated=true", timeout: 60)
        #expect(try app.evalWhen("navigator.language === 'pt-BR' && Intl.DateTimeFormat().resolvedOptions().timeZone") as? String == "America/Sao_Paulo")
        #expect(try app.ctl("eval", "localStorage.setItem('north', 'n'); true").status == 0)
        #expect(try app.ctl("switch-server", "south-studio").status == 0)
        _ = try app.state("screen=page", "server.id=\"south-studio\"", "negotiated=true", timeout: 60)
        #expect(try app.ctl("eval", "localStorage.setItem('south', 's'); true").status == 0)
        #expect(try app.ctl("switch-server", "north-studio").status == 0)
        _ = try app.state("screen=page", "server.id=\"north-studio\"", "negotiated=true", timeout: 60)
        #expect(try app.evalWhen("localStorage.getItem('north')") as? String == "n")

        let erased = try app.ctl("erase")
        #expect(erased.status == 0, "\(erased.error)")
        let removed = ((erased.result as? [String: Any])?["removed"] as? [String]) ?? []
        #expect(removed.contains { $0.contains("sign-in credential of north-studio") }, "\(removed)")
        _ = try app.state("screen=page", "server.id=\"north-studio\"", "negotiated=true", timeout: 60)
        #expect(try app.evalWhen("localStorage.getItem('north') === null") as? Bool == true, "north's data is gone")
        #expect(try app.ctl("switch-server", "south-studio").status == 0)
        _ = try app.state("screen=page", "server.id=\"south-studio\"", "negotiated=true", timeout: 60)
        #expect(try app.evalWhen("localStorage.getItem('south')") as? String == "s", "erasing north never touches south's data")
    }

    @Test("a Studio server on a private CA: server add and the app's own identity check trust the root given, and only with it")
    func studioPrivateRoot() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let directory = home.root.appendingPathComponent("tls")
        try Self.certificates(in: directory)
        let fm = FileManager.default
        try fm.copyItem(at: directory.appendingPathComponent("leaf.pem"), to: directory.appendingPathComponent("cert.pem"))
        try fm.copyItem(at: directory.appendingPathComponent("leaf.key"), to: directory.appendingPathComponent("key.pem"))
        let server = try ReferenceServer(extra: ["--tls", directory.path])
        defer { server.stop() }
        #expect(server.url.hasPrefix("https://127.0.0.1:"), "\(server.url)")
        let root = directory.appendingPathComponent("ca.pem").path
        let refused = try HostShellBinary.run(["server", "add", server.url], environment: home.environment)
        #expect(refused.status != 0, "without the root the identity check fails: \(refused.stderr)")
        let other = try HostShellBinary.run(["server", "add", server.url, "--trust-root-cert", directory.appendingPathComponent("other.pem").path],
                                            environment: home.environment)
        #expect(other.status != 0, "another CA's root does not vouch for it")
        let added = try HostShellBinary.run(["server", "add", server.url, "--trust-root-cert", root], environment: home.environment)
        #expect(added.status == 0, "\(added.stderr)")
        let app = try RunningApp(home: home, arguments: ["--allow-eval", "--trust-root-cert", root])
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true", "trustedRoots.allowedHosts.0=127.0.0.1", timeout: 60)
        #expect(try app.evalWhen("location.protocol") as? String == "https:")
    }
}
