import HostCore
@testable import StudioContract
import Testing

/// Issue 29 item 9: shares the phone lets through (its rules read the text as written) that
/// carry what those rules are there to stop. Each form is checked both ways: the phone's rules
/// accept it (HostShell must too), and the lint names the rule that would have caught it.
@Suite("Share lint: accepted as on the phone, and warned")
struct ShareLintTests {
    static let server = Origin(url: "https://studio.example.org")
    static let loopback = Origin(url: "http://127.0.0.1:8080")

    struct Form: CustomTestStringConvertible, Sendable {
        let name: String
        let share: ShareRequest
        let field: String
        let rule: ShareWarning.Rule
        let by: [ShareNormalisation]
        var server: Origin? = ShareLintTests.server
        var testDescription: String { name }
    }

    static func url(_ name: String, _ url: String, _ rule: ShareWarning.Rule, by: [ShareNormalisation], server: Origin? = ShareLintTests.server) -> Form {
        Form(name: name, share: ShareRequest(url: url), field: "url", rule: rule, by: by, server: server)
    }

    static func text(_ name: String, _ text: String, _ rule: ShareWarning.Rule, by: [ShareNormalisation], field: String = "text") -> Form {
        let share = field == "title" ? ShareRequest(title: text, text: "see this") : ShareRequest(text: text)
        return Form(name: name, share: share, field: field, rule: rule, by: by)
    }

    /// The forms the probe found (issue 29 item 9), then more of the same families.
    static let forms: [Form] = [
        // found by the probe
        url("percent-encoded marker tc%61_", "https://example.org/x?q=tc%61_abc", .credentialMarker, by: [.percentDecoded]),
        text("fullwidth marker", "key ｔｃａ＿abc", .credentialMarker, by: [.compatibilityFolded]),
        text("zero-width space inside a marker", "key tc\u{200B}a_abc", .credentialMarker, by: [.invisibleRemoved], field: "title"),
        url("double-encoded parameter name acc%2565ss_token", "https://example.org/x?acc%2565ss_token=abc", .credentialParameter, by: [.percentDecoded]),
        url("parameter name with []", "https://example.org/x?access_token[]=abc", .credentialParameter, by: [.bracketsRemoved]),
        url("parameter name with %00", "https://example.org/x?access_token%00=abc", .credentialParameter, by: [.invisibleRemoved]),
        url("own origin /x/../api", "https://studio.example.org/x/../api/v1/items", .ownAPIPath, by: [.dotSegmentsRemoved]),
        url("own origin //api", "https://studio.example.org//api/v1/items", .ownAPIPath, by: [.slashesCollapsed]),
        url("host 127.0.0.1%40evil", "http://127.0.0.1%40evil.example/x", .userInfo, by: [.percentDecoded]),
        // markers, more
        url("marker with an uppercase escape and mixed case", "https://example.org/x?q=TcA%5Fabc", .credentialMarker, by: [.percentDecoded]),
        text("triple-encoded marker", "tcr%25255Fabc", .credentialMarker, by: [.percentDecoded]),
        text("combining mark inside a marker", "tca\u{301}_abc", .credentialMarker, by: [.marksRemoved]),
        text("soft hyphen inside a marker", "tc\u{AD}_device_abc", .credentialMarker, by: [.invisibleRemoved]),
        text("mathematical letters", "𝐭𝐜𝐚_abc", .credentialMarker, by: [.compatibilityFolded]),
        text("small low line", "tc﹍pair abc", .credentialMarker, by: [.compatibilityFolded]),
        text("NUL inside a marker", "tca\u{0}_abc", .credentialMarker, by: [.invisibleRemoved]),
        url("marker in base64url data in the fragment", "https://example.org/x#eyJ0b2tlbiI6InRjYV9hYmMxMjMifQ", .credentialMarker, by: [.base64Decoded]),
        // parameters, more
        url("encoded + after the name", "https://example.org/x?access_token%2B=abc", .credentialParameter, by: [.percentDecoded]),
        url("encoded & and = inside a value", "https://example.org/x?a=1%26access_token%3Dabc", .credentialParameter, by: [.nestedParameters]),
        url("route with a query in the fragment", "https://example.org/app#/callback?access_token=abc", .credentialParameter, by: [.nestedParameters]),
        url("encoded = in a fragment parameter", "https://example.org/app#access_token%3Dabc", .credentialParameter, by: [.percentDecoded]),
        url("; parameter of the path", "https://example.org/x;jsessionid=1;session=abc", .credentialParameter, by: [.nestedParameters]),
        url("URL inside a parameter value", "https://example.org/go?next=https%3A%2F%2Fother.example%2F%3Ftoken%3Dabc", .credentialParameter, by: [.nestedParameters]),
        url("hyphen for underscore", "https://example.org/x?Access-Token=abc", .credentialParameter, by: [.separatorsIgnored]),
        url("camel case", "https://example.org/x?clientSecret=abc", .credentialParameter, by: [.separatorsIgnored]),
        url("bracketed key", "https://example.org/x?password[0]=abc", .credentialParameter, by: [.bracketsRemoved]),
        url("fullwidth parameter name", "https://example.org/x?ｔｏｋｅｎ=abc", .credentialParameter, by: [.compatibilityFolded]),
        url("zero-width joiner in a name", "https://example.org/x?to%E2%80%8Dken=abc", .credentialParameter, by: [.invisibleRemoved]),
        url("JSON in the fragment", "https://example.org/x#%7B%22refresh_token%22%3A%22abc%22%7D", .credentialParameter, by: [.nestedParameters]),
        text("URL with a credential parameter inside the text", "Open https://example.org/cb?code=abc now", .credentialParameter, by: [.nestedParameters]),
        // the server's own API, more
        url("double-encoded slashes", "https://studio.example.org/x%252F..%252Fapi/v1", .ownAPIPath, by: [.percentDecoded, .dotSegmentsRemoved]),
        url("encoded backslash", "https://studio.example.org/%5Capi/v1", .ownAPIPath, by: [.backslashAsSlash]),
        url("; parameter on /api", "https://studio.example.org/api;v=1/items", .ownAPIPath, by: [.pathParametersRemoved]),
        url("fullwidth /api", "https://studio.example.org/ａｐｉ/v1", .ownAPIPath, by: [.compatibilityFolded]),
        url("/__native with an encoded dot segment", "https://studio.example.org/a/%2E%2E/__NATIVE/x", .ownAPIPath, by: [.dotSegmentsRemoved]),
        url("trailing dot on the host", "https://studio.example.org./api/v1", .ownAPIPath, by: [.hostNormalised]),
        url("percent-encoded host", "https://%73tudio.example.org/api/v1", .ownAPIPath, by: [.percentDecoded]),
        url("short IPv4 host", "http://127.1:8080/api/v1", .ownAPIPath, by: [.hostNormalised], server: loopback),
        url("decimal IPv4 host", "http://2130706433:8080/api/v1", .ownAPIPath, by: [.hostNormalised], server: loopback),
        url("hexadecimal IPv4 host", "http://0x7f.0.0.1:8080/__native/x", .ownAPIPath, by: [.hostNormalised], server: loopback),
        // user information, more
        url("fullwidth @ in the host", "https://user＠example.org/x", .userInfo, by: [.compatibilityFolded]),
        url("double-encoded @", "https://me%2540example.org/x", .userInfo, by: [.percentDecoded]),
        text("URL with user information inside the text", "at https://me:pw@example.org/x", .userInfo, by: [.nestedParameters]),
    ]

    /// The phone's own rules, as `system/share` is decoded and then checked for the server.
    static func phoneAccepts(_ share: ShareRequest, server: Origin?) -> Bool {
        var payload = JSONObject()
        if let title = share.title { payload["title"] = .string(title) }
        if let text = share.text { payload["text"] = .string(text) }
        if let url = share.url { payload["url"] = .string(url) }
        guard case .share(let decodedShare)? = decoded(envelope("system/share", .object(payload))) else { return false }
        return SharePolicy.verdict(for: decodedShare, serverOrigin: server) == .allowed
    }

    @Test("accepted, as the phone accepts it", arguments: forms)
    func accepted(_ form: Form) {
        #expect(Self.phoneAccepts(form.share, server: form.server), "the phone's rules accept \(form.name): HostShell must too")
    }

    @Test("warned, naming the rule that would have caught it", arguments: forms)
    func warned(_ form: Form) {
        let warnings = ShareLint.warnings(for: form.share, serverOrigin: form.server)
        let warning = warnings.first { $0.rule == form.rule && $0.field == form.field }
        #expect(warning != nil, "\(form.name): \(warnings)")
        for step in form.by { #expect(warning?.normalisations.contains(step) == true, "\(form.name): \(String(describing: warning))") }
    }

    @Test("a share the phone's rules read right is not warned", arguments: [
        ShareRequest(title: "North", text: "Hello", url: "https://example.org/articles/1?ref=home&page=2#top"),
        ShareRequest(text: "Use the token wisely: café, naïve, 東京, emoji 🎬"),
        ShareRequest(url: "https://studio.example.org/projects/1?tab=api"),
        ShareRequest(url: "https://studio.example.org/apis/v1"),
        ShareRequest(url: "https://studio.example.org/x/../projects"),
        ShareRequest(url: "https://other.example.org/api/v1"),
        ShareRequest(url: "https://example.org/x?tokens=1&my_token=2&code_name=x&sigma=1"),
        ShareRequest(url: "https://example.org/x?id=abcdefghijklmnopqrstuvwxyz012345"),
        ShareRequest(text: "See https://example.org/a?b=c and https://example.org/d"),
        ShareRequest(url: "https://example.org/search?q=100%25+sure"),
    ])
    func clean(_ share: ShareRequest) {
        #expect(Self.phoneAccepts(share, server: Self.server))
        #expect(ShareLint.warnings(for: share, serverOrigin: Self.server) == [])
    }

    @Test("a warning's record: rule, field, marker written so the bridge log keeps it, nothing redacted away")
    func record() {
        let warnings = ShareLint.warnings(for: ShareRequest(text: "ｔｃａ＿abc"), serverOrigin: nil)
        #expect(warnings == [ShareWarning(field: "text", rule: .credentialMarker, found: "tca", normalisations: [.compatibilityFolded])])
        let json = warnings[0].json.objectValue
        #expect(json?["rule"] == "credential-marker" && json?["field"] == "text" && json?["found"] == "tca")
        #expect(json?["message"]?.stringValue?.contains("credential marker") == true)
        #expect(!JSONWriter.string(warnings[0].json).contains(BridgeLog.redacted))
    }

    @Test("the compatibility fold: fullwidth, mathematical, small forms, ligatures; nothing else")
    func fold() {
        #expect(CompatibilityFold.ascii("ｔ") == "t" && CompatibilityFold.ascii("＿") == "_" && CompatibilityFold.ascii("Ａ") == "A")
        #expect(CompatibilityFold.ascii("𝐭") == "t" && CompatibilityFold.ascii("﹍") == "_" && CompatibilityFold.ascii("ﬁ") == "fi")
        #expect(CompatibilityFold.ascii("\u{212A}") == "K" && CompatibilityFold.ascii("⁼") == "=" && CompatibilityFold.ascii("／") == "/")
        #expect(CompatibilityFold.ascii("a") == nil && CompatibilityFold.ascii("é") == nil && CompatibilityFold.ascii("東") == nil)
    }

    @Test("IPv4 as the URL standard reads it")
    func ipv4() {
        #expect(ShareLint.ipv4("127.1") == "127.0.0.1" && ShareLint.ipv4("2130706433") == "127.0.0.1")
        #expect(ShareLint.ipv4("0x7f.0.0.1") == "127.0.0.1" && ShareLint.ipv4("0177.0.0.01") == "127.0.0.1")
        #expect(ShareLint.ipv4("example.org") == nil && ShareLint.ipv4("256.0.0.1") == nil && ShareLint.ipv4("1.2.3.4.5") == nil)
    }
}
