import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
import Testing

@Suite("Deep links: where a link goes, decided before anything loads")
struct DeepLinkRouteTests {
    static let north = ServerRecord(id: "north", name: "North", address: try! ServerAddress.parse("https://north.example.org").get(),
                                    identity: ServerIdentity(installationId: "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e", organizationName: "North"))
    static let south = ServerRecord(id: "south", name: "South", address: try! ServerAddress.parse("https://south.example.org").get(),
                                    identity: ServerIdentity(installationId: "11111111-2222-4333-8444-555555555555", organizationName: "South"))
    static let unknown = "tilecast-ios://open?installation=99999999-9999-4999-8999-999999999999&path=%2Fmedia"

    @Test("a link for an installation that is not saved opens nothing, with one saved server or several")
    func notSaved() {
        for records in [[Self.north], [Self.north, Self.south], []] {
            guard case .refused(let why) = DeepLinkRoute.decide(Self.unknown, records: records) else {
                Issue.record("opened with \(records.map(\.id))"); continue
            }
            #expect(why.contains("not set up here") && why.contains("99999999-9999-4999-8999-999999999999") && why.contains("nothing was opened"))
            for named in [nil, "north"] {
                guard case .failure(let refusal) = DeepLinkRoute.startingServer(for: Self.unknown, named: named, records: records) else {
                    Issue.record("the app would start for it with \(records.map(\.id))"); continue
                }
                #expect(refusal.message == why)
            }
        }
    }

    @Test("with several saved servers, a bad link's error says what is wrong with the link, not to name a server",
          arguments: ["tilecast-ios://open?installation=nope&path=%2Fmedia", "tilecast-ios://open?path=%2Fmedia",
                      "tilecast-ios://open?installation=7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e&path=%2Flogin",
                      "tilecast-ios://open:8080?installation=7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e&path=%2F", "https://example.org"])
    func badLinks(_ url: String) {
        guard case .failure(let refusal) = DeepLinkRoute.startingServer(for: url, named: nil, records: [Self.north, Self.south]) else {
            Issue.record("accepted \(url)"); return
        }
        #expect(refusal.message.hasPrefix("That link cannot be opened: "), "\(refusal.message)")
        #expect(!refusal.message.contains("name one") && !refusal.message.contains("several"))
    }

    @Test("a link starts the app on its own server; a server named beside it must be that one")
    func starting() {
        let link = "tilecast-ios://open?installation=11111111-2222-4333-8444-555555555555&path=%2Fmedia"
        #expect(DeepLinkRoute.startingServer(for: link, named: nil, records: [Self.north, Self.south]) == .success(Self.south))
        #expect(DeepLinkRoute.startingServer(for: link, named: "south", records: [Self.north, Self.south]) == .success(Self.south))
        guard case .failure(let refusal) = DeepLinkRoute.startingServer(for: link, named: "north", records: [Self.north, Self.south]) else {
            Issue.record("opened south's link on north"); return
        }
        #expect(refusal.message.contains("is for South (south), not north"))
    }

    @Test("a notice shows a link's bidirectional overrides and control characters escaped, never applied")
    func notice() throws {
        let link = try DeepLink.parse("tilecast-ios://open?installation=11111111-2222-4333-8444-555555555555&path=%2Fmedia%2F%E2%80%AEgpj.exe").get()
        #expect(link.path == "/media/\u{202e}gpj.exe", "a Studio path may carry it (the contract's rules); it is shown escaped")
        var evil = Self.south
        evil.name = "South\u{1b}]0;title\u{07}\u{2067}"
        let text = DeepLinkRoute.openingNotice(link, evil)
        #expect(text == #"Opening /media/\u{202e}gpj.exe on South\u{1b}]0;title\u{7}\u{2067}."#)
        #expect(TerminalText.isPlain(text))
        guard case .refused(let why) = DeepLinkRoute.decide("tilecast-ios://open?installation=1\u{202e}&path=%2F", records: [Self.south]) else {
            Issue.record("accepted"); return
        }
        #expect(TerminalText.isPlain(why), "a refusal never repeats the link's text")
    }

    /// The reference Studio's router (fixtures/studio) decides which path is its sign-in page:
    /// the refusal rule must call a path reserved exactly when that router would.
    @Test("refused paths follow how Studio's router matches them: case and all")
    func routerCase() throws {
        let routes = try String(contentsOf: Checkout.root.appendingPathComponent("fixtures/studio/routes.js"), encoding: .utf8)
        let app = try String(contentsOf: Checkout.root.appendingPathComponent("fixtures/studio/app.js"), encoding: .utf8)
        // `{ pattern: /^\/login$/, …` — the sign-in route, and whether it ignores case (`/i`).
        let routeLine = try #require(routes.split(separator: "\n").first { $0.contains("pattern: /^\\/login") })
        let literal = try #require(routeLine.range(of: #"pattern: /(.*?)/([a-z]*),"#, options: .regularExpression))
        let regex = String(routeLine[literal]).dropFirst("pattern: /".count)
        let flagsStart = try #require(regex.lastIndex(of: "/"))
        let source = String(regex[..<flagsStart]), flags = String(regex[regex.index(after: flagsStart)...].dropLast())
        let router = try NSRegularExpression(pattern: source, options: flags.contains("i") ? [.caseInsensitive] : [])
        #expect(app.contains(#"location.pathname === "/login""#), "the sign-in check compares exactly")
        #expect(app.contains(#"location.pathname.startsWith("/__native/modal")"#), "the sheet tree is matched exactly")
        for path in ["/login", "/LOGIN", "/Login", "/lOgIn", "/login?next=/", "/LOGIN?next=/", "/%6Cogin", "/login%2F"] {
            let part = String(StudioPath.pathPart(path))
            let routerSignIn = router.firstMatch(in: part, range: NSRange(part.startIndex..., in: part)) != nil
            #expect((DeepLink.checkPath(path) == .reservedAuthenticationPath) == routerSignIn,
                    "\(path): Studio's router \(routerSignIn ? "shows" : "does not show") its sign-in page for it")
        }
        for path in ["/__NATIVE/modal/x", "/__Native/other"] {
            #expect(DeepLink.checkPath(path) == nil, "\(path) is an ordinary (unknown) route to Studio, as the /__native check is exact")
        }
    }
}
