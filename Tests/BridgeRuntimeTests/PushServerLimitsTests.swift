import HomeSec
import HostCore
import Push
import Testing

/// The push servers' bounds on a hostile client, decided without a network (docs/push-servers.md).
/// The live suite (PushServerHostileTests) runs the same attacks on the real processes.
@Suite("Push servers' limits: HTTP/1.1 reading, telling connections apart, header lists, bodies")
struct PushServerLimitsTests {
    static func steps(_ text: String, _ reader: inout HTTP1RequestReader) -> [HTTP1RequestReader.Step] {
        reader.append(Array(text.utf8))
        var steps: [HTTP1RequestReader.Step] = []
        while true {
            let step = reader.next()
            if case .needMore = step { return steps }
            steps.append(step)
            if case .malformed = step { return steps }
            if case .bodyTooLarge = step { return steps }
        }
    }

    static func describe(_ step: HTTP1RequestReader.Step) -> String {
        switch step {
        case .needMore: return "more"
        case .request(let head, let body): return "\(head.method) \(head.target) \(body.count) \(head.keepAlive ? "keep" : "close")"
        case .bodyTooLarge(let head, let start): return "too large \(head.target) \(start.count)"
        case .malformed(let status): return "malformed \(status)"
        }
    }

    static func read(_ text: String, bodyBytes: Int = 100, headBytes: Int = 512) -> [String] {
        var reader = HTTP1RequestReader(headBytes: headBytes, bodyBytes: bodyBytes)
        return steps(text, &reader).map(describe)
    }

    @Test("HTTP/1.1: requests with bodies, one after another on one connection, byte by byte too")
    func http1Requests() {
        let two = "POST /3/device/a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\n\r\n"
        #expect(Self.read(two) == ["POST /3/device/a 5 keep", "GET /b 0 keep"])
        var reader = HTTP1RequestReader(headBytes: 512, bodyBytes: 100)
        var seen: [String] = []
        for byte in two.utf8 { seen += Self.steps(String(decoding: [byte], as: UTF8.self), &reader).map(Self.describe) }
        #expect(seen == ["POST /3/device/a 5 keep", "GET /b 0 keep"])
        #expect(Self.read("GET / HTTP/1.0\r\n\r\n") == ["GET / 0 close"])
        #expect(Self.read("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n") == ["GET / 0 keep"])
        #expect(Self.read("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") == ["GET / 0 close"])
        #expect(Self.read("\r\nGET / HTTP/1.1\r\n\r\n") == ["GET / 0 keep"], "an empty line before the request line is skipped")
        let chunked = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n3\r\nabc\r\n0\r\nTrailer: t\r\n\r\n"
        #expect(Self.read(chunked) == ["POST /c 8 keep"])
        var headers = HTTP1RequestReader(headBytes: 512, bodyBytes: 100)
        if case .request(let head, let body) = Self.steps("POST / HTTP/1.1\r\nApns-Topic:  com.example.app \r\nContent-Length: 2\r\n\r\n{}", &headers).first {
            #expect(head.headers.first?.name == "apns-topic" && head.headers.first?.value == "com.example.app" && body == Array("{}".utf8))
        } else {
            Issue.record("no request")
        }
    }

    @Test("HTTP/1.1: a body past the limit is refused from content-length before any of it is read, or as chunks add up")
    func http1BodyLimit() {
        #expect(Self.read("POST /a HTTP/1.1\r\nContent-Length: 200000000\r\n\r\n") == ["too large /a 0"])
        #expect(Self.read("POST /a HTTP/1.1\r\nContent-Length: 101\r\n\r\n" + String(repeating: "x", count: 40)) == ["too large /a 40"])
        #expect(Self.read("POST /a HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + String(repeating: "x", count: 100)) == ["POST /a 100 keep"])
        #expect(Self.read("POST /a HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n") == ["too large /a 0"])
        let chunks = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + String(repeating: "x", count: 64) + "\r\n40\r\n"
        #expect(Self.read(chunks) == ["too large /c 64"], "the second chunk's size says enough")
        #expect(Self.read("POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n") == ["malformed 400"])
        // Once refused, nothing more is read from it.
        var reader = HTTP1RequestReader(headBytes: 512, bodyBytes: 10)
        _ = Self.steps("POST /a HTTP/1.1\r\nContent-Length: 11\r\n\r\n", &reader)
        reader.append(Array(repeating: 0x78, count: 1000))
        if case .needMore = reader.next() {} else { Issue.record("a refused connection takes no more steps") }
        #expect(APNsLimits.requestBodyCap == APNsLimits.voipPayloadBytes + 1, "the first byte past every payload limit")
    }

    @Test("HTTP/1.1: heads too long, malformed, other versions, smuggling shapes and expectations")
    func http1Malformed() {
        #expect(Self.read("GET /" + String(repeating: "a", count: 600) + " HTTP/1.1\r\n\r\n") == ["malformed 431"])
        #expect(Self.read("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 600)) == ["malformed 431"], "no end in sight is enough")
        #expect(Self.read("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100)) == [], "a head under the limit waits")
        #expect(Self.read("GET / HTTP/2.0\r\n\r\n") == ["malformed 505"])
        #expect(Self.read("GET /\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("GET  / HTTP/1.1\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("GET / HTTP/1.1\r\n folded: x\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == ["malformed 501"])
        #expect(Self.read("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n") == ["malformed 400"])
        #expect(Self.read("POST / HTTP/1.1\r\nExpect: something\r\n\r\n") == ["malformed 417"])
        var reader = HTTP1RequestReader(headBytes: 512, bodyBytes: 100)
        #expect(Self.steps("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", &reader).isEmpty)
        let once = reader.takeContinue(), twice = reader.takeContinue()
        #expect(once && !twice, "100 Continue once, for a body that fits")
        var large = HTTP1RequestReader(headBytes: 512, bodyBytes: 100)
        #expect(Self.steps("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 500\r\n\r\n", &large).map(Self.describe) == ["too large / 0"])
        let asked = large.takeContinue()
        #expect(!asked, "a body refused is not asked for")
    }

    @Test("telling a connection apart: TLS by its first byte, HTTP/1.1 by the first byte off the preface, h2c by all of it")
    func kinds() {
        let preface = APNsWire.preface
        #expect(APNsWire.kind(of: []) == .needMore)
        #expect(APNsWire.kind(of: [0x16]) == .tls)
        #expect(APNsWire.kind(of: Array("P".utf8)[...]) == .needMore, "a lone P: read, and waited on without being woken again")
        #expect(APNsWire.kind(of: Array("PO".utf8)[...]) == .http1)
        #expect(APNsWire.kind(of: Array("G".utf8)[...]) == .http1)
        #expect(APNsWire.kind(of: preface[0..<16]) == .needMore)
        #expect(APNsWire.kind(of: preface[...]) == .h2c)
        #expect(APNsWire.kind(of: (Array(preface.dropLast()) + [0])[...]) == .http1)
    }

    @Test("HTTP/1.1 answers: status line, headers, length, close")
    func http1Answers() {
        let bytes = APNsWire.http1Response(status: 413, headers: [("apns-id", "x"), ("content-type", "application/json")],
                                           body: Array(#"{"reason":"PayloadTooLarge"}"#.utf8), close: true)
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 413 Payload Too Large\r\napns-id: x\r\ncontent-type: application/json\r\n"
                + "content-length: 28\r\nconnection: close\r\n\r\n{\"reason\":\"PayloadTooLarge\"}")
        #expect(String(decoding: APNsWire.http1Continue, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        let head = APNsWire.http1Response(status: 405, headers: [], body: Array("{}".utf8), close: false, toHead: true)
        #expect(String(decoding: head, as: UTF8.self) == "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 2\r\n\r\n", "HEAD: the length, no body")
        for status in [200, 400, 403, 404, 405, 410, 413, 429, 431, 500, 501, 503, 505] { #expect(APNsWire.reasonPhrase(status) != "Status") }
    }

    @Test("header lists are counted as HTTP/2 counts them and stop at the limit")
    func headerLists() {
        var budget = HeaderListBudget(limit: 100)
        let first = budget.take(nameBytes: 10, valueBytes: 20)
        #expect(first && budget.used == 62)
        let second = budget.take(nameBytes: 0, valueBytes: 6)
        #expect(second && budget.used == 100)
        let third = budget.take(nameBytes: 0, valueBytes: 0), fourth = budget.take(nameBytes: 0, valueBytes: 0)
        #expect(!third && !fourth, "once over, over")
        // The HPACK attack: one 4000-byte entry named again and again, a byte each time.
        var table = HeaderListBudget()
        var taken = 0
        while table.take(nameBytes: 6, valueBytes: 4000) { taken += 1 }
        #expect(taken == 2, "two references of a 4 KB entry fit in 8 KiB; the third resets the stream")
    }

    @Test("a body past the cap is PayloadTooLarge — after what Apple checks first — and never an empty one")
    func bodyOverLimit() {
        var standIn = APNsStandInTests.standIn()
        var over = APNsStandInTests.request(body: "")
        over.bodyOverLimit = true
        let decision = APNsStandInTests.decide(over, &standIn)
        #expect(decision.status == 413 && decision.reason == .payloadTooLarge && decision.accepted == nil)
        var voip = APNsStandInTests.request(topic: APNsStandInTests.bundle + ".voip", extra: [("apns-push-type", "voip")], body: "{}")
        voip.bodyOverLimit = true
        #expect(APNsStandInTests.reason(voip) == .payloadTooLarge, "VoIP's larger limit too")
        var unsigned = APNsStandInTests.request(auth: nil, body: "{}")
        unsigned.bodyOverLimit = true
        #expect(APNsStandInTests.reason(unsigned) == .missingProviderToken, "Apple's order stands: the provider token first")
    }

    @Test("documented limits hold together")
    func limits() {
        #expect(APNsLimits.concurrentStreams >= 100, "RFC 9113 §6.5.2: no fewer than 100")
        #expect(APNsLimits.headerListBytes >= 4096 && APNsLimits.headerListBytes <= 65536)
        #expect(APNsLimits.connectionsPerListener * 2 < 1024, "both listeners' connections fit the usual 1024 descriptors")
        #expect(APNsLimits.unsentBytes >= 64 * 1024 && APNsLimits.lingerBytes >= APNsLimits.requestBodyCap)
        #expect(HermesGateway.requestBodyBytes >= 4096 && HermesPluginServer.requestBodyBytes >= 4096)
        #expect(HomeSecServer.requestBodyBytes >= 64 * 1024)
        #expect(PhoneDeliveryLimits.ackTimeoutMs == 5000 && PhoneDeliveryLimits.ackLineBytes >= 1024)
    }
}
