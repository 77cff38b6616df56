import HostCore
import Testing

/// Issue 29 item 5: a navigation the policy refuses sends no request — the main frame's
/// confinement as content-blocker rules.
@Suite("Main-frame confinement: content-blocker rules for the server's origin")
struct MainFrameConfinementTests {
    static let origin = Origin(url: "http://127.0.0.1:8080")!

    @Test("every top-frame document is blocked, then the server's origin, the page's own content and host loads let through")
    func rules() throws {
        let text = MainFrameConfinement.rules(origin: Self.origin, hostLoads: ["http://localhost:8080/off-origin.html?a=1+2"])
        let rules = try #require(try JSONParser.parse(text).arrayValue)
        let filters = rules.compactMap { $0.objectValue?["trigger"]?.objectValue?["url-filter"]?.stringValue }
        let actions = rules.compactMap { $0.objectValue?["action"]?.objectValue?["type"]?.stringValue }
        #expect(filters == [".*", #"^http://127\.0\.0\.1:8080/"#, "^about:", "^data:", "^blob:", #"^http://localhost:8080/off-origin\.html\?a=1\+2$"#])
        #expect(actions == ["block"] + Array(repeating: "ignore-previous-rules", count: 5))
        for rule in rules {
            let trigger = rule.objectValue?["trigger"]?.objectValue
            #expect(trigger?["load-context"] == ["top-frame"], "frames are never confined")
            #expect(trigger?["resource-type"] == ["document"])
        }
    }

    @Test("the rules' name follows their text; what the plain rules admit")
    func identifierAndAdmits() {
        let a = MainFrameConfinement.identifier(for: MainFrameConfinement.rules(origin: Self.origin))
        let b = MainFrameConfinement.identifier(for: MainFrameConfinement.rules(origin: Origin(url: "https://studio.example")!))
        #expect(a != b && a.hasPrefix("hostshell-main-frame-"))
        #expect(a == MainFrameConfinement.identifier(for: MainFrameConfinement.rules(origin: Self.origin)))
        #expect(MainFrameConfinement.admits("http://127.0.0.1:8080/__native/modal", origin: Self.origin))
        #expect(MainFrameConfinement.admits("HTTP://127.0.0.1:8080/", origin: Self.origin))
        #expect(MainFrameConfinement.admits("about:blank", origin: Self.origin))
        #expect(!MainFrameConfinement.admits("http://127.0.0.1:80801/", origin: Self.origin))
        #expect(!MainFrameConfinement.admits("http://localhost:8080/", origin: Self.origin))
        #expect(!MainFrameConfinement.admits("http://127.0.0.1:8080", origin: Self.origin), "WebKit always gives the path")
        #expect(MainFrameConfinement.escaped("a.b*c+d?e^f$g[h]i(j)k{l}m|n\\o") == #"a\.b\*c\+d\?e\^f\$g\[h\]i\(j\)k\{l\}m\|n\\o"#)
    }
}
