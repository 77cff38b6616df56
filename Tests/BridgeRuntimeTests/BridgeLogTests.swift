import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Bridge event log")
struct BridgeLogTests {
    @Test("credential markers and credential-named keys never reach the log, at any depth")
    func redaction() throws {
        let value: JSONValue = ["text": "hello tca_123", "nested": [["refresh_token": "anything", "ok": "fine"]], "Password": "x"]
        let redacted = BridgeLog.redact(value)
        #expect(redacted == ["text": "[redacted]", "nested": [["refresh_token": "[redacted]", "ok": "fine"]], "Password": "[redacted]"])
    }

    @Test("an inbound line keeps the message and the reply, redacted; text that is not JSON is kept short or redacted")
    func inboundLines() throws {
        let text = envelope("system/share", ["text": "tcr_secret"], id: "s1")
        let line = BridgeLog.inbound(at: 1, context: .main, text: text, reply: .failure(id: "s1", code: .malformed), latencyMicroseconds: 12.34)
        #expect(!line.contains("tcr_secret"))
        let object = try #require(try JSONParser.parse(line).objectValue)
        #expect(object["dir"] == "studio-to-host")
        #expect(object["latencyUs"] == .number(12.3))
        #expect(object["reply"]?.objectValue?["error"]?.objectValue?["code"] == "malformed")
        let raw = BridgeLog.inbound(at: 1, context: .main, text: "{not json tc_device_9", reply: .failure(id: nil, code: .malformed), latencyMicroseconds: 1)
        #expect(!raw.contains("tc_device_9") && raw.contains("[redacted]"))
    }
}
