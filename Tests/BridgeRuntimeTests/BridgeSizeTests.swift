import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// Issue 15 item 2: the bridge's message size limit and the bridge log's bounds.
@Suite("Bridge message size and log limits")
struct BridgeSizeTests {
    /// A config/get whose ignored payload member makes the text exactly `bytes` long.
    func message(bytes: Int, filler: String = "x") -> String {
        let head = #"{"version":1,"type":"config/get","payload":{"pad":""#, tail = #""}}"#
        let room = bytes - head.utf8.count - tail.utf8.count
        return head + String(repeating: filler, count: room / filler.utf8.count) + tail
    }

    @Test("a message of exactly the limit is decoded; one byte more is malformed without an id, before decoding")
    @MainActor func limit() {
        let driver = PageDriver(PageSession(context: .main, profile: .desktop, available: []))
        let atLimit = message(bytes: BridgeMessageSize.maxBytes)
        #expect(atLimit.utf8.count == BridgeMessageSize.maxBytes)
        #expect(driver.receive(atLimit).json.objectValue?["ok"] == true)
        let over = message(bytes: BridgeMessageSize.maxBytes + 1)
        #expect(over.utf8.count == BridgeMessageSize.maxBytes + 1)
        #expect(driver.receive(over) == .failure(id: nil, code: .malformed))
        // Counted in UTF-8 bytes: 3-byte scalars reach it with a third as many characters.
        let wide = message(bytes: BridgeMessageSize.maxBytes + 3, filler: "€")
        #expect(wide.utf8.count > BridgeMessageSize.maxBytes && wide.unicodeScalars.count < BridgeMessageSize.maxBytes)
        #expect(driver.receive(wide) == .failure(id: nil, code: .malformed))
        // An id in an over-limit message is not read: the reply has none.
        let withId = #"{"version":1,"id":"x1","type":"config/get","payload":{"pad":""# + repeated("y", BridgeMessageSize.maxBytes) + #""}}"#
        #expect(driver.receive(withId) == .failure(id: nil, code: .malformed))
        #expect(BridgeMessageSize.maxBytes == 1 << 20)
    }

    @Test("long strings keep a prefix and their length; long arrays and objects say how much was left out")
    func shortening() throws {
        let long = repeated("a", 5000)
        let shortened = BridgeLog.shortened(long, keeping: BridgeLog.loggedStringScalars)
        #expect(shortened == repeated("a", 256) + "…[shortened from 5000 scalars]")
        #expect(BridgeLog.shortened("short", keeping: 256) == "short")
        // Scalars, not characters: 300 flags of two scalars each are 600 scalars.
        let flags = repeated("🇫🇷", 300)
        #expect(BridgeLog.shortened(flags, keeping: 256).hasSuffix("from 600 scalars]"))
        let array = JSONValue.array((0..<100).map { .number(Double($0)) })
        let cut = try #require(BridgeLog.shorten(array).arrayValue)
        #expect(cut.count == 65 && cut[63] == .number(63) && cut[64] == .string("…[shortened: 36 more items]"))
        var object = JSONObject()
        for i in 0..<70 { object["k\(i)"] = .string(long) }
        let members = try #require(BridgeLog.shorten(.object(object)).objectValue)
        #expect(members.count == 65)
        #expect(members["k0"]?.stringValue?.utf8.count ?? 0 < 300)
        #expect(members["…[shortened]"] == .string("6 more members"))
    }

    @Test("a huge message's record stays small, keeps the type and the original length, and still redacts")
    func records() throws {
        let text = envelope("system/share", ["text": .string(repeated("t", 500_000)), "url": "https://example.org/tca_secret"], id: "s1")
        let line = BridgeLog.inbound(at: 1, context: .main, text: text, reply: .success(id: "s1", payload: [:]), latencyMicroseconds: 1)
        #expect(line.utf8.count < 2000)
        #expect(!line.contains("tca_secret"))
        let record = try #require(try JSONParser.parse(line).objectValue)
        let logged = try #require(record["message"]?.objectValue)
        #expect(logged["type"] == "system/share")
        #expect(logged["payload"]?.objectValue?["text"]?.stringValue?.hasSuffix("…[shortened from 500000 scalars]") == true)
        // Over the size limit: never parsed, kept as a prefix of the text with its length.
        let over = message(bytes: BridgeMessageSize.maxBytes + 10)
        let overLine = BridgeLog.inbound(at: 1, context: .main, text: over, reply: .failure(id: nil, code: .malformed), latencyMicroseconds: 1)
        #expect(overLine.utf8.count < 4000)
        #expect(overLine.contains("…[shortened from \(BridgeMessageSize.maxBytes + 10) scalars]"))
        // Many small values that add up: 64 arrays of 64 strings of 200 scalars is 800 KiB of
        // JSON even after shortening, so the record keeps the text's prefix instead.
        let wide = JSONValue.array((0..<64).map { _ in .array((0..<64).map { _ in .string(repeated("w", 200)) }) })
        let wideText = envelope("navigation/catalog", ["groups": wide])
        let wideLine = BridgeLog.inbound(at: 1, context: .main, text: wideText, reply: .failure(id: nil, code: .malformed), latencyMicroseconds: 1)
        #expect(wideLine.utf8.count <= BridgeLog.loggedMessageBytes)
        #expect(wideLine.contains("shortened from \(wideText.unicodeScalars.count) scalars"))
        // An outbound record is shortened as well.
        let out = BridgeLog.loggedMessage(["payload": ["path": .string(repeated("p", 3000))]])
        #expect(JSONWriter.string(out).utf8.count < 400)
    }

    @Test("replay treats a shortened record as one whose answer may differ")
    func replayMarksShortened() throws {
        let text = envelope("system/share", ["text": .string(repeated("t", 1000))], id: "s1")
        let line = BridgeLog.inbound(at: 1, context: .main, text: text, reply: .success(id: "s1", payload: [:]), latencyMicroseconds: 1)
        let records = try ReplayRecord.parse(line).get()
        #expect(records.count == 1 && records[0].redacted)
    }

    @Test("the log rotates before a line would pass the limit; FILE.1 … FILE.3 are kept, the oldest dropped")
    func rotation() {
        var rotation = LogRotation(existingBytes: 0, limit: 100)
        do { let rotated = rotation.write(60); #expect(!rotated) }
        do { let rotated = rotation.write(40); #expect(!rotated, "exactly the limit fits") }
        do { let rotated = rotation.write(1); #expect(rotated, "one byte past it rotates first") }
        #expect(rotation.size == 1)
        do { let rotated = rotation.write(99); #expect(!rotated) }
        do { let rotated = rotation.write(500); #expect(rotated, "a line longer than the limit rotates and fills a file alone") }
        #expect(rotation.size == 500)
        do { let rotated = rotation.write(1); #expect(rotated) }
        var empty = LogRotation(existingBytes: 0, limit: 10)
        do { let rotated = empty.write(50); #expect(!rotated, "an empty file takes any line") }
        var resumed = LogRotation(existingBytes: 95, limit: 100)
        do { let rotated = resumed.write(10); #expect(rotated, "an existing file's size counts") }
        let renames = LogRotation.renames(of: "logs/b.log")
        #expect(renames.map(\.from) == ["logs/b.log.2", "logs/b.log.1", "logs/b.log"])
        #expect(renames.map(\.to) == ["logs/b.log.3", "logs/b.log.2", "logs/b.log.1"])
        #expect(LogRotation.maxFileBytes == 8 << 20 && LogRotation.rotatedFiles == 3)
        #expect(LogRotation.renames(of: "f", keeping: 1).map(\.to) == ["f.1"])
    }
}
