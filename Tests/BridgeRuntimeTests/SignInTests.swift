import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Sign-in: PKCE, the callback rules, the exchange and the credential")
struct SignInTests {
    static let origin = Origin(url: "https://studio.example.org")!
    static let request = SignInRequest(stateBytes: Array(0..<24), verifierBytes: Array(100..<132))

    @Test("SHA-256 and base64url match their published test vectors")
    func digests() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        #expect(hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA256.digest([UInt8](repeating: 0x61, count: 1000))) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
        #expect(Base64URL.encode(Array("foob".utf8)) == "Zm9vYg")
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test("PKCE: the RFC 7636 example verifier gives its example challenge; lengths are as the contract says")
    func pkce() {
        // RFC 7636 Appendix B: these 32 bytes give the verifier dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk.
        let rfc = SignInRequest(stateBytes: Array(repeating: 1, count: 24), verifierBytes: [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
            22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121])
        #expect(rfc.verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(rfc.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(Self.request.state.utf8.count == 32)
        let url = Self.request.approveURL(origin: Self.origin)
        #expect(url.hasPrefix("https://studio.example.org/oauth/approve?client_id=tilecast-ios&redirect_uri=tilecast-ios%3A%2F%2Foauth%2Fcallback&scope=read%20write%20admin&state="))
        #expect(url.hasSuffix("&code_challenge=\(Self.request.challenge)&code_challenge_method=S256"))
    }

    func callback(_ query: String) -> Result<String, SignInProblem> {
        SignInCallback.code(from: "tilecast-ios://oauth/callback?" + query, request: Self.request, serverOrigin: Self.origin)
    }

    @Test("a callback with one matching state, the right issuer and one code gives the code")
    func acceptsCallback() {
        let state = Self.request.state
        #expect(callback("code=abc&state=\(state)") == .success("abc"))
        #expect(callback("state=\(state)&iss=https%3A%2F%2Fstudio.example.org&code=a%2Bb+c") == .success("a+b c"))
        #expect(callback("code=x&state=\(state)&other=1") == .success("x"), "other parameters are ignored")
    }

    @Test("every refusal: state, issuer before error, code, and the callback's own address", arguments: [
        ("code=abc", "no state"), ("code=abc&state=S&state=S", "more than one state"), ("code=abc&state=wrong", "does not match"),
        ("code=abc&state=S&iss=https%3A%2F%2Fevil.example", "another server"),
        ("error=access_denied&state=S&iss=https%3A%2F%2Fevil.example", "another server"),
        ("code=abc&state=S&iss=https%3A%2F%2Fstudio.example.org%2F", "another server"),
        ("state=S", "no code"), ("code=a&code=b&state=S", "more than one code"), ("code=&state=S", "no code"),
    ])
    func refusesCallback(_ query: String, _ why: String) {
        let result = callback(query.replacingOccurrences(of: "state=S", with: "state=\(Self.request.state)"))
        guard case .failure(.invalidCallback(let reason)) = result else {
            Issue.record("\(query) gave \(result)")
            return
        }
        #expect(reason.contains(why), "\(reason)")
    }

    @Test("a denial is reported as rejected, after the issuer check passed")
    func denial() {
        let result = callback("error=access_denied&error_description=Nope&state=\(Self.request.state)&iss=https%3A%2F%2Fstudio.example.org")
        #expect(result == .failure(.rejected("access was denied: Nope")))
        for url in ["tilecast-ios://oauth/other?state=x", "tilecast-ios://open/callback?code=1", "https://oauth/callback?code=1",
                    "tilecast-ios://user@oauth/callback?code=1", "tilecast-ios://oauth:99/callback?code=1"] {
            guard case .failure(.invalidCallback) = SignInCallback.code(from: url, request: Self.request, serverOrigin: Self.origin) else {
                Issue.record("\(url) was accepted")
                continue
            }
        }
        #expect(SignInRequest.isCallback("TILECAST-IOS://OAUTH/callback?x"))
        #expect(!SignInRequest.isCallback("https://studio.example.org/oauth/callback"))
    }

    @Test("the exchange answer: a credential, a Studio session only, or a clear failure")
    func exchange() {
        let body = #"{"data":{"credential":{"access_token":"tca_1","refresh_token":"tcr_1","token_type":"Bearer","expires_at":"2026-11-29T15:00:00Z"}}}"#
        #expect(SessionExchangeResult.interpret(status: 200, body: Array(body.utf8))
            == .credential(Credential(accessToken: "tca_1", refreshToken: "tcr_1", expiresAt: 1_795_964_400)))
        #expect(SessionExchangeResult.interpret(status: 200, body: Array(#"{"data":{"authenticated":true}}"#.utf8)) == .studioSessionOnly)
        for status in [400, 401] {
            guard case .failed(.rejected) = SessionExchangeResult.interpret(status: status, body: []) else { Issue.record("\(status)"); continue }
        }
        for status in [429, 500, 503, 302] {
            guard case .failed(.unavailable) = SessionExchangeResult.interpret(status: status, body: []) else { Issue.record("\(status)"); continue }
        }
        for bad in ["", "{}", #"{"data":{"credential":{"access_token":"x","refresh_token":"tcr_1","expires_at":1}}}"#,
                    #"{"data":{"credential":{"access_token":"tca_1","refresh_token":"tcr_1","expires_at":"soon"}}}"#] {
            guard case .failed(.unavailable) = SessionExchangeResult.interpret(status: 200, body: Array(bad.utf8)) else {
                Issue.record("\(bad) was accepted")
                continue
            }
        }
    }

    @Test("refresh is due 60 s before expiry; the stored form round-trips; ISO 8601 times convert")
    func credentialTiming() {
        let credential = Credential(accessToken: "tca_a", refreshToken: "tcr_b", expiresAt: 1000)
        #expect(!credential.needsRefresh(now: 939))
        #expect(credential.needsRefresh(now: 940))
        #expect(credential.refreshDue(now: 100) == 940)
        #expect(credential.refreshDue(now: 990) == 990)
        #expect(Credential(json: credential.json) == credential)
        #expect(ISO8601.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601.seconds("2000-03-01T12:30:15.5+01:00") == 951_910_215.5)
        #expect(ISO8601.seconds("2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(ISO8601.seconds("2024-02-29 00:00:00") == nil)
        #expect(ISO8601.seconds("2024-13-01T00:00:00Z") == nil)
    }

    @Test("the stored form is read from text of at most 64 KiB; an exchange gives up before the token it refreshes expires")
    func storedFormAndExchangeTimeout() {
        let longest = Credential(accessToken: "tca_" + repeated("a", Credential.maxTokenBytes - 4),
                                 refreshToken: "tcr_" + repeated("b", Credential.maxTokenBytes - 4), expiresAt: 2_000_000_000.5)
        let text = JSONWriter.string(longest.json)
        #expect(Credential(storedForm: text) == longest)
        #expect(text.utf8.count * 4 < Credential.maxStoredBytes, "the longest credential fits four times over")
        #expect(Credential(storedForm: text + repeated(" ", Credential.maxStoredBytes - text.utf8.count)) == longest)
        #expect(Credential(storedForm: text + repeated(" ", Credential.maxStoredBytes - text.utf8.count + 1)) == nil)
        #expect(Credential(storedForm: "{") == nil)
        #expect(Credential(storedForm: #"{"access_token":"tca_a"}"#) == nil)
        #expect(Credential.isAccessToken("tca_x") && !Credential.isAccessToken("tcr_x") && !Credential.isAccessToken("tca_x y"))
        // A refresh goes out refreshLead before expiry; its exchange is over (answered or timed out) before then.
        #expect(CredentialLifecycle.exchangeTimeout < Credential.refreshLead)
    }
}
