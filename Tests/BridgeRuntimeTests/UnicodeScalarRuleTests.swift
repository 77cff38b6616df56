@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Testing

/// CONTRACT.md §5: every character rule is tested on Unicode scalars, never on grapheme
/// clusters, so a mark that joins the character before it (a combining accent, an enclosing
/// overlay, a zero-width joiner, a variation selector, a spacing vowel sign) must not hide a
/// `/`, `@`, `?`, `#`, `&`, `;`, `=` or `_` from a rule. Case-insensitive is ASCII folding only;
/// control is general category Cc; white space and trimming are JavaScript's `\s` and `trim()`.
@Suite("Character rules on Unicode scalars")
struct UnicodeScalarRuleTests {
    /// Each joins the scalar before it into one Swift `Character`.
    static let marks = ["\u{301}", "\u{20D2}", "\u{200D}", "\u{FE0F}", "\u{93E}"]
    static let installation = "7c1e2a94-3b6d-4c1e-8f7a-2d3e4b5c6d7e"

    /// The premise of this suite: with these marks, Character-based APIs miss the character.
    @Test("the marks really join: Swift's Character APIs would miss the character before them", arguments: marks)
    func marksJoin(_ mark: String) {
        #expect("a&\(mark)b".split(separator: "&").count == 1)
        #expect(!"/\(mark)x".hasPrefix("/"))
        #expect("_\(mark)".count == 1)
    }

    // MARK: share

    func shareCode(_ payload: JSONValue) -> ReplyErrorCode? { failureCode(envelope("system/share", payload)) }

    @Test("share: user information behind a mark after @ is still user information", arguments: marks)
    func shareUserInfo(_ mark: String) {
        for url in ["https://user@\(mark)example.org/", "https://u:p@\(mark)example.org/x", "http://a@b@\(mark)example.org"] {
            #expect(SharePolicy.urlProblem(url) == "must not contain user information", "\(url.unicodeScalars.map(\.value))")
            #expect(shareCode(["url": .string(url)]) == .malformed)
        }
    }

    @Test("share: a credential marker followed by a mark is still a marker, in any ASCII case", arguments: marks)
    func shareMarkers(_ mark: String) {
        for text in ["see tca_\(mark)abc", "TCR_\(mark)x", "a tc_device_\(mark)1", "Tc_Device_\(mark)", "pair TC_PAIR\(mark)-9", "tc_pair\(mark)"] {
            #expect(SharePolicy.containsCredentialMarker(text), "\(text.unicodeScalars.map(\.value))")
            #expect(shareCode(["text": .string(text)]) == .malformed)
            #expect(shareCode(["title": .string(text), "text": "x"]) == .malformed)
        }
        #expect(shareCode(["url": .string("https://example.org/tca_\(mark)x")]) == .malformed)
        // A mark inside a marker breaks it: the scalars no longer spell it.
        #expect(!SharePolicy.containsCredentialMarker("tc\(mark)a_x"))
        #expect(!SharePolicy.containsCredentialMarker("tc_\(mark)pair"))
    }

    @Test("share: parameter names split on & ; = whatever mark follows the separator", arguments: marks)
    func shareParameterSplitting(_ mark: String) {
        for url in ["https://example.org/?token=\(mark)x", "https://example.org/?token;\(mark)=1", "https://example.org/?token&\(mark)=1",
                    "https://example.org/?\(mark)&token=1", "https://example.org/#\(mark)&id_token=1", "https://example.org/?a=1&\(mark)&password=2",
                    "https://example.org/?x=\(mark);sig=1"] {
            #expect(SharePolicy.urlProblem(url)?.hasPrefix("names a credential parameter") == true, "\(url.unicodeScalars.map(\.value))")
        }
        // A mark that is part of the name makes another name.
        for url in ["https://example.org/?\(mark)token=1", "https://example.org/?token\(mark)=1", "https://example.org/?to\(mark)ken=1"] {
            #expect(SharePolicy.urlProblem(url) == nil, "\(url.unicodeScalars.map(\.value))")
        }
    }

    @Test("share: names are trimmed as JavaScript's trim() does and folded in ASCII only")
    func shareNameTrimming() {
        for trimmed in ["%EF%BB%BF", "%E3%80%80", "%E2%80%A8", "%C2%A0", "%09", "+", "%E1%9A%80", "%E2%80%AF"] {
            #expect(SharePolicy.urlProblem("https://example.org/?\(trimmed)token\(trimmed)=1") == "names a credential parameter (token)", "\(trimmed)")
        }
        // U+0085 is Unicode White_Space but not JavaScript's; U+200B and U+180E are neither.
        for kept in ["%C2%85", "%E2%80%8B", "%E1%A0%8E"] {
            #expect(SharePolicy.urlProblem("https://example.org/?\(kept)token=1") == nil, "\(kept)")
        }
        #expect(SharePolicy.urlProblem("https://example.org/?TOKEN=1") == "names a credential parameter (token)")
        // Full Unicode lowercasing would turn the KELVIN SIGN into k and İ into i + U+0307.
        #expect(SharePolicy.urlProblem("https://example.org/?to%E2%84%AAen=1") == nil)
        #expect(SharePolicy.urlProblem("https://example.org/?to\u{212A}en=1") == nil)
    }

    @Test("share: the query and fragment are found behind a mark after ? and #", arguments: marks)
    func shareComponents(_ mark: String) {
        #expect(SharePolicy.urlProblem("https://example.org/?\(mark)&code=1") != nil)
        #expect(SharePolicy.urlProblem("https://example.org/x#\(mark);secret=1") != nil)
        let server = Origin(url: "https://studio.example.org")!
        #expect(SharePolicy.verdict(for: ShareRequest(url: "https://studio.example.org/api/\(mark)x"), serverOrigin: server) != .allowed)
        #expect(SharePolicy.verdict(for: ShareRequest(url: "https://studio.example.org/api\(mark)"), serverOrigin: server) == .allowed)
    }

    // MARK: character sets

    static let forbidden: [UInt32] = [0x00, 0x09, 0x0A, 0x0B, 0x0D, 0x1F, 0x20, 0x5C, 0x7F, 0x80, 0x85, 0x9F, 0xA0, 0x1680,
                                      0x2000, 0x2005, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF]
    static let allowed: [UInt32] = [0x21, 0x7E, 0xA1, 0x180E, 0x200B, 0x200C, 0x200D, 0x2060, 0x301, 0xFFFD, 0x1F600, 0xE0001]

    @Test("white space is JavaScript's \\s, control is Cc: U+FEFF is white space, U+200B and U+180E are neither")
    func forbiddenSet() {
        for v in Self.forbidden {
            let s = "/a" + String(Unicode.Scalar(v)!) + "b"
            #expect(Patterns.hasForbiddenCharacter(s), "U+\(String(v, radix: 16))")
            #expect(StudioPath.checkStudioPath(s) == .forbiddenCharacter, "U+\(String(v, radix: 16))")
            #expect(SharePolicy.urlProblem("https://example.org" + s) != nil, "U+\(String(v, radix: 16))")
        }
        for v in Self.allowed {
            let s = "/a" + String(Unicode.Scalar(v)!) + "b"
            #expect(!Patterns.hasForbiddenCharacter(s), "U+\(String(v, radix: 16))")
            #expect(StudioPath.checkStudioPath(s) == nil, "U+\(String(v, radix: 16))")
            #expect(SharePolicy.urlProblem("https://example.org" + s) == nil, "U+\(String(v, radix: 16))")
        }
    }

    @Test("trimming strips exactly what JavaScript's trim() strips")
    func trimming() {
        let stripped: [UInt32] = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF]
        for v in stripped {
            let w = String(Unicode.Scalar(v)!)
            #expect("\(w)\(w)a b\(w)".trimmingWhitespace() == "a b", "U+\(String(v, radix: 16))")
        }
        for v: UInt32 in [0x85, 0x200B, 0x180E, 0x1C, 0x1F, 0x2060, 0x301] {
            let w = String(Unicode.Scalar(v)!)
            #expect("\(w)a\(w)".trimmingWhitespace().unicodeScalars.count == 3, "U+\(String(v, radix: 16))")
        }
        #expect(" \u{301}a".trimmingWhitespace().unicodeScalars.first == "\u{301}", "a mark after a space is not trimmed with it")
        #expect(" \u{FEFF} ".trimmingWhitespace() == "")
    }

    // MARK: Studio paths

    @Test("Studio paths: the leading / and the segments are found whatever mark follows a /", arguments: marks)
    func studioPaths(_ mark: String) {
        #expect(StudioPath.checkStudioPath("/\(mark)screens") == nil, "starts with one /")
        #expect(StudioPath.checkStudioPath("//\(mark)evil.example") == .protocolRelative)
        #expect(StudioPath.checkStudioPath("/\\\(mark)evil.example") == .protocolRelative)
        #expect(StudioPath.checkStudioPath("/a/../\(mark)b") == .dotSegment)
        #expect(StudioPath.checkStudioPath("/a/%2e%2E/\(mark)") == .dotSegment)
        #expect(StudioPath.checkStudioPath("/a/./\(mark)b") == .dotSegment)
        #expect(StudioPath.checkStudioPath("/a/.\(mark)/b") == nil, "a dot with a mark is not a dot segment")
        #expect(StudioPath.checkStudioPath("/a/..\(mark)") == nil)
        #expect(StudioPath.checkStudioPath("/__native/\(mark)x") == .reservedNativeTree)
        #expect(StudioPath.checkStudioPath("/__native\(mark)") == nil)
        #expect(StudioPath.checkPresentationPath("/__native/modal/\(mark)x") == nil)
        #expect(StudioPath.checkPresentationPath("/__native/modal/../\(mark)x") == .dotSegment)
        #expect(DeepLink.checkPath("/login/\(mark)") == .reservedAuthenticationPath)
        #expect(DeepLink.checkPath("/oauth?\(mark)") == .reservedAuthenticationPath)
        #expect(DeepLink.checkPath("/login\(mark)") == nil, "like /loginx")
    }

    @Test("lengths count grapheme clusters, as the phone's Swift `count` does (§5); matching stays on scalars")
    func lengths() {
        #expect(Patterns.length("e\u{301}") == 1)
        #expect(Patterns.length("\r\n") == 1)
        #expect(Patterns.length("😀") == 1)
        #expect(Patterns.length("👍🏽") == 1)
        #expect(Patterns.length("👩‍👩‍👧") == 1)
        #expect(StudioPath.checkStudioPath("/" + repeated("é", 2047)) == nil)
        #expect(StudioPath.checkStudioPath("/" + repeated("😀", 2047)) == nil)
        #expect(StudioPath.checkStudioPath("/" + repeated("😀", 2048)) == .tooLong(limit: 2048))
        #expect(StudioPath.checkStudioPath("/" + repeated("e\u{301}", 2047)) == nil, "2048 characters, 4095 scalars")
        #expect(StudioPath.checkStudioPath("/" + repeated("e\u{301}", 2048)) == .tooLong(limit: 2048), "2049 characters")
        #expect(Patterns.hasLength(repeated("a\u{20D2}", 200), in: 1...200), "200 characters, 400 scalars")
        #expect(!Patterns.hasLength(repeated("a\u{20D2}", 200) + "a", in: 1...200))
        #expect(Patterns.hasLength("a" + repeated("\u{301}", 10_000), in: 1...200), "one grapheme, 10 001 scalars")
        #expect(Patterns.hasLength(repeated("\r\n", 64), in: 1...64))
        #expect(!Patterns.hasLength(repeated("\r\n", 65), in: 1...64))
        #expect(Patterns.hasLength("", in: 0...0))
        #expect(!Patterns.hasLength("", in: 1...1))
        #expect(Patterns.hasLength(repeated("😀", 3), in: 3...3))
        #expect(!Patterns.hasLength(repeated("😀", 3), in: 4...8), "3 characters, 12 bytes, 6 UTF-16 units")
        #expect(Patterns.hasLength(repeated("👍🏽", 3), in: 3...3), "3 characters, 6 scalars")
        #expect(!Patterns.hasLength(repeated("👍🏽", 3), in: 4...8))
    }

    @Test("message fields: title and id limits count characters (graphemes), patterns still refuse controls")
    func messageLengths() {
        func catalog(title: String) -> String {
            envelope("navigation/catalog", ["groups": [["id": "g", "items": [["id": "d", "title": .string(title), "icon": "home"]]]]])
        }
        #expect(failureCode(catalog(title: repeated("😀", 200))) == nil)
        #expect(failureCode(catalog(title: repeated("😀", 201))) == .malformed)
        #expect(failureCode(catalog(title: repeated("👩‍👩‍👧", 200))) == nil, "200 characters, 1000 scalars")
        #expect(failureCode(catalog(title: repeated("👩‍👩‍👧", 200) + "x")) == .malformed, "201 characters")
        #expect(failureCode(catalog(title: "a" + repeated("\u{301}", 200))) == nil, "one character, 201 scalars")
        #expect(failureCode(catalog(title: repeated("e\u{301}", 200))) == nil, "200 é written as e + U+0301")
        #expect(failureCode(catalog(title: repeated("e\u{301}", 201))) == .malformed)
        #expect(failureCode(envelope("config/get", id: repeated("é", 64))) == nil)
        #expect(failureCode(envelope("config/get", id: repeated("e\u{301}", 33))) == nil, "33 characters, 66 scalars")
        #expect(failureCode(envelope("config/get", id: repeated("\r\n", 39))) == nil, "39 characters, 78 scalars: the envelope id has no pattern")
        #expect(failureCode(envelope("config/get", id: repeated("\r\n", 65))) == .malformed, "65 characters")
        #expect(failureCode(envelope("alert/cancel", ["alertId": .string(repeated("\r\n", 32))])) == .malformed, "within 64 characters, refused by the id pattern")
    }

    // MARK: deep links

    func link(_ query: String) -> Result<DeepLink, DeepLinkProblem> {
        DeepLink.parse("tilecast-ios://open?installation=\(Self.installation)&" + query)
    }

    @Test("deep links: the query splits on & and = whatever mark follows them", arguments: marks)
    func deepLinkQuery(_ mark: String) throws {
        #expect(try link("path=%2Fa&\(mark)path=%2Fb").get().path == "/a", "the marked name is another parameter")
        #expect(link("path=%2Fa&path=\(mark)%2Fb") == .failure(.repeatedParameter("path")))
        #expect(link("path=\(mark)%2Fx") == .failure(.invalidPath(.notRooted)))
        #expect(try link("path=%2F\(mark)x").get().path == "/\(mark)x")
        #expect(link("path=%2F%2F\(mark)evil.example") == .failure(.invalidPath(.protocolRelative)))
        #expect(link("path=%2Flogin%2F\(mark)") == .failure(.invalidPath(.reservedAuthenticationPath)))
        #expect(link("path=/a/..%2F\(mark)b") == .failure(.invalidPath(.dotSegment)))
    }

    @Test("deep links: a fragment, port or path is found behind a mark after # : /", arguments: marks)
    func deepLinkParts(_ mark: String) {
        #expect(link("path=%2Fscreens#\(mark)x") == .failure(.forbiddenPart("a fragment")))
        #expect(DeepLink.parse("tilecast-ios://open/\(mark)?installation=\(Self.installation)&path=%2F") == .failure(.forbiddenPart("a path")))
        #expect(DeepLink.parse("tilecast-ios://open:\(mark)1?installation=\(Self.installation)&path=%2F") == .failure(.forbiddenPart("this shape")))
        #expect(DeepLink.parse("tilecast-ios:/\(mark)/open?installation=\(Self.installation)&path=%2F") == .failure(.forbiddenPart("this shape")))
    }

    @Test("deep links: scheme, host and installation fold ASCII case only")
    func deepLinkCase() {
        #expect((try? DeepLink.parse("TILECAST-IOS://OPEN?installation=\(Self.installation.uppercased())&path=%2F").get())?.installationId == Self.installation)
        #expect(DeepLink.parse("tilecast-ios://%4FPEN?installation=\(Self.installation)&path=%2F").map(\.path) == .success("/"))
        #expect(DeepLink.parse("tilecast-ios://open?installation=\(Self.installation)&p%61th=%2Fx").map(\.path) == .success("/x"))
    }

    @Test("deep links: the saved server is found by installation id in either ASCII case")
    func deepLinkServer() throws {
        let address = try ServerAddress.parse("https://studio.example.org").get()
        let identity = ServerIdentity(installationId: Self.installation.uppercased(), organizationName: "O")
        let records = [ServerRecord(id: "s", name: "S", address: address, identity: identity)]
        let link = try DeepLink.parse("tilecast-ios://open?installation=\(Self.installation.uppercased())&path=%2F").get()
        #expect(link.server(in: records)?.id == "s")
        #expect(DeepLink(installationId: "8" + Self.installation.dropFirst(), path: "/").server(in: records) == nil)
        #expect(link.server(in: []) == nil)
    }

    // MARK: server addresses and origins

    @Test("server addresses: user info, query, fragment and path are found behind a mark", arguments: marks)
    func serverAddressParts(_ mark: String) {
        #expect(ServerAddress.parse("https://user@\(mark)example.org") == .failure(.invalid("it contains a user name or password")))
        #expect(ServerAddress.parse("user:pw@\(mark)example.org") == .failure(.invalid("it contains a user name or password")))
        #expect(ServerAddress.parse("https://example.org?\(mark)") == .failure(.invalid("it contains a query (?…)")))
        #expect(ServerAddress.parse("https://example.org#\(mark)") == .failure(.invalid("it contains a fragment (#…)")))
        #expect(ServerAddress.parse("https://example.org/\(mark)") == .failure(.containsPath))
        #expect(ServerAddress.parse("https://[::1]:\(mark)80") == .failure(.invalid("it cannot be read as a URL")))
        guard case .failure(.invalid) = ServerAddress.parse("https://.\(mark)example.org") else {
            Issue.record("a host that starts with a dot was accepted"); return
        }
    }

    @Test("server addresses: a leading dot behind a spacing mark, and JavaScript trimming")
    func serverAddressHostAndTrim() throws {
        #expect(!ServerAddress.isValidHost(".\u{93E}example.org"))
        #expect(!ServerAddress.isValidHost(".\u{345}example.org"))
        #expect(try ServerAddress.parse("\u{FEFF}https://Example.org\u{FEFF}").get().normalized == "https://example.org")
        #expect(try ServerAddress.parse("\u{3000}example.org\u{2029}").get().normalized == "https://example.org")
        for untrimmed in ["\u{85}example.org", "\u{200B}example.org", "example.org\u{180E}"] {
            guard case .failure(.invalid) = ServerAddress.parse(untrimmed) else {
                Issue.record("\(untrimmed.unicodeScalars.map(\.value)) was accepted"); continue
            }
        }
    }

    @Test("hosts and schemes fold ASCII case only")
    func asciiFolding() throws {
        #expect(Origin(url: "HTTPS://Studio.EXAMPLE.org")?.host == "studio.example.org")
        #expect(Origin(url: "https://\u{212A}.example")?.host == "\u{212A}.example", "not k.example")
        #expect(Origin(url: "https://\u{130}.example")?.host == "\u{130}.example", "not i + U+0307")
        #expect(Origin(url: "https://\u{212A}.example") != Origin(url: "https://k.example"))
        #expect(Origin(url: "https://\u{E9}.example") != Origin(url: "https://e\u{301}.example"), "exactly: scalar for scalar")
        #expect(Set([Origin(url: "https://\u{E9}.example")!, Origin(url: "https://e\u{301}.example")!]).count == 2)
        #expect(try ServerAddress.parse("https://BÜCHER.Example").get().normalized == "https://bÜcher.example")
        #expect(ServerAddress.isLocal("LOCALHOST"))
        #expect(ServerAddress.isLocal("Printer.LOCAL"))
        #expect(!ServerAddress.isLocal("printer.loca\u{212A}"))
    }

    @Test("origins: a mark after / ? or # cannot move the host behind an @ (navigation, issuer)", arguments: marks)
    func originConfusion(_ mark: String) {
        let server = Self.origin
        for url in ["https://evil.example/\(mark)@studio.example.org", "https://evil.example?\(mark)@studio.example.org",
                    "https://evil.example#\(mark)@studio.example.org/"] {
            #expect(Origin(url: url)?.host == "evil.example")
            let context = NavigationPolicy.Context(serverOrigin: server, handsOut: true)
            #expect(NavigationPolicy.decide(.init(stage: .response(mainFrame: true), url: url), context: context, activated: true).action == .openExternally)
            #expect(NavigationPolicy.decide(.init(stage: .response(mainFrame: true), url: url), context: context).action == .refuse)
        }
        let state = Self.request.state
        let result = callback("?code=abc&state=\(state)&iss=https%3A%2F%2Fevil.example%2F\(mark)%40studio.example.org")
        guard case .failure(.invalidCallback(let why)) = result else { Issue.record("\(result)"); return }
        #expect(why.hasPrefix("it came from another server"))
    }

    @Test("URL parts: every delimiter is found on scalars", arguments: marks)
    func urlParts(_ mark: String) throws {
        let parts = try #require(URLParts("https://u@\(mark)h:8/\(mark)p?\(mark)q#\(mark)f"))
        #expect(parts.userInfo == "u")
        #expect(parts.host == "\(mark)h")
        #expect(parts.port == 8)
        #expect(parts.path.unicodeScalars.elementsEqual("/\(mark)p".unicodeScalars))
        #expect(parts.query.map { $0.unicodeScalars.elementsEqual("\(mark)q".unicodeScalars) } == true)
        #expect(parts.fragment.map { $0.unicodeScalars.elementsEqual("\(mark)f".unicodeScalars) } == true)
        #expect(URLParts("https:/\(mark)/host") == nil, "the second slash carries a mark: not //")
        #expect(URLParts("https://[::1]:\(mark)8080") == nil)
        #expect(URLParts("https:\(mark)//host") == nil)
    }

    // MARK: sign-in callback

    static let origin = Origin(url: "https://studio.example.org")!
    static let request = SignInRequest(stateBytes: [0x28] + Array(repeating: 0, count: 23), verifierBytes: Array(100..<132))

    func callback(_ rest: String) -> Result<String, SignInProblem> {
        SignInCallback.code(from: "tilecast-ios://oauth/callback" + rest, request: Self.request, serverOrigin: Self.origin)
    }

    @Test("sign-in: the callback's query splits on & and = whatever mark follows them", arguments: marks)
    func callbackQuery(_ mark: String) {
        let state = Self.request.state
        #expect(callback("?code=abc&state=\(state)&\(mark)code=evil") == .success("abc"), "the marked name is another parameter")
        #expect(callback("?code=abc&state=\(state)&code=\(mark)x") == .failure(.invalidCallback("more than one code")))
        #expect(callback("?code=abc&state=\(state)&state=\(mark)") == .failure(.invalidCallback("more than one state")))
        #expect(callback("?code=abc&state=\(state)&iss=\(mark)") == .failure(.invalidCallback("it came from another server (\(mark))")))
        #expect(callback("?\(mark)&code=abc&state=\(state)") == .success("abc"), "the query starts after ?")
        #expect(callback("?code=abc&state=\(state)#\(mark)") == .success("abc"), "the fragment starts at #")
        #expect(callback("/\(mark)?code=abc&state=\(state)") == .failure(.invalidCallback("not the app's callback address")))
    }

    @Test("sign-in: the state matches scalar for scalar, not by canonical equivalence")
    func callbackState() {
        let state = Self.request.state
        #expect(state.hasPrefix("K"))
        #expect(callback("?code=abc&state=\(state)") == .success("abc"))
        let kelvin = "%E2%84%AA" + state.dropFirst()  // U+212A KELVIN SIGN is canonically equivalent to K
        #expect(callback("?code=abc&state=\(kelvin)") == .failure(.invalidCallback("the state does not match this sign-in")))
        #expect(callback("?error=access_denied&state=\(state)") == .failure(.rejected("access was denied")))
    }

    // MARK: host core: uploads, credential, bridge log, navigation, enum values

    static func uploadAnswer(_ id: String) -> [UInt8] { Array(JSONWriter.string(["data": ["id": .string(id), "offset": 0]]).utf8) }

    @Test("uploads: an upload or asset id is one path segment, whatever mark follows a / ? or #", arguments: marks)
    func uploadIds(_ mark: String) {
        for id in ["x/\(mark)..", "a?\(mark)b", "a#\(mark)", "/\(mark)", "up\(mark)", "\(mark)"] {
            #expect(UploadProtocol.session(from: Self.uploadAnswer(id)) == nil, "\(id.unicodeScalars.map(\.value))")
            #expect(UploadProtocol.assetId(from: Self.uploadAnswer(id)) == nil, "\(id.unicodeScalars.map(\.value))")
        }
    }

    @Test("uploads: ids that are not one segment as they are: . and .., %-escapes, white space, non-ASCII")
    func uploadIdSegments() {
        for id in [".", "..", "%2e%2e", "%2E", "a%2Fb", "a b", "a\u{FEFF}", "a\\b", "\u{E9}", "a\u{200B}", "", repeated("a", 201)] {
            #expect(!UploadProtocol.isPathSegment(id), "\(id.unicodeScalars.map(\.value))")
            #expect(UploadProtocol.session(from: Self.uploadAnswer(id)) == nil, "\(id.unicodeScalars.map(\.value))")
            #expect(UploadProtocol.assetId(from: Self.uploadAnswer(id)) == nil, "\(id.unicodeScalars.map(\.value))")
        }
        for id in ["up1", "3f2c9a1e-0b7d-4c2e-9f00-1a2b3c4d5e6f", "a.b", "...", ".a", "A_b~c:d@e!$&'()*+,;=", repeated("a", 200)] {
            #expect(UploadProtocol.session(from: Self.uploadAnswer(id))?.id == id)
            #expect(UploadProtocol.assetId(from: Self.uploadAnswer(id)) == id)
            #expect(UploadRequest.head(uploadId: id).path == "/api/v1/uploads/" + id)
        }
    }

    static func credential(access: String = "tca_a", refresh: String = "tcr_r", type: String? = nil) -> Credential? {
        var object: JSONObject = ["access_token": .string(access), "refresh_token": .string(refresh), "expires_at": 2_000_000_000]
        if let type { object["token_type"] = .string(type) }
        return Credential(json: .object(object))
    }

    @Test("credential: the tca_ and tcr_ markers are read on scalars: a mark after the _ does not hide them", arguments: marks)
    func credentialMarkers(_ mark: String) {
        #expect(Self.credential(access: "tca_\(mark)x")?.accessToken.isExactly("tca_\(mark)x") == true)
        #expect(Self.credential(refresh: "tcr_\(mark)")?.refreshToken.isExactly("tcr_\(mark)") == true)
        #expect(Self.credential(access: "tca\(mark)_x") == nil, "the mark is inside the marker")
        #expect(Self.credential(refresh: "tc\(mark)r_x") == nil)
    }

    @Test("credential: the token type is bearer in any ASCII case; a token fits an Authorization header as it is")
    func credentialTypeAndTokens() {
        for type in ["Bearer", "bearer", "BEARER", "bEaReR"] { #expect(Self.credential(type: type) != nil, "\(type)") }
        for type in ["bearer\u{301}", "Bearer ", "\u{FEFF}Bearer", "bearer\u{200B}", "mac", ""] {
            #expect(Self.credential(type: type) == nil, "\(type.unicodeScalars.map(\.value))")
        }
        for bad in [" ", "\r\nX-Injected: 1", "\u{2028}", "\u{85}", "\u{0}", "\t"] {
            #expect(Self.credential(access: "tca_a" + bad) == nil, "\(bad.unicodeScalars.map(\.value))")
            #expect(Self.credential(refresh: "tcr_r" + bad) == nil, "\(bad.unicodeScalars.map(\.value))")
        }
        #expect(Self.credential(access: "tca_" + repeated("a", Credential.maxTokenBytes - 4)) != nil)
        #expect(Self.credential(access: "tca_" + repeated("a", Credential.maxTokenBytes - 3)) == nil)
        #expect(Self.credential(access: "tca_a\u{200B}") != nil, "U+200B is not white space (§5)")
    }

    @Test("bridge log: text that is not JSON is kept to 512 scalars, however they cluster")
    func bridgeLogRawText() throws {
        for text in ["{not json " + repeated("\u{301}", 10_000), repeated("\u{1F469}\u{200D}", 3000)] {
            let line = BridgeLog.inbound(at: 1, context: .main, text: text, reply: .failure(id: nil, code: .malformed), latencyMicroseconds: 1)
            let kept = try #require(try JSONParser.parse(line).objectValue?["message"]?.stringValue)
            // The first 512 scalars, then how long the text was (issue 15: shortened, with its length).
            let mark = "…[shortened from \(text.unicodeScalars.count) scalars]"
            #expect(kept.unicodeScalars.count == BridgeLog.rawTextScalars + mark.unicodeScalars.count)
            #expect(kept.unicodeScalars.prefix(BridgeLog.rawTextScalars).elementsEqual(text.unicodeScalars.prefix(BridgeLog.rawTextScalars)))
            #expect(kept.unicodeScalars.suffix(mark.unicodeScalars.count).elementsEqual(mark.unicodeScalars))
            #expect(line.utf8.count < 4 * BridgeLog.rawTextScalars + 200)
        }
        let short = BridgeLog.inbound(at: 1, context: .main, text: "{x\u{301}", reply: .failure(id: nil, code: .malformed), latencyMicroseconds: 1)
        #expect(try JSONParser.parse(short).objectValue?["message"]?.stringValue?.isExactly("{x\u{301}") == true)
    }

    @Test("bridge log: secret keys match in ASCII case, scalar for scalar, and hide at least what lowercased() hid")
    func bridgeLogKeys() throws {
        let value: JSONValue = ["PASSWORD": "1", "Session_ID": "2", "X-Api-Key": "3", "to\u{212A}en": "4", "API_\u{212A}EY": "5",
                                "token\u{301}": "6", "tokens": "7", "\u{130}d_token": "8", "code": "9"]
        let object = try #require(BridgeLog.redact(value).objectValue)
        for member in object.members {
            let hidden = member.value == .string(BridgeLog.redacted)
            #expect(hidden == ["1", "2", "3", "4", "5"].contains(value.objectValue?.members.first { $0.key.isExactly(member.key) }?.value.stringValue),
                    "\(member.key.unicodeScalars.map(\.value))")
        }
        // Swift's lowercased() and the fold agree on every key that is secret either way.
        for key in BridgeLog.secretKeys { #expect(BridgeLog.isSecretKey(key.uppercased()) && BridgeLog.isSecretKey(key)) }
    }

    @Test("navigation: only about:blank and about:srcdoc themselves load, in any ASCII case, with or without ? or # after them", arguments: marks)
    func aboutBlank(_ mark: String) {
        let context = NavigationPolicy.Context(serverOrigin: Self.origin, handsOut: true)
        func action(_ url: String, person: Bool = false) -> NavigationPolicy.Action {
            NavigationPolicy.decide(.init(stage: .action, url: url, userGesture: person, trigger: person ? .linkClicked : .other), context: context).action
        }
        for url in ["about:blank", "ABOUT:BLANK", "About:Blank?x=1", "about:blank#top", "about:blank#", "about:blank?", "about:srcdoc", "About:SRCDOC#x"] {
            #expect(action(url) == .load, "\(url)")
        }
        for url in ["about:blankx", "about:blanket", "about:blank/", "about:blank:x", "about:blank\(mark)", "about:blan\u{212A}",
                    "about:srcdoc\(mark)", "about:\(mark)blank", " about:blank"] {
            #expect(action(url) == .refuse, "\(url.unicodeScalars.map(\.value))")
        }
        #expect(action("MailTo:someone@example.org", person: true) == .openExternally)
        #expect(action("mailto:\(mark)someone@example.org", person: true) == .openExternally)
        #expect(action("mailtox:someone@example.org", person: true) == .refuse)
        #expect(action("mail\(mark)to:someone@example.org", person: true) == .refuse)
    }

    /// Raw values that other scalars are canonically equivalent to.
    enum Equivalent: String, CaseIterable { case kelvin = "K", acute = "\u{E9}", semicolon = ";" }

    func matchCase(_ json: String) throws -> Equivalent? {
        try JSONTape.parse(json, maxDepth: 2) { $0.matchCase($0.root, of: Equivalent.self) }
    }

    @Test("enum values and keys: an escaped string matches scalar for scalar, not by canonical equivalence")
    func escapedEnumValues() throws {
        #expect(try matchCase(#""\u212A""#) == nil, "KELVIN SIGN is not K")
        #expect(try matchCase(#""e\u0301""#) == nil, "e + U+0301 is not U+00E9")
        #expect(try matchCase(#""\u037E""#) == nil, "GREEK QUESTION MARK is not ;")
        #expect(try matchCase("\"\u{212A}\"") == nil, "unescaped too")
        #expect(try matchCase(#""\u004B""#) == .kelvin)
        #expect(try matchCase(#""K""#) == .kelvin)
        #expect(try matchCase(#""\u00e9""#) == .acute)
        #expect(try matchCase(#""\u003b""#) == .semicolon)
        #expect(try JSONTape.parse(#"{"\u212A":1}"#, maxDepth: 2) { $0.isKey(1, "K") } == false)
        #expect(try JSONTape.parse(#"{"\u004B":1}"#, maxDepth: 2) { $0.isKey(1, "K") } == true)
        // Through a message: an escaped role still decodes.
        let alert = #"{"version":1,"type":"alert/present","payload":{"alertId":"a","title":"T","actions":[{"id":"x","label":"L","role":"\u0063ancel"}]}}"#
        guard case .alertPresent(let present)? = decoded(alert) else { Issue.record("not decoded"); return }
        #expect(present.actions.first?.role == .cancel)
    }
}
