@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Testing

/// The envelope check and type dispatch as they were before the single-pass reader (commit
/// 72e5f6a): a lookup per member, the type made into a string and looked up in a dictionary.
/// Kept only as the oracle of `EnvelopeDifferentialTests`.
enum ReferenceEnvelopeDecoder {
    static let byName: [String: StudioMessageType] = Dictionary(uniqueKeysWithValues: StudioMessageType.allCases.map { ($0.rawValue, $0) })

    static func decode(_ text: String, context: HostContext?) -> Result<InboundMessage, BridgeFailure> {
        Result { () throws(BridgeFailure) in
            try EnvelopeReader.withTape(text) { (tape) throws(BridgeFailure) in try decode(tape: tape, context: context) }
        }
    }

    static func decode(tape: JSONTape, context: HostContext?) throws(BridgeFailure) -> InboundMessage {
        let root = try EnvelopeReader.checkVersion(tape)
        let id = EnvelopeReader.validId(root)
        func malformed(_ reason: String) -> BridgeFailure { BridgeFailure(.malformed, id: id, reason: reason) }
        do {
            try root.requireOnly(["version", "id", "type", "payload"])
        } catch {
            throw malformed("the envelope has an unknown key \"\(error.field)\"")
        }
        if root.entry("id") != nil && id == nil { throw malformed("id must be a string of 1–64 characters") }
        guard let typeEntry = root.entry("type"), tape.kind(typeEntry) == .string else {
            throw malformed("type is required and must be a string")
        }
        let typeName = tape.string(typeEntry)
        guard Patterns.isMessageType(typeName) else { throw malformed("type \"\(typeName.prefix(80))\" is not a message type") }
        guard let payloadEntry = root.entry("payload") else { throw malformed("payload is required") }
        guard tape.kind(payloadEntry) == .object else {
            throw malformed("payload must be an object, not \(tape.kindDescription(payloadEntry))")
        }
        guard let type = byName[typeName] else {
            throw BridgeFailure(.unknownType, id: id, type: typeName, reason: "the host does not handle \"\(typeName)\" from Studio")
        }
        if let context, !type.isAllowed(in: context) {
            throw BridgeFailure(.forbidden, id: id, type: typeName,
                                reason: "\(type.rawValue) may not be sent from the \(context.rawValue) page")
        }
        do {
            let message: StudioMessage = type == .navigationCatalog
                ? .navigationCatalog(try ReferenceCatalogDecoder.decode(FieldReader(tape, payloadEntry)))
                : try StudioMessage.decode(type, FieldReader(tape, payloadEntry))
            return InboundMessage(id: id, type: type, message: message)
        } catch {
            throw BridgeFailure(.malformed, id: id, type: typeName, reason: error.prefixed("payload").description)
        }
    }
}

/// Every message passes the envelope reader, so it is held to the per-member reader it
/// replaced: same message, or same failure (code, id, type and reason), on the corpus, on the
/// robustness fuzzer's inputs, and on envelopes written as text with repeated and escaped keys.
@Suite("Envelope reader, differential")
struct EnvelopeDifferentialTests {
    static let contexts: [HostContext?] = [nil, .main, .presentation]

    static func compare(_ text: String, _ context: HostContext?, _ outcomes: inout [String: Int],
                        sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = StudioMessageDecoder.decode(text, context: context)
        let reference = ReferenceEnvelopeDecoder.decode(text, context: context)
        #expect(fast == reference, "\(text.prefix(400))", sourceLocation: sourceLocation)
        switch reference {
        case .success: outcomes["accept", default: 0] += 1
        case .failure(let failure): outcomes["\(failure.code.rawValue): \(failure.reason.prefix(12))", default: 0] += 1
        }
    }

    @Test("the corpus and 40,000 robustness-fuzzer inputs")
    func fuzzed() {
        let corpus = Checkout.loadCorpus()
        var outcomes: [String: Int] = [:]
        for (i, testCase) in corpus.cases.enumerated() {
            Self.compare(JSONWriter.string(testCase.message), Self.contexts[i % 3], &outcomes)
        }
        var fuzzer = Fuzzer(rng: SeededGenerator(state: 0xE4E1_0BE), seeds: corpus.cases.map(\.message))
        for i in 0..<40_000 { Self.compare(fuzzer.next(), Self.contexts[i % 3], &outcomes) }
        #expect(outcomes["accept", default: 0] > 1_000)
        #expect(outcomes.count >= 15, "\(outcomes.keys.sorted())")
    }

    @Test("envelopes written as text: repeated, escaped, unknown and missing members")
    func written() {
        var rng = SeededGenerator(state: 0xE4E1_0BF)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let keys = ["\"version\"", "\"v\\u0065rsion\"", "\"id\"", "\"\\u0069d\"", "\"type\"", "\"typ\\u0065\"", "\"payload\"",
                    "\"payloa\\u0064\"", "\"extra\"", "\"Version\"", "\"\"", "\"ids\""]
        let values = ["1", "2", "0", "1.0", "1e0", "-1", "\"1\"", "null", "true", "{}", "[]", "\"a\"", "\"x-1\"",
                      "\"config/get\"", "\"navigation/catalog\"", "\"navigation\\/catalog\"", "\"alert\\/present\"",
                      "\"presentation/ready\"", "\"a/b\"", "\"Config/get\"", "\"config/get/\"", "\"\"",
                      "{\"groups\":[]}", "{\"alertId\":\"a\",\"title\":\"T\",\"actions\":[{\"id\":\"ok\",\"label\":\"OK\"}]}",
                      "\"" + String(repeating: "i", count: 64) + "\"", "\"" + String(repeating: "i", count: 65) + "\""]
        var outcomes: [String: Int] = [:]
        for i in 0..<30_000 {
            var members: [String] = []
            // Mostly a plausible envelope, then noise: members dropped, repeated, reordered.
            if Int.random(in: 0..<10, using: &rng) > 0 { members.append("\"version\":" + pick(["1", "1", "1", "2", "0", "\"1\"", "1.5"])) }
            if Int.random(in: 0..<3, using: &rng) == 0 { members.append("\"id\":" + pick(["\"r1\"", "\"\"", "7", "null", values.last!])) }
            if Int.random(in: 0..<10, using: &rng) > 0 { members.append("\"type\":" + pick(Array(values[13...21]))) }
            if Int.random(in: 0..<10, using: &rng) > 0 { members.append("\"payload\":" + pick(["{}", "{}", "{\"groups\":[]}", "[]", "null"])) }
            for _ in 0..<pick([0, 0, 0, 1, 2, 3]) { members.append(pick(keys) + ":" + pick(values)) }
            members.shuffle(using: &rng)
            Self.compare("{" + members.joined(separator: ",") + "}", Self.contexts[i % 3], &outcomes)
        }
        #expect(outcomes["accept", default: 0] > 400)
        #expect(outcomes.count >= 15, "\(outcomes.keys.sorted())")
    }
}
