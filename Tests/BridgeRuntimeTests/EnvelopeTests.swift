import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Envelope check order and replies")
struct EnvelopeTests {
    func failure(_ text: String, context: HostContext? = nil) -> BridgeFailure? {
        if case .failure(let f) = StudioMessageDecoder.decode(text, context: context) { return f }
        return nil
    }

    @Test("version is read first: any integer other than 1 is unsupported, whatever else is wrong")
    func versionFirst() {
        #expect(failure(#"{"version": 2, "kind": "hello"}"#)?.code == .unsupportedVersion)
        #expect(failure(#"{"version": 7, "id": "x", "type": "Bad Type", "payload": 3}"#)?.code == .unsupportedVersion)
        #expect(failure(#"{"version": 2, "id": "x", "type": "config/get", "payload": {}}"#)?.id == nil, "no id on unsupported_version")
        #expect(failure(#"{"version": 2.0, "type": "config/get", "payload": {}}"#)?.code == .unsupportedVersion)
        #expect(failure(#"{"version": 1.0, "type": "config/get", "payload": {}}"#) == nil, "1.0 is the integer 1")
        for version in ["true", "\"1\"", "1.5", "0", "-1", "null", "1e15", "[1]"] {
            #expect(failure(#"{"version": \#(version), "type": "config/get", "payload": {}}"#)?.code == .malformed, "\(version)")
        }
    }

    @Test("envelope rules: keys, id, type pattern and length, payload object")
    func envelopeRules() {
        #expect(failure(#"{"version":1,"type":"config/get","payload":{},"callback":"x"}"#)?.code == .malformed)
        #expect(failure(#"{"version":1,"id":7,"type":"config/get","payload":{}}"#)?.code == .malformed)
        #expect(failure(#"{"version":1,"id":null,"type":"config/get","payload":{}}"#)?.code == .malformed)
        #expect(failure(#"{"version":1,"id":"","type":"config/get","payload":{}}"#)?.code == .malformed)
        #expect(failure(envelope("config/get", id: repeated("i", 64))) == nil)
        #expect(failure(envelope("config/get", id: repeated("i", 65)))?.code == .malformed)
        #expect(failure(envelope("config/get", id: "Any string, even spaces: é")) == nil, "request ids have no pattern")
        for type in ["", "a/", "/a", "a", "ab", "A/b", "a//b", "a/b/", "1a/b", "a/-b", "a b/c", "a/b\u{0}"] {
            #expect(failure(envelope(type))?.code == .malformed, "\(type)")
        }
        #expect(failure(envelope("x/" + repeated("a", 62)))?.code == .unknownType, "64 characters is a valid type")
        #expect(failure(envelope("x/" + repeated("a", 63)))?.code == .malformed, "65 characters is not")
        #expect(failure(#"{"version":1,"type":"config/get"}"#)?.code == .malformed)
        #expect(failure(#"{"version":1,"type":"config/get","payload":null}"#)?.code == .malformed)
        #expect(failure(#"{"version":1,"type":"config/get","payload":[]}"#)?.code == .malformed)
        #expect(failure("not json")?.code == .malformed)
        #expect(failure("[]")?.code == .malformed)
    }

    @Test("ids are echoed when they were valid: unknown type, context, payload; never for unsupported version")
    func idEcho() {
        #expect(failure(envelope("clipboard/write", id: "c1")) == BridgeFailure(.unknownType, id: "c1", type: "clipboard/write", reason: failure(envelope("clipboard/write", id: "c1"))!.reason))
        #expect(failure(envelope("navigation/catalog", ["groups": []], id: "c2"), context: .presentation)?.id == "c2")
        #expect(failure(envelope("navigation/catalog", ["groups": []], id: "c2"), context: .presentation)?.code == .forbidden)
        #expect(failure(envelope("navigation/state", [:], id: "c3"))?.id == "c3")
        #expect(failure(#"{"version":1,"id":"c4","type":"config/get","payload":{},"x":1}"#)?.id == "c4")
        #expect(failure(#"{"version":1,"id":4,"type":"config/get","payload":{}}"#)?.id == nil)
    }

    @Test("the sending page's context: main-only and presentation-only messages")
    func contexts() {
        #expect(failure(envelope("presentation/ready"), context: .main)?.code == .forbidden)
        #expect(failure(envelope("presentation/ready"), context: .presentation) == nil)
        #expect(failure(envelope("system/media-intake-status"), context: .presentation)?.code == .forbidden)
        #expect(failure(envelope("config/get"), context: .presentation) == nil)
        #expect(failure(envelope("alert/cancel", ["alertId": "a"]), context: .presentation) == nil)
        // Authorization comes before payload validation.
        #expect(failure(envelope("navigation/catalog", [:]), context: .presentation)?.code == .forbidden)
        for type in StudioMessageType.allCases {
            let main = type.isAllowed(in: .main), presentation = type.isAllowed(in: .presentation)
            #expect(main || presentation, "\(type.rawValue) must be allowed somewhere")
        }
    }

    @Test("nesting: a value at depth 7 is fine, at depth 8 malformed (envelope 0, payload 1)")
    func nesting() {
        func nested(_ levels: Int, leaf: String) -> String {
            // payload is depth 1; each "a" object adds one.
            String(repeating: #"{"a":"#, count: levels) + leaf + String(repeating: "}", count: levels)
        }
        // `nested(n, leaf)` as the payload puts the leaf at depth n + 1.
        func withPayload(_ payload: String) -> String {
            envelope("config/get").replacingOccurrences(#""payload":{}"#, "\"payload\":" + payload)
        }
        #expect(failure(withPayload(nested(6, leaf: "{}"))) == nil, "an empty object at depth 7")
        #expect(failure(withPayload(nested(6, leaf: "1"))) == nil, "a number at depth 7")
        #expect(failure(withPayload(nested(7, leaf: "1")))?.code == .malformed, "a number at depth 8")
        #expect(failure(withPayload(nested(7, leaf: "[]")))?.code == .malformed, "an empty array at depth 8")
        #expect(failure(withPayload(nested(5, leaf: "[1]"))) == nil)
        #expect(failure(withPayload(nested(6, leaf: "[1]")))?.code == .malformed)
        // Too deep wins over a newer version: the conversion comes first.
        #expect(failure(#"{"version":2,"x":"# + nested(8, leaf: "1") + "}")?.code == .malformed)
        // The same rule on an already parsed value.
        let value = try! JSONParser.parse(withPayload(nested(7, leaf: "1")), maxDepth: 64)
        #expect(throws: BridgeFailure.self) { try StudioMessageDecoder.decode(value: value) }
    }

    @Test("a reply's text, written straight from the reply, is its JSON tree's text, for every shape")
    func replyTextMatchesTree() {
        let payloads: [JSONObject] = [JSONObject(), ["a": "b\"\u{1}é", "n": 1.5, "list": [true, .null]],
                                      ConfigReply(context: .main, capabilities: HostCapabilities.offered(to: .main, available: Set(HostCapability.allCases))).payload]
        var replies: [Reply] = []
        for id in [nil, "c1", "quote\"back\\slash"] as [String?] {
            replies += payloads.map { Reply.ok(id, $0) }
            replies += ReplyErrorCode.allCases.map { Reply.failure(id: id, code: $0) }
        }
        for reply in replies { #expect(reply.text == JSONWriter.string(reply.json), "\(reply)") }
    }

    @Test("replies encode in the contract's shape")
    func replyEncoding() throws {
        #expect(Reply.ok("c1").text == #"{"version":1,"id":"c1","ok":true,"payload":{}}"#)
        #expect(Reply.failure(id: nil, code: .unsupportedVersion).text
                == #"{"version":1,"ok":false,"error":{"code":"unsupported_version","supportedVersions":[1]}}"#)
        #expect(Reply.failure(id: "x", code: .forbidden).text == #"{"version":1,"id":"x","ok":false,"error":{"code":"forbidden"}}"#)
        for code in ReplyErrorCode.allCases {
            let decoded = try Reply.decode(value: Reply.failure(id: "r", code: code).json)
            #expect(decoded.reply == .failure(id: "r", code: code))
        }
    }

    @Test("config/get replies: host capabilities per context, and how Studio reads them")
    func configReply() throws {
        let all = Set(HostCapability.allCases)
        let main = HostCapabilities.offered(to: .main, available: all)
        let presentation = HostCapabilities.offered(to: .presentation, available: all)
        #expect(main.enabled == all)
        #expect(presentation.enabled == all.subtracting([.nativeNavigation, .authLifecycle, .nativeMediaIntake, .deepLinks, .systemMap]))
        let reply = Reply.ok(nil, ConfigReply(context: .presentation, capabilities: presentation).payload)
        let payload = try #require(try Reply.decode(value: reply.json).reply == reply ? reply.json.objectValue?["payload"]?.objectValue : nil)
        let reading = try ConfigReply.read(payload)
        #expect(reading.context == .presentation)
        #expect(reading.capabilities == presentation)
        #expect(payload["capabilities"]?.objectValue?.keys == HostCapability.allCases.map(\.rawValue), "every one, in the contract's order")
        #expect(try ConfigReply.read(["protocolVersion": 1, "capabilities": [:]]).context == .main)
        #expect(try ConfigReply.read(["protocolVersion": 1, "context": nil, "capabilities": [:]]).context == nil)
        #expect(try ConfigReply.read(["protocolVersion": 1, "capabilities": ["deepLinks": "true"]]).capabilities.enabled.isEmpty)
        #expect(throws: ContractViolation.self) { try ConfigReply.read(["protocolVersion": 0, "capabilities": [:]]) }
    }

    @Test("Studio's reply decoder refuses replies that break the shape")
    func replyDecoding() {
        for text in [#"{"version":1,"payload":{}}"#, #"{"version":1,"ok":true}"#, #"{"version":1,"ok":false,"error":{}}"#,
                     #"{"version":1,"ok":true,"payload":{},"error":{"code":"malformed"}}"#,
                     #"{"version":1,"ok":false,"payload":{},"error":{"code":"malformed"}}"#,
                     #"{"version":1,"ok":false,"error":{"code":"nope"}}"#,
                     #"{"version":1,"ok":"yes","payload":{}}"#, #"{"version":1,"ok":true,"payload":{},"x":1}"#,
                     #"{"version":1,"ok":false,"error":{"code":"unsupported_version","supportedVersions":[0]}}"#] {
            #expect(throws: BridgeFailure.self, "\(text)") { try Reply.decode(value: try JSONParser.parse(text)) }
        }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
