import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// Issue 15 item 1: the navigation policy as a table — stage, address, gesture, redirect,
/// trigger, app kind → load here, open outside, or refuse.
@Suite("Navigation policy: frames load, the main frame stays, only a person hands out")
struct NavigationPolicyTests {
    static let server = Origin(url: "http://127.0.0.1:8080")!
    static let app = NavigationPolicy.Context(serverOrigin: server, handsOut: true)
    static let kiosk = NavigationPolicy.Context(serverOrigin: server, handsOut: false)
    typealias R = NavigationPolicy.Request

    struct Row: Sendable, CustomTestStringConvertible {
        var request: NavigationPolicy.Request
        var activated = false
        var kiosk = false
        var expected: NavigationPolicy.Action
        var testDescription: String {
            "\(request.stage) \(request.url) gesture=\(request.userGesture) redirect=\(request.isRedirect) \(request.trigger) activated=\(activated) kiosk=\(kiosk) → \(expected)"
        }
    }

    static let rows: [Row] = [
        // Actions: the frame is not known; content loads, web addresses go on to their response.
        Row(request: R(stage: .action, url: "http://127.0.0.1:8080/media"), expected: .load),
        Row(request: R(stage: .action, url: "http://localhost:8080/frame.html"), expected: .load),
        Row(request: R(stage: .action, url: "https://example.org/"), expected: .load),
        Row(request: R(stage: .action, url: "about:blank"), expected: .load),
        Row(request: R(stage: .action, url: "about:srcdoc"), expected: .load),
        Row(request: R(stage: .action, url: "About:SrcDoc#x"), expected: .load),
        Row(request: R(stage: .action, url: "about:srcdocx"), expected: .refuse),
        Row(request: R(stage: .action, url: "blob:http://127.0.0.1:8080/1c2d"), expected: .load),
        Row(request: R(stage: .action, url: "data:text/html,<p>x"), expected: .load),
        // mailto: has no response: only a person's link activation hands it out.
        Row(request: R(stage: .action, url: "mailto:a@example.org"), expected: .refuse),
        Row(request: R(stage: .action, url: "mailto:a@example.org", userGesture: true, trigger: .other), expected: .refuse),
        Row(request: R(stage: .action, url: "mailto:a@example.org", userGesture: true, isRedirect: true, trigger: .linkClicked), expected: .refuse),
        Row(request: R(stage: .action, url: "mailto:a@example.org", userGesture: true, trigger: .linkClicked), expected: .openExternally),
        Row(request: R(stage: .action, url: "MailTo:a@example.org", userGesture: true, trigger: .formSubmitted), expected: .openExternally),
        Row(request: R(stage: .action, url: "mailto:a@example.org", userGesture: true, trigger: .linkClicked), kiosk: true, expected: .refuse),
        Row(request: R(stage: .action, url: "file:///etc/passwd", userGesture: true, trigger: .linkClicked), expected: .refuse),
        Row(request: R(stage: .action, url: "tel:123", userGesture: true, trigger: .linkClicked), expected: .refuse),
        Row(request: R(stage: .action, url: "tilecast-ios://open?x", userGesture: true, trigger: .linkClicked), expected: .refuse),
        // Responses: a frame shows anything; the main frame stays on the server's origin.
        Row(request: R(stage: .response(mainFrame: false), url: "http://localhost:8080/frame.html"), expected: .load),
        Row(request: R(stage: .response(mainFrame: false), url: "https://example.org/embed"), expected: .load),
        Row(request: R(stage: .response(mainFrame: true), url: "http://127.0.0.1:8080/"), expected: .load),
        Row(request: R(stage: .response(mainFrame: true), url: "http://127.0.0.1:80/"), expected: .refuse),
        Row(request: R(stage: .response(mainFrame: true), url: "https://127.0.0.1:8080/"), expected: .refuse),
        Row(request: R(stage: .response(mainFrame: true), url: "http://localhost:8080/"), expected: .refuse),
        Row(request: R(stage: .response(mainFrame: true), url: "http://localhost:8080/"), activated: true, expected: .openExternally),
        Row(request: R(stage: .response(mainFrame: true), url: "https://example.org/"), activated: true, kiosk: true, expected: .refuse),
        Row(request: R(stage: .response(mainFrame: true), url: "blob:http://127.0.0.1:8080/1c2d"), expected: .load),
        // Downloads (a response the view cannot show): only the main frame's, and only a person's.
        Row(request: R(stage: .response(mainFrame: false, canShow: false), url: "http://127.0.0.1:8080/file.bin"), expected: .refuse),
        Row(request: R(stage: .response(mainFrame: false, canShow: false), url: "http://localhost:8080/file.bin"), activated: true, expected: .refuse),
        Row(request: R(stage: .response(mainFrame: true, canShow: false), url: "http://127.0.0.1:8080/file.bin"), expected: .refuse),
        Row(request: R(stage: .response(mainFrame: true, canShow: false), url: "http://127.0.0.1:8080/file.bin"), activated: true, expected: .load),
        // New windows: never ours; with a gesture a web or mail address goes out, without it nothing.
        Row(request: R(stage: .newWindow, url: "https://example.org/"), expected: .refuse),
        Row(request: R(stage: .newWindow, url: "http://127.0.0.1:8080/x"), expected: .refuse),
        Row(request: R(stage: .newWindow, url: "https://example.org/", userGesture: true, trigger: .linkClicked), expected: .openExternally),
        Row(request: R(stage: .newWindow, url: "http://127.0.0.1:8080/x", userGesture: true), expected: .openWindow),
        Row(request: R(stage: .newWindow, url: "http://127.0.0.1:8080/x", userGesture: true), kiosk: true, expected: .refuse),
        Row(request: R(stage: .newWindow, url: "mailto:a@example.org", userGesture: true), expected: .openExternally),
        Row(request: R(stage: .newWindow, url: "https://example.org/", userGesture: true, isRedirect: true), expected: .refuse),
        Row(request: R(stage: .newWindow, url: "about:blank", userGesture: true), expected: .refuse),
        Row(request: R(stage: .newWindow, url: "https://example.org/", userGesture: true), kiosk: true, expected: .refuse),
    ]

    @Test("the decision table", arguments: rows)
    func table(_ row: Row) {
        let verdict = NavigationPolicy.decide(row.request, context: row.kiosk ? Self.kiosk : Self.app, activated: row.activated)
        #expect(verdict.action == row.expected, "\(verdict.reason)")
        #expect(!verdict.reason.isEmpty)
    }

    @Test("the guard: a person's activation carries to its main-frame response; a frame's or a script's does not")
    func guardMemory() {
        var pageGuard = NavigationGuard(Self.app)
        // A script moves the main frame away without a gesture: let through, then refused at the response.
        #expect(pageGuard.decide(R(stage: .action, url: "http://localhost:8080/")).action == .load)
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "http://localhost:8080/")).action == .refuse)
        // A person clicks a link to another site: handed out at its response, once.
        #expect(pageGuard.decide(R(stage: .action, url: "https://example.org/", userGesture: true, trigger: .linkClicked)).action == .load)
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "https://example.org/")).action == .openExternally)
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "https://example.org/")).action == .refuse, "used up")
        // A click in a frame is used up by the frame's response, not left for the main frame.
        _ = pageGuard.decide(R(stage: .action, url: "https://example.org/f", userGesture: true, trigger: .linkClicked))
        #expect(pageGuard.decide(R(stage: .response(mainFrame: false), url: "https://example.org/f")).action == .load)
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "https://example.org/f")).action == .refuse)
        // A redirect continues a person's navigation; without one pending it is nobody's.
        _ = pageGuard.decide(R(stage: .action, url: "http://127.0.0.1:8080/go", userGesture: true, trigger: .linkClicked))
        _ = pageGuard.decide(R(stage: .action, url: "https://example.org/landing", isRedirect: true))
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "https://example.org/landing")).action == .openExternally)
        _ = pageGuard.decide(R(stage: .action, url: "https://example.org/again", isRedirect: true))
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "https://example.org/again")).action == .refuse)
        // What the app itself loads shows in the main frame, whatever its origin, once.
        pageGuard.hostLoads("http://localhost:8080/off-origin.html")
        #expect(pageGuard.decide(R(stage: .action, url: "http://localhost:8080/off-origin.html")).action == .load)
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "http://localhost:8080/off-origin.html")).action == .load)
        #expect(pageGuard.decide(R(stage: .response(mainFrame: true), url: "http://localhost:8080/off-origin.html")).action == .refuse)
        // Bounded memory.
        for i in 0..<20 { _ = pageGuard.decide(R(stage: .action, url: "https://example.org/\(i)", userGesture: true)) }
        #expect(pageGuard.activated.count == NavigationGuard.rememberedActivations)
    }

    @Test("issue 29 item 5: one new window per activation; a person's next input, or the gesture's lifetime, allows another")
    func onePopUpPerActivation() {
        var pageGuard = NavigationGuard(Self.app)
        let sameOrigin = R(stage: .newWindow, url: "http://127.0.0.1:8080/x", userGesture: true)
        let elsewhere = R(stage: .newWindow, url: "https://example.org/", userGesture: true, trigger: .linkClicked)
        // One click handler calling window.open twenty times: the first opens, the rest are refused.
        let verdicts = (0..<20).map { i in pageGuard.decide(i % 2 == 0 ? sameOrigin : elsewhere, now: 100 + Double(i) * 0.001) }
        #expect(verdicts.first?.action == .openWindow)
        #expect(verdicts.dropFirst().allSatisfy { $0.action == .refuse })
        #expect(verdicts.last?.reason.contains("one new window per activation") == true)
        // A refused pop-up (no gesture) spends nothing and is refused for its own reason.
        #expect(pageGuard.decide(R(stage: .newWindow, url: "https://example.org/"), now: 100.5).reason == "a pop-up without a person's gesture")
        // A person acts again: one more.
        pageGuard.personActed()
        #expect(pageGuard.decide(elsewhere, now: 100.6).action == .openExternally)
        #expect(pageGuard.decide(elsewhere, now: 100.7).action == .refuse)
        // Past the gesture's lifetime a spent activation cannot be what asks: WebKit's own
        // gesture flag decides again.
        #expect(pageGuard.decide(sameOrigin, now: 100.6 + NavigationGuard.activationLifetime).action == .openWindow)
    }

    @Test("the record keeps what was handed out and refused, bounded, addresses shortened")
    func record() {
        var record = ExternalRecord()
        record.note("http://127.0.0.1:8080/", .init(.load, "x"))
        record.note("mailto:a@example.org", .init(.openExternally, "a person activated a mail link"))
        for i in 0..<30 { record.note("https://example.org/\(i)", .init(.refuse, "no")) }
        record.note("https://example.org/" + String(repeating: "a", count: 1000), .init(.refuse, "long"))
        #expect(record.opened.map(\.url) == ["mailto:a@example.org"])
        #expect(record.refused.count == ExternalRecord.kept)
        #expect(record.refused.last?.url.hasSuffix("…[shortened from 1020 scalars]") == true)
        #expect(record.json.objectValue?["opened"]?.arrayValue?.count == 1)
    }
}
