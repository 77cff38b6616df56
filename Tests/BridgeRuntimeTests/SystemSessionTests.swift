import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Page session: haptics and share")
struct SystemSessionTests {
    static let origin = Origin(url: "https://studio.example.org")!

    static func session(_ available: Set<HostCapability> = [.systemShare, .systemHaptics]) -> PageSession {
        var session = PageSession(context: .main, profile: .desktop, available: available, serverOrigin: origin)
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready"))
        return session
    }

    @Test("known feedback is made visible; an unknown well-formed kind is ok and does nothing")
    func haptics() {
        var session = Self.session()
        #expect(PageSessionTests.post(&session, envelope("system/haptic", ["feedback": "success"], id: "h1"))
            == [.reply(.ok("h1")), .haptic(.success)])
        #expect(PageSessionTests.post(&session, envelope("system/haptic", ["feedback": "thud"], id: "h2")) == [.reply(.ok("h2"))])
        var none = Self.session([])
        #expect(PageSessionTests.post(&none, envelope("system/haptic", ["feedback": "success"], id: "h3"))
            == [.reply(.failure(id: "h3", code: .unavailable))])
    }

    @Test("share: one panel at a time; the server's own /api and /__native links are unavailable")
    func share() {
        var session = Self.session()
        let first = PageSessionTests.post(&session, envelope("system/share", ["url": "https://example.org/a", "title": "A"], id: "s1"))
        #expect(first.first == .reply(.ok("s1")))
        #expect(first.contains(.showShare(ShareRequest(title: "A", url: "https://example.org/a"))))
        #expect(PageSessionTests.post(&session, envelope("system/share", ["text": "hi"], id: "s2")) == [.reply(.failure(id: "s2", code: .unavailable))])
        _ = session.reduce(.shareClosed)
        for url in ["https://studio.example.org/api/v1/x", "https://STUDIO.example.org/%5F_native/modal"] {
            #expect(PageSessionTests.post(&session, envelope("system/share", ["url": .string(url)], id: "s3"))
                == [.reply(.failure(id: "s3", code: .unavailable))], "\(url)")
        }
        #expect(PageSessionTests.post(&session, envelope("system/share", ["url": "https://studio.example.org/screens"], id: "s4")).first
            == .reply(.ok("s4")))
        let malformed = PageSessionTests.post(&session, envelope("system/share", ["url": "https://example.org/?token=x"], id: "s5"))
        guard case .reply(.failure(_, let code)) = malformed.first else { Issue.record("\(malformed)"); return }
        #expect(code == .malformed)
    }
}

@Suite("Page session: QR scanning")
struct QRSessionTests {
    static func session() -> PageSession {
        var session = PageSession(context: .main, profile: .desktop, available: [.systemQrScanner])
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready"))
        return session
    }

    @Test("one scan at a time; its result is sent once; a late result for a settled scan is dropped")
    func oneScan() {
        var session = Self.session()
        #expect(PageSessionTests.post(&session, envelope("system/scan-qr", ["requestId": "q1"], id: "m1"))
            == [.reply(.ok("m1")), .startQRScan(requestId: "q1")])
        #expect(PageSessionTests.post(&session, envelope("system/scan-qr", ["requestId": "q2"], id: "m2"))
            == [.reply(.failure(id: "m2", code: .unavailable))])
        #expect(session.reduce(.qrScanFinished(requestId: "q1", value: "hello"))
            == [.send(.qrScanResult(requestId: "q1", outcome: .scanned, value: "hello"))])
        #expect(session.reduce(.qrScanFinished(requestId: "q1", value: "again")).isEmpty, "late")
        PageSessionTests.post(&session, envelope("system/scan-qr", ["requestId": "q3"]))
        #expect(session.reduce(.qrScanFinished(requestId: "q3", value: nil)) == [.send(.qrScanResult(requestId: "q3", outcome: .cancelled, value: nil))])
    }

    @Test("a new document withdraws the scan; its result then goes nowhere")
    func withdrawn() {
        var session = Self.session()
        PageSessionTests.post(&session, envelope("system/scan-qr", ["requestId": "q1"]))
        #expect(session.reduce(.documentCommitted).contains(.withdrawQRScan(requestId: "q1")))
        #expect(session.reduce(.qrScanFinished(requestId: "q1", value: "late")).isEmpty)
    }
}
