import Foundation
import Testing

/// The app's sign-in against the reference server, end to end: the authentication window, PKCE,
/// the callback rules, the exchange, the credential in the real Secret Service or the file
/// store, refresh and rotation, sign-out.
@Suite("Sign-in and the app's credential (real WebKit, real stores)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct SignInFlowTests {
    /// The stores to test: the file store always; the Secret Service where scripts/with-keyring
    /// started one (scripts/test does).
    static var stores: [String] {
        ProcessInfo.processInfo.environment["GNOME_KEYRING_CONTROL"] != nil ? ["file", "secret-service"] : ["file"]
    }

    /// The store every other test uses: the file store, or what HOSTSHELL_TEST_STORE names
    /// (scripts/test runs these suites a second time with the Secret Service).
    static var defaultStore: String { ProcessInfo.processInfo.environment["HOSTSHELL_TEST_STORE"] ?? "file" }

    struct Setup {
        let home = TemporaryHome()
        let server: ReferenceServer
        let app: RunningApp
        /// Unique per test: suites run in parallel and share the test session's keyring, whose
        /// items are keyed by server id.
        let serverId = "studio-" + String(UInt32.random(in: .min ... .max), radix: 16)

        init(serverOptions: [String], store: String = SignInFlowTests.defaultStore, appOptions: [String] = []) throws {
            server = try ReferenceServer(extra: ["--require-sign-in", "--organization", serverId] + serverOptions)
            #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
            app = try RunningApp(home: home, arguments: ["--credential-store", store, "--allow-eval"] + appOptions)
        }

        func log() throws -> [String: Any] { try HTTP.json(server.url + "/__test/auth-log") }

        /// Waits until Studio shows its signed-in start page after the sign-in: its document asked
        /// the server who is signed in and drew the overview. The loading screen gives way to the
        /// page 0.3 s after a load finishes, often before that question is answered; a session
        /// ended before it is a sign-in whose session did not take, for the app as for Studio.
        func studioSignedIn() throws {
            _ = try app.state("screen=page", "auth.credential=true", "url=\"\(server.url)/\"", "navigation.selected=overview")
        }

        func setDecision(_ decision: String) throws {
            #expect(try HTTP.request("POST", server.url + "/__test/auth-mode?decision=\(decision)").status == 204)
        }

        var credentialFile: URL { home.root.appendingPathComponent("data/hostshell/servers/\(serverId)/credential.json") }

        func finish() {
            app.stop()
            SignInFlowTests.forgetKeyring([serverId])
            server.stop()
            home.remove()
        }
    }

    @Test("the whole PKCE sign-in: Studio lands on /login, the app signs in, keeps its credential and never shows it",
          arguments: Self.stores)
    func fullFlow(_ store: String) throws {
        let setup = try Setup(serverOptions: ["--auto-approve"], store: store)
        defer { setup.finish() }
        let state = try setup.app.state("screen=page", "negotiated=true", "auth.credential=true", "url=\"\(setup.server.url)/\"")
        let auth = try #require(state["auth"] as? [String: Any])
        #expect(auth["store"] as? String == store)
        #expect(((auth["expiresIn"] as? Double) ?? 0) > 3500)

        let log = try setup.log()
        let exchanges = try #require(log["exchanges"] as? [[String: Any]])
        #expect(exchanges.count == 1)
        #expect(exchanges.first?["grant_type"] as? String == "authorization_code")
        #expect(exchanges.first?["cookie"] as? Bool == false, "the exchange carries no cookie")
        #expect(exchanges.first?["authorization"] as? Bool == false, "nor an Authorization header")
        #expect(log["studioRequestsWithAuthorization"] as? Int == 0, "Studio's own requests never carry the credential")

        // The page cannot see it: not in cookies (the session cookie is HttpOnly), storage or the DOM.
        let seen = try setup.app.ctl("eval", #"[document.cookie, JSON.stringify(localStorage), JSON.stringify(sessionStorage), document.documentElement.outerHTML].join("|")"#)
        let text = try #require(seen.result as? String)
        #expect(!text.contains("tca_") && !text.contains("tcr_"))
        // Nor the state dump.
        let dump = try HostShellBinary.run(["ctl", setup.app.socket, "state"])
        #expect(!dump.stdout.contains("tca_") && !dump.stdout.contains("tcr_"))

        // It is where the store says, and only there.
        if store == "file" {
            let attributes = try FileManager.default.attributesOfItem(atPath: setup.credentialFile.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try String(contentsOf: setup.credentialFile, encoding: .utf8).contains("\"access_token\":\"tca_"))
        } else {
            #expect(!FileManager.default.fileExists(atPath: setup.credentialFile.path))
            let lookup = try Shell.run("/usr/bin/secret-tool", ["lookup", "server", setup.serverId])
            #expect(lookup.contains("\"access_token\":\"tca_"), "the keyring holds it")
        }
        setup.app.stop()
        #expect(!(try String(contentsOf: setup.app.logFile, encoding: .utf8)).contains("tca_"), "nor the app's log")
    }

    @Test("a denial, a callback from another issuer, and a closed window each end with a clear message and nothing saved")
    func refusals() throws {
        let denied = try Setup(serverOptions: ["--auto-deny"])
        defer { denied.finish() }
        let deniedState = try denied.app.state("auth.problem=\"The server did not sign you in: access was denied: The request was denied.\"")
        #expect((deniedState["auth"] as? [String: Any])?["credential"] as? Bool == false)
        #expect((try denied.log()["exchanges"] as? [Any])?.isEmpty == true, "nothing was exchanged")

        let impostor = try Setup(serverOptions: ["--auto-approve", "--oauth-issuer", "https://evil.example"])
        defer { impostor.finish() }
        let impostorState = try impostor.app.stateWhen("auth.problem")
        #expect((impostorState["auth"] as? [String: Any])?["credential"] as? Bool == false)
        let problem = try #require((impostorState["auth"] as? [String: Any])?["problem"] as? String)
        #expect(problem.contains("not valid") && problem.contains("another server"))
        #expect((try impostor.log()["exchanges"] as? [Any])?.isEmpty == true, "a code for another issuer is never exchanged")

        let closed = try Setup(serverOptions: [])
        defer { closed.finish() }
        _ = try closed.app.state("auth.signingIn=true", "url=\"\(closed.server.url)/login\"")
        #expect(try closed.app.ctl("sign-in-cancel").status == 0)
        _ = try closed.app.state("auth.signingIn=false", "auth.problem=\"Sign-in was cancelled.\"")
        // Signing in again from the app works.
        try closed.setDecision("approve")
        #expect(try closed.app.ctl("sign-in").status == 0)
        _ = try closed.app.state("auth.credential=true", "screen=page", "url=\"\(closed.server.url)/\"")
    }

    @Test("an older server that answers only `authenticated` still signs Studio in, without an app credential")
    func olderServer() throws {
        let setup = try Setup(serverOptions: ["--auto-approve", "--legacy-auth"])
        defer { setup.finish() }
        let state = try setup.app.state("screen=page", "auth.studioSessionOnly=true", "url=\"\(setup.server.url)/\"")
        #expect((state["auth"] as? [String: Any])?["credential"] as? Bool == false)
        #expect(!FileManager.default.fileExists(atPath: setup.credentialFile.path))
    }

    @Test("refreshes go out one at a time; a reused refresh token revokes the grant and the app signs out cleanly",
          arguments: Self.stores)
    func refreshAndReuse(_ store: String) throws {
        let setup = try Setup(serverOptions: ["--auto-approve", "--token-lifetime", "3600"], store: store)
        defer { setup.finish() }
        _ = try setup.app.state("screen=page", "auth.credential=true")
        let original = try Self.refreshToken(setup, store)

        // Three refreshes asked at once: one request, shared by all three.
        let refreshed = try setup.app.ctl("refresh-credential", "3")
        #expect(refreshed.status == 0, "\(refreshed.error)")
        #expect(((refreshed.result as? [String: Any])?["refreshed"] as? [Bool]) == [true, true, true])
        let exchanges = try #require(try setup.log()["exchanges"] as? [[String: Any]])
        #expect(exchanges.filter { $0["grant_type"] as? String == "refresh_token" }.count == 1, "only one refresh went out")
        let rotated = try Self.refreshToken(setup, store)
        #expect(rotated != original, "the refresh token rotated")

        // Someone replays the rotated-out token: the server revokes the whole grant.
        try setup.setDecision("ask")
        let replay = try HTTP.request("POST", setup.server.url + "/api/v1/oauth/ios-session", json: [
            "grant_type": "refresh_token", "client_id": "tilecast-ios", "refresh_token": original, "studio_session": false])
        #expect(replay.status == 401)
        // The app's next refresh is refused: it signs out — credential and cookies gone, Studio at /login.
        let refused = try setup.app.ctl("refresh-credential")
        #expect(((refused.result as? [String: Any])?["refreshed"] as? [Bool]) == [false])
        _ = try setup.app.state("auth.credential=false", "url=\"\(setup.server.url)/login\"", "auth.signingIn=true")
        #expect(!FileManager.default.fileExists(atPath: setup.credentialFile.path))
        if store == "secret-service" { #expect(try Shell.run("/usr/bin/secret-tool", ["lookup", "server", setup.serverId]).isEmpty) }
        let grants = try #require(try setup.log()["grants"] as? [[String: Any]])
        #expect(grants.first?["revoked"] as? Bool == true)
    }

    @Test("sign-out deletes this server's credential and cookies only; the other server stays signed in")
    func signOutIsPerServer() throws {
        let home = TemporaryHome()
        Self.forgetKeyring(["north", "south"])
        defer { home.remove(); Self.forgetKeyring(["north", "south"]) }
        let north = try ReferenceServer(extra: ["--require-sign-in", "--auto-approve", "--organization", "North"])
        let south = try ReferenceServer(installation: "11111111-2222-4333-8444-555555555555",
                                        extra: ["--require-sign-in", "--auto-approve", "--organization", "South"])
        defer { north.stop(); south.stop() }
        for server in [north, south] {
            #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        }
        let app = try RunningApp(home: home, arguments: ["north", "--credential-store", Self.defaultStore])
        defer { app.stop() }
        _ = try app.state("screen=page", "auth.credential=true", "url=\"\(north.url)/\"")
        #expect(try app.ctl("switch-server", "south").status == 0)
        _ = try app.state("server.id=\"south\"", "screen=page", "auth.credential=true", "url=\"\(south.url)/\"")

        // Sign out of south; with approval switched to "ask" it stays signed out, on /login.
        #expect(try HTTP.request("POST", south.url + "/__test/auth-mode?decision=ask").status == 204)
        #expect(try app.ctl("sign-out").status == 0)
        _ = try app.state("auth.credential=false", "url=\"\(south.url)/login\"")
        let southLog = try HTTP.json(south.url + "/__test/auth-log")
        #expect((southLog["grants"] as? [[String: Any]])?.first?["revoked"] as? Bool == true, "the credential was revoked")

        // North kept everything: its cookie still signs Studio in, with no new exchange.
        #expect(try app.ctl("sign-in-cancel").status == 0)
        #expect(try app.ctl("switch-server", "north").status == 0)
        _ = try app.state("server.id=\"north\"", "screen=page", "auth.credential=true", "url=\"\(north.url)/\"")
        let northLog = try HTTP.json(north.url + "/__test/auth-log")
        #expect((northLog["exchanges"] as? [Any])?.count == 1, "north did not have to sign in again")
    }

    @Test("while the grant is valid, an expired Studio session is renewed with the credential, without a window")
    func studioSessionRenewal() throws {
        let setup = try Setup(serverOptions: ["--auto-approve"])
        defer { setup.finish() }
        try setup.studioSignedIn()
        try setup.setDecision("deny")  // a window now would fail: the renewal must not need one
        #expect(try HTTP.request("POST", setup.server.url + "/__test/end-sessions").status == 204)
        #expect(try setup.app.ctl("reload").status == 0)
        _ = try setup.app.state("screen=page", "auth.credential=true", "auth.problem=null", "url=\"\(setup.server.url)/\"")
        let exchanges = try #require(try setup.log()["exchanges"] as? [[String: Any]])
        #expect(exchanges.last?["grant_type"] as? String == "refresh_token")
        #expect(exchanges.last?["studio_session"] as? Bool == true)
    }

    @Test("a renewal that brings no working Studio session is tried once: the sign-in window opens instead of reloading into /login again",
          arguments: ["none", "bogus"])
    func renewalWithoutStudioSession(_ give: String) throws {
        let setup = try Setup(serverOptions: ["--auto-approve"])
        defer { setup.finish() }
        try setup.studioSignedIn()
        try setup.setDecision("ask")  // the window the app falls back to stays open
        // The server's refresh now gives a credential but no session ("none"), or a cookie that signs nothing in ("bogus").
        #expect(try HTTP.request("POST", setup.server.url + "/__test/refresh-session?give=\(give)").status == 204)
        #expect(try HTTP.request("POST", setup.server.url + "/__test/end-sessions").status == 204)
        #expect(try setup.app.ctl("reload").status == 0)
        // Renewing again and again would keep the window shut and Studio reloading: it opens.
        let state = try setup.app.state("auth.signingIn=true", "auth.credential=true", "url=\"\(setup.server.url)/login\"")
        let problem = try #require((state["auth"] as? [String: Any])?["problem"] as? String)
        #expect(problem.contains(give == "none" ? "no Studio session" : "did not accept the renewed session"), "\(problem)")
        let exchanges = try #require(try setup.log()["exchanges"] as? [[String: Any]])
        let renewals = exchanges.filter { $0["grant_type"] as? String == "refresh_token" }
        #expect(renewals.count == 1, "one renewal, not a loop: \(renewals)")
        #expect(renewals.first?["studio_session"] as? Bool == true)
        // Signing in through the window brings Studio back.
        #expect(try setup.app.ctl("sign-in-cancel").status == 0)
        try setup.setDecision("approve")
        #expect(try setup.app.ctl("sign-in").status == 0)
        _ = try setup.app.state("screen=page", "auth.credential=true", "auth.problem=null", "url=\"\(setup.server.url)/\"")
    }

    @Test("sign-out from the app asks Studio first; Studio's own sign-out signs the app out; a failed sign-in is a notice",
          arguments: Self.stores)
    func signOutWithStudio(_ store: String) throws {
        let setup = try Setup(serverOptions: ["--auto-approve"], store: store)
        defer { setup.finish() }
        _ = try setup.app.state("screen=page", "auth.credential=true", "negotiated=true", "url=\"\(setup.server.url)/\"")
        try setup.setDecision("deny")
        #expect(try setup.app.ctl("sign-out").status == 0)
        _ = try setup.app.state("auth.credential=false", "url=\"\(setup.server.url)/login\"")
        // Studio heard auth/sign-out-request before its cookies went (it recorded why it signed out).
        let why = try setup.app.ctl("eval", #"localStorage.getItem("signedOutBy")"#)
        #expect(why.result as? String == "app")
        // The denied sign-in that followed is a notice in the window.
        let noticed = try setup.app.stateWhen("auth.problem")
        #expect((noticed["notices"] as? [String])?.last?.contains("access was denied") == true)

        // Studio's own Sign out (Settings) signs the app out with it.
        try setup.setDecision("approve")
        #expect(try setup.app.ctl("sign-in").status == 0)
        try setup.studioSignedIn()
        try setup.setDecision("ask")
        #expect(try setup.app.ctl("tap", "settings").status == 0)
        _ = try setup.app.state("navigation.selected=settings")
        #expect(try setup.app.ctl("eval", #"document.getElementById("sign-out").click(); true"#).status == 0)
        _ = try setup.app.state("auth.credential=false", "url=\"\(setup.server.url)/login\"")
        #expect(try setup.app.ctl("eval", #"localStorage.getItem("signedOutBy")"#).result as? String == "studio")
    }

    @Test("removing a server deletes its credential from the store", arguments: Self.stores)
    func removeDeletesCredential(_ store: String) throws {
        let setup = try Setup(serverOptions: ["--auto-approve"], store: store)
        defer { setup.finish() }
        _ = try setup.app.state("auth.credential=true")
        setup.app.stop()
        if store == "file" {
            #expect(FileManager.default.fileExists(atPath: setup.credentialFile.path))
        } else {
            #expect(try Shell.run("/usr/bin/secret-tool", ["lookup", "server", setup.serverId]).contains("tca_"))
        }
        let removed = try HostShellBinary.run(["server", "remove", setup.serverId], environment: setup.home.environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.credentialFile.path))
        #expect(try Shell.run("/usr/bin/secret-tool", ["lookup", "server", setup.serverId]).isEmpty)
    }

    /// The keyring is the test session's, shared by every test: a credential one test saved for
    /// a server id must not meet the next test's server of the same id.
    static func forgetKeyring(_ ids: [String]) {
        guard ProcessInfo.processInfo.environment["GNOME_KEYRING_CONTROL"] != nil else { return }
        for id in ids { _ = try? Shell.run("/usr/bin/secret-tool", ["clear", "server", id]) }
    }

    /// The stored refresh token, read the way its owner could: from the file or the keyring.
    static func refreshToken(_ setup: Setup, _ store: String) throws -> String {
        let data = store == "file" ? try Data(contentsOf: setup.credentialFile)
            : Data(try Shell.run("/usr/bin/secret-tool", ["lookup", "server", setup.serverId]).utf8)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return try #require(object?["refresh_token"] as? String)
    }
}

/// Plain HTTP/1.1 over a loopback TCP socket, for tests that talk to the reference server
/// directly (no client library needed): the status and the body.
enum HTTP {
    static func request(_ method: String, _ url: String, json: Any? = nil) throws -> (status: Int, body: Data) {
        let parts = try #require(URL(string: url))
        let port = UInt16(try #require(parts.port))
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let target = parts.path + (parts.query.map { "?" + $0 } ?? "")
        var head = "\(method) \(target.isEmpty ? "/" : target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n" + (json == nil ? "" : "Content-Type: application/json\r\n") + "\r\n"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return (0, Data()) }
        let outgoing = Array(head.utf8) + Array(body)
        var sent = 0
        while sent < outgoing.count {
            let n = outgoing.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
            guard n > 0 else { break }
            sent += n
        }
        var incoming = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { break }
            incoming.append(contentsOf: chunk[0..<n])
        }
        let text = String(decoding: incoming, as: UTF8.self)
        let status = Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
        let split = incoming.range(of: Data("\r\n\r\n".utf8))
        return (status, split.map { incoming[$0.upperBound...] } ?? Data())
    }

    static func json(_ url: String) throws -> [String: Any] {
        let answer = try request("GET", url)
        return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }
}

/// Runs a program and returns its standard output.
enum Shell {
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
