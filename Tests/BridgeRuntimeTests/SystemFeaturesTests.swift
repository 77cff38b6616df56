import HostCore
import StudioContract
import Testing

@Suite("System features, alone: haptics, share, QR scan")
struct SystemFeaturesTests {
    static let everything = HostCapabilities([.systemHaptics, .systemShare, .systemQrScanner])

    static func scan(_ requestId: String) -> QRScanRequest {
        guard case .scanQR(let request)? = decoded(envelope("system/scan-qr", ["requestId": .string(requestId)])) else {
            preconditionFailure("the test scan does not decode")
        }
        return request
    }

    @Test("haptics: made visible when offered; an unknown kind is ok and does nothing")
    func haptics() {
        var system = SystemFeatures(offered: Self.everything, serverOrigin: nil)
        #expect(system.reduce(.haptic(.success, id: "h")) == [.reply(.ok("h")), .haptic(.success)])
        #expect(system.reduce(.haptic(nil, id: "h")) == [.reply(.ok("h"))])
        var none = SystemFeatures(offered: HostCapabilities([]), serverOrigin: nil)
        #expect(none.reduce(.haptic(.success, id: "h")) == [.reply(.failure(id: "h", code: .unavailable))])
    }

    @Test("share: one panel at a time, only where seen, never the server's own /api links")
    func share() {
        var system = SystemFeatures(offered: Self.everything, serverOrigin: Origin(url: "https://studio.example.org"))
        let unavailable: [PageEffect] = [.reply(.failure(id: "s", code: .unavailable))]
        let request = ShareRequest(title: "A", url: "https://example.org/a")
        #expect(system.reduce(.share(request, id: "s", seen: false)) == unavailable)
        #expect(system.reduce(.share(ShareRequest(url: "https://studio.example.org/api/v1/x"), id: "s", seen: true)) == unavailable)
        #expect(system.reduce(.share(request, id: "s", seen: true)) == [.reply(.ok("s")), .showShare(request)])
        #expect(system.reduce(.share(request, id: "s", seen: true)) == unavailable, "a panel is open")
        _ = system.reduce(.shareClosed)
        #expect(!system.shareOpen && system.reduce(.share(request, id: "s", seen: true)).first == .reply(.ok("s")))
    }

    @Test("share: what the phone lets through is shared all the same, and warned after the panel is shown")
    func shareWarned() {
        var system = SystemFeatures(offered: Self.everything, serverOrigin: Origin(url: "https://studio.example.org"))
        let leaking = ShareRequest(url: "https://studio.example.org/x/../api/v1/items")
        let effects = system.reduce(.share(leaking, id: "s", seen: true))
        #expect(effects.prefix(2) == [.reply(.ok("s")), .showShare(leaking)])
        guard case .shareWarned(let warnings)? = effects.dropFirst(2).first else { Issue.record("no warning: \(effects)"); return }
        #expect(warnings.map(\.rule) == [.ownAPIPath] && effects.count == 3)
        _ = system.reduce(.shareClosed)
        let clean = ShareRequest(url: "https://example.org/a")
        #expect(system.reduce(.share(clean, id: "s", seen: true)) == [.reply(.ok("s")), .showShare(clean)], "nothing to warn")
        #expect(system.reduce(.share(leaking, id: "s", seen: true)) == [.reply(.failure(id: "s", code: .unavailable))],
                "a share that is not shown (a panel is open) is not warned")
    }

    @Test("QR: one scan at a time, only where seen; its result goes once, to a ready Studio; a withdrawn scan reports nothing")
    func qr() {
        var system = SystemFeatures(offered: Self.everything, serverOrigin: nil)
        #expect(system.reduce(.scanQR(Self.scan("q1"), id: "m", seen: false)) == [.reply(.failure(id: "m", code: .unavailable))])
        #expect(system.reduce(.scanQR(Self.scan("q1"), id: "m", seen: true)) == [.reply(.ok("m")), .startQRScan(requestId: "q1")])
        #expect(system.reduce(.scanQR(Self.scan("q2"), id: "m", seen: true)) == [.reply(.failure(id: "m", code: .unavailable))])
        #expect(system.reduce(.scanFinished(requestId: "q2", value: "x", studioReady: true)).isEmpty, "not the scan running")
        #expect(system.reduce(.scanFinished(requestId: "q1", value: "hello", studioReady: true))
            == [.send(.qrScanResult(requestId: "q1", outcome: .scanned, value: "hello"))])
        _ = system.reduce(.scanQR(Self.scan("q3"), id: nil, seen: true))
        #expect(system.reduce(.scanFinished(requestId: "q3", value: "x", studioReady: false)).isEmpty && system.qrScanRequestId == nil)
        _ = system.reduce(.scanQR(Self.scan("q4"), id: nil, seen: true))
        #expect(system.reduce(.withdrawScan) == [.withdrawQRScan(requestId: "q4")])
        #expect(system.reduce(.withdrawScan).isEmpty)
        #expect(system.reduce(.scanFinished(requestId: "q4", value: "late", studioReady: true)).isEmpty)
    }
}
