import Foundation
import Testing

/// QR scanning from a picture with the real zbar decoder, in the running app.
@Suite("QR scanning (real WebKit, real decoder)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct QRTests {
    static let fixtures = HostShellBinary.root.appendingPathComponent("fixtures/qr")

    @Test("a picture of a code is decoded and sent; a picture without one keeps the scan open; cancel reports cancelled")
    func scanFromPicture() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true")
        let listen = #"window.__results = []; window.tilecastNativeReceiver = (m) => { window.__results.push(m.payload); return true; }; true"#
        #expect(try app.ctl("eval", listen).status == 0)
        let ask = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "system/scan-qr", payload: {requestId: "pair-1"}}); true"#
        #expect(try app.ctl("eval", ask).status == 0)
        _ = try app.state("qrScan=true")

        let blank = try app.ctl("scan", "--image", Self.fixtures.appendingPathComponent("blank.png").path)
        #expect(blank.status == 1 && blank.error.contains("no QR code was found"))
        _ = try app.state("qrScan=true")
        #expect(try app.ctl("scan", "--image", Self.fixtures.appendingPathComponent("pairing.png").path).status == 0)
        _ = try app.state("qrScan=false")
        let results = try #require(try app.evalWhen("window.__results.length >= 1 && window.__results") as? [[String: Any]])
        #expect(results.first?["requestId"] as? String == "pair-1")
        #expect(results.first?["outcome"] as? String == "scanned")
        #expect(results.first?["value"] as? String == "tc-pairing:lobby-north:7F3K-29QX")

        #expect(try app.ctl("eval", ask.replacingOccurrences(of: "pair-1", with: "pair-2")).status == 0)
        _ = try app.state("qrScan=true")
        #expect(try app.ctl("scan", "--cancel").status == 0)
        let after = try #require(try app.evalWhen("window.__results.length >= 2 && window.__results") as? [[String: Any]])
        #expect(after.count == 2)
        #expect(after.last?["requestId"] as? String == "pair-2" && after.last?["outcome"] as? String == "cancelled")
    }
}
