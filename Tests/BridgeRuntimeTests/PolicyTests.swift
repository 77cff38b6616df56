import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Policies: paths, share, deep links, server addresses")
struct PolicyTests {
    @Test("Studio paths: one leading slash, no reserved tree, limits at 2048")
    func studioPaths() {
        #expect(StudioPath.checkStudioPath("/") == nil)
        #expect(StudioPath.checkStudioPath("/" + repeated("a", 2047)) == nil)
        #expect(StudioPath.checkStudioPath("/" + repeated("a", 2048)) == .tooLong(limit: 2048))
        #expect(StudioPath.checkStudioPath("") == .empty)
        #expect(StudioPath.checkStudioPath("a") == .notRooted)
        #expect(StudioPath.checkStudioPath("//x") == .protocolRelative)
        #expect(StudioPath.checkStudioPath("/\\x") == .protocolRelative)
        #expect(StudioPath.checkStudioPath("/a\\b") == .forbiddenCharacter)
        #expect(StudioPath.checkStudioPath("/a\u{85}b") == .forbiddenCharacter, "C1 control NEL")
        #expect(StudioPath.checkStudioPath("/a\u{3000}b") == .forbiddenCharacter, "ideographic space")
        #expect(StudioPath.checkStudioPath("/a/%2E/b") == .dotSegment)
        #expect(StudioPath.checkStudioPath("/a/.%2E") == .dotSegment)
        #expect(StudioPath.checkStudioPath("/__native") == .reservedNativeTree)
        #expect(StudioPath.checkStudioPath("/__native?x") == .reservedNativeTree)
        #expect(StudioPath.checkStudioPath("/__nativex") == nil)
        #expect(StudioPath.checkStudioPath("/caf%C3%A9/é") == nil)
    }

    @Test("a bare local address has a plain-http twin for server add's hint; a public, schemed or bad one has none")
    func plainTwin() {
        #expect(ServerAddress.plainTwin(of: " 127.0.0.1:8080 ")?.description == "http://127.0.0.1:8080")
        #expect(ServerAddress.plainTwin(of: "studio.local")?.description == "http://studio.local")
        #expect(ServerAddress.plainTwin(of: "example.org") == nil)
        #expect(ServerAddress.plainTwin(of: "https://127.0.0.1:8080") == nil)
        #expect(ServerAddress.plainTwin(of: "127.0.0.1:8080/studio") == nil)
    }

    @Test("deep-link paths refuse the authentication pages and what is below them, not look-alikes")
    func deepLinkPaths() {
        for path in ["/login", "/login/", "/login?next=/", "/login#x", "/setup/step", "/oauth/approve", "/oauth?x=1"] {
            #expect(DeepLink.checkPath(path) == .reservedAuthenticationPath, "\(path)")
        }
        for path in ["/loginx", "/setups", "/oauth2", "/a/login", "/screens?next=/login"] {
            #expect(DeepLink.checkPath(path) == nil, "\(path)")
        }
    }

    static let installation = "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"

    @Test("deep links: the accepted shapes")
    func deepLinkAccepts() throws {
        let link = try DeepLink.parse("tilecast-ios://open?installation=\(Self.installation)&path=%2Fscreens%2Fscreen-1%3Ftab%3Dactivity").get()
        #expect(link == DeepLink(installationId: Self.installation, path: "/screens/screen-1?tab=activity"))
        let upper = try DeepLink.parse("TILECAST-IOS://OPEN/?installation=\(Self.installation.uppercased())&path=/screens&utm=x").get()
        #expect(upper == DeepLink(installationId: Self.installation, path: "/screens"), "case-insensitive scheme, host, UUID")
        #expect(try DeepLink.parse("tilecast-ios://open?installation=\(Self.installation)&path=/a%2520b").get().path == "/a%20b")
        #expect(try DeepLink.parse("tilecast-ios://open?path=/x+y&installation=\(Self.installation)").get().path == "/x+y", "+ stays +")
    }

    @Test("deep links: every refusal rule", arguments: [
        "https://open?installation=X&path=/",
        "tilecast-ios://oauth/callback?code=1",
        "tilecast-ios://open",
        "tilecast-ios://open?path=/screens",
        "tilecast-ios://open?installation=not-a-uuid&path=/",
        "tilecast-ios://user@open?installation=\(installation)&path=/",
        "tilecast-ios://open:8080?installation=\(installation)&path=/",
        "tilecast-ios://open?installation=\(installation)&path=/#frag",
        "tilecast-ios://open/screens?installation=\(installation)&path=/",
        "tilecast-ios://open?installation=\(installation)&installation=\(installation)&path=/",
        "tilecast-ios://open?installation=\(installation)&path=/a&path=/b",
        "tilecast-ios://open?installation=\(installation)&path",
        "tilecast-ios://open?installation=\(installation)&path=",
        "tilecast-ios://open?installation=\(installation)&path=%2Flogin",
        "tilecast-ios://open?installation=\(installation)&path=%2F__native%2Fmodal",
        "tilecast-ios://open?installation=\(installation)&path=/a%5Cb",
        "tilecast-ios://open?installation=\(installation)&path=/a%20b",
        "tilecast-ios://open?installation=\(installation)&path=/a%zzb",
        "tilecast-ios://open?installation=\(installation)&path=/a b",
        "tilecast-ios://open?installation=\(installation)&path=/" + String(repeating: "a", count: 4096),
    ])
    func deepLinkRefusals(_ url: String) {
        #expect(throws: DeepLinkProblem.self) { try DeepLink.parse(url).get() }
    }

    @Test("deep links: other schemes and hosts are not deep links at all")
    func notDeepLinks() {
        #expect(DeepLink.parse("tilecast-ios://oauth/callback?state=x") == .failure(.notADeepLink))
        #expect(DeepLink.parse("mailto:x@example.org") == .failure(.notADeepLink))
    }

    @Test("share: malformed for unsafe URLs and credentials, unavailable for the server's own API")
    func share() throws {
        func code(_ payload: JSONValue) -> ReplyErrorCode? { failureCode(envelope("system/share", payload)) }
        for url in ["HTTPS://example.org/", "ftp://example.org/", "https://", "https:///x", "https://u@example.org/",
                    "https://example.org/?Access_Token=1", "https://example.org/?x=1;token=2", "https://example.org/?%74oken=1",
                    "https://example.org/? password =1", "https://example.org/#id_token=1", "https://example.org/?x-api-key",
                    "https://example.org/?session+id=1&sessionid=2", "https://example.org/TCA_abc", "https://example.org:99999/"] {
            #expect(code(["url": .string(url)]) == .malformed, "\(url)")
        }
        #expect(code(["text": "see TC_PAIR-123"]) == .malformed)
        #expect(code(["title": "tcr_x", "text": "hi"]) == .malformed)
        for url in ["https://example.org/?codes=1", "https://example.org/?tokens=1", "http://[::1]:8080/a", "https://example.org/a%20b",
                    "https://example.org/?q=token", "https://example.org/code"] {
            #expect(code(["url": .string(url)]) == nil, "\(url)")
        }
        let server = try #require(Origin(url: "https://studio.example.org"))
        func verdict(_ url: String) -> ShareVerdict { SharePolicy.verdict(for: ShareRequest(url: url), serverOrigin: server) }
        #expect(verdict("https://studio.example.org/API/v1/uploads") != .allowed)
        #expect(verdict("https://studio.example.org:443/api") != .allowed)
        #expect(verdict("https://Studio.Example.org/%5F_native/modal") != .allowed)
        #expect(verdict("https://studio.example.org/apix") == .allowed)
        #expect(verdict("https://studio.example.org/screens?next=/api") == .allowed)
        #expect(verdict("http://studio.example.org/api") == .allowed, "another origin")
        #expect(verdict("https://studio.example.org:8443/api") == .allowed, "another origin")
        #expect(verdict("https://other.example.org/api") == .allowed)
    }

    @Test("server addresses: normalized, and plain http only on local networks")
    func serverAddresses() throws {
        func parse(_ s: String) -> Result<ServerAddress, ServerAddressProblem> { ServerAddress.parse(s) }
        #expect(try parse("  Studio.Example.org  ").get().normalized == "https://studio.example.org")
        #expect(try parse("HTTP://Tilecast.Local:8080/").get().normalized == "http://tilecast.local:8080")
        #expect(try parse("https://example.org:443").get().normalized == "https://example.org:443", "a typed port is kept")
        #expect(try parse("https://example.org:443").get().origin == parse("https://example.org").get().origin)
        #expect(try parse("http://[::1]:8080").get().normalized == "http://[::1]:8080")
        #expect(try parse("http://127.0.0.1:9").get().isPlainHTTP)
        for local in ["http://10.1.2.3", "http://172.16.0.1", "http://172.31.255.255", "http://192.168.1.1",
                      "http://169.254.1.1", "http://localhost:3000", "http://printer.local"] {
            #expect((try? parse(local).get()) != nil, "\(local)")
        }
        #expect(parse("") == .failure(.empty))
        #expect(parse("   ") == .failure(.empty))
        #expect(parse("ftp://example.org") == .failure(.unsupportedScheme("ftp")))
        #expect(parse("https://example.org/studio") == .failure(.containsPath))
        #expect(parse("http://example.org") == .failure(.publicHTTP(host: "example.org")))
        for public_ in ["http://172.32.0.1", "http://[2001:db8::1]", "http://[fe80::1]", "http://8.8.8.8", "http://10.0.0", "http://fdroid.example.org"] {
            guard case .failure(.publicHTTP) = parse(public_) else { Issue.record("\(public_) should be public http"); continue }
        }
        for invalid in ["https://u:p@example.org", "https://example.org/?x=1", "https://example.org#x", "https://exa mple.org",
                        "https://example.org.", "https://:443", "https://example.org:99999", "https://ex@mple"] {
            guard case .failure(.invalid) = parse(invalid) else { Issue.record("\(invalid) should be invalid"); continue }
        }
    }

    @Test("origins: default ports, case, reported port 0")
    func origins() throws {
        #expect(Origin(url: "HTTPS://Example.org/x") == Origin(url: "https://example.org:443"))
        #expect(Origin(scheme: "https", host: "example.org", port: 0) == Origin(url: "https://example.org"))
        #expect(Origin(url: "http://example.org:8080") != Origin(url: "http://example.org"))
        #expect(Origin(url: "file:///etc/passwd") == nil)
        #expect(Origin(url: "http://[::1]:8080")?.description == "http://[::1]:8080")
    }
}

@Suite("Kiosk retry pauses")
struct KioskBackoffTests {
    @Test("1 s, doubling after each failure in a row, never more than 60 s")
    func schedule() {
        #expect((1...8).map(KioskBackoff.delay(attempt:)) == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(KioskBackoff.delay(attempt: 0) == 1)
        #expect(KioskBackoff.delay(attempt: 10_000) == 60)
    }

    @Test("the pointer hides after 3 s by default; --cursor-timeout takes 0.1 s to an hour")
    func cursorTimeout() {
        #expect(KioskOptions().cursorTimeout == 3)
        #expect(KioskOptions.cursorTimeoutRange.contains(KioskOptions().cursorTimeout))
        #expect(KioskOptions.cursorTimeoutRange == 0.1...3600)
    }
}
