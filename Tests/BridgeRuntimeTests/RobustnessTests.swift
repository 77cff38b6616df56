import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// A small, seeded generator so every run decodes the same inputs (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random and mutated envelopes, from the corpus's real messages and from nothing.
struct Fuzzer {
    var rng: SeededGenerator
    let seeds: [JSONValue]

    static let keys = ["version", "id", "type", "payload", "groups", "items", "title", "icon", "mobilePlacement",
                       "activeDestinationId", "path", "presentationId", "size", "dismissible", "header", "actions",
                       "menu", "alertId", "message", "label", "role", "feedback", "url", "text", "requestId", "accept",
                       "multiple", "menuId", "rect", "x", "y", "width", "height", "capabilities", "back", "navigation"]
    static let types = StudioMessageType.allCases.map(\.rawValue) + HostMessage.types + ["a/b", "clipboard/write", "X", ""]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    mutating func string() -> String {
        switch Int.random(in: 0..<20, using: &rng) {
        case 0: return ""
        case 1:
            // Long texts around the limits, and now and then a huge one.
            let count = chance(2) ? 70_000 : pick([64, 65, 128, 129, 200, 201, 1000, 1001, 2048, 2049, 4097])
            return String(repeating: pick(["a", "é", "😀", "/", "%2e", "\\", " "]), count: count)
        case 2: return pick(["/__native/modal", "/__native/modal/../x", "https://example.org/?token=1", "tca_x",
                             "/login", "//evil", "/a/%2E%2e/b", "compact", "primary", "destructive", "success"])
        default:
            let count = Int.random(in: 0...24, using: &rng)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<count {
                let value: UInt32 = chance(80) ? UInt32.random(in: 0x20...0x7E, using: &rng)
                    : pick([0, 0x7F, 0x85, 0xA0, 0x2028, 0xFEFF, 0x1F600, 0xE9, 0x5C, 0x0A])
                scalars.append(Unicode.Scalar(value)!)
            }
            return String(scalars)
        }
    }

    mutating func number() -> Double {
        pick([0, 1, -1, 1.5, 2, 7, 64, 1e15, -0.0, 1e300, 3.999999, Double(Int.random(in: -1000...1000, using: &rng))])
    }

    mutating func value(depth: Int) -> JSONValue {
        let kind = depth > 12 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<7, using: &rng)
        switch kind {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(number())
        case 3: return .string(string())
        case 4: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...6, using: &rng) { object[chance(80) ? pick(Self.keys) : string()] = value(depth: depth + 1) }
            return .object(object)
        }
    }

    /// Deep nesting of either kind, up to far past any limit.
    mutating func deep() -> JSONValue {
        var v: JSONValue = chance(50) ? .number(1) : [:]
        for _ in 0..<Int.random(in: 5...3000, using: &rng) { v = chance(50) ? .array([v]) : ["a": v] }
        return v
    }

    mutating func mutate(_ v: JSONValue, depth: Int = 0) -> JSONValue {
        if chance(depth == 0 ? 5 : 15) {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return value(depth: depth)
            case 1: return deep()
            case 2: return .array([v])
            case 3: return .string(string())
            case 4: return .number(number())
            default: return .null
            }
        }
        switch v {
        case .object(var object):
            if !object.isEmpty, chance(30) { object[pick(object.keys)] = nil }
            if chance(20) { object[pick(Self.keys)] = value(depth: depth + 1) }
            for key in object.keys where chance(40) { object[key] = mutate(object[key]!, depth: depth + 1) }
            return .object(object)
        case .array(var items):
            if !items.isEmpty, chance(20) { items.remove(at: Int.random(in: 0..<items.count, using: &rng)) }
            if !items.isEmpty, chance(10) { items += Array(repeating: items[0], count: Int.random(in: 1...100, using: &rng)) }
            return .array(items.map { chance(40) ? mutate($0, depth: depth + 1) : $0 })
        default:
            return v
        }
    }

    /// The next input, as text: 1 in 3 built from nothing, the rest mutated corpus messages, and
    /// 1 in 10 of all damaged at the byte level.
    mutating func next() -> String {
        var v: JSONValue
        if chance(33) {
            var object: JSONObject = [:]
            if chance(90) { object["version"] = pick([1, 1, 1, 1, 2, 0, "1", .number(1.5), true, nil, .number(1e16)] as [JSONValue]) }
            if chance(30) { object["id"] = chance(70) ? .string(string()) : value(depth: 1) }
            if chance(95) { object["type"] = .string(pick(Self.types)) }
            if chance(95) { object["payload"] = chance(80) ? .object(value(depth: 1).objectValue ?? [:]) : value(depth: 1) }
            if chance(5) { object[pick(Self.keys)] = value(depth: 1) }
            v = .object(object)
        } else {
            v = mutate(pick(seeds))
            if chance(10), case .object(var object) = v {
                object["type"] = .string(pick(Self.types))
                v = .object(object)
            }
        }
        var text = JSONWriter.string(v)
        if chance(10) {
            var bytes = Array(text.utf8)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            case 1 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
            }
            text = String(decoding: bytes, as: UTF8.self)
        }
        return text
    }
}

@Suite("Robustness")
struct RobustnessTests {
    @Test("100,000 random and mutated envelopes decode to a valid outcome and a valid reply, deterministically")
    func fuzzDecoder() throws {
        let corpus = Checkout.loadCorpus()
        var fuzzer = Fuzzer(rng: SeededGenerator(state: 0x5EED_2026), seeds: corpus.cases.map(\.message))
        var outcomes: [String: Int] = [:]
        let contexts: [HostContext?] = [nil, .main, .presentation]
        let total = 100_000
        for i in 0..<total {
            let text = fuzzer.next()
            let context = contexts[i % 3]
            let reply: Reply
            switch StudioMessageDecoder.decode(text, context: context) {
            case .success(let inbound):
                outcomes["accept", default: 0] += 1
                #expect(inbound.type.isAllowed(in: context ?? .main) || context == nil)
                reply = .ok(inbound.id)
            case .failure(let failure):
                outcomes[failure.code.rawValue, default: 0] += 1
                #expect(failure.code != .unavailable)
                if failure.code == .forbidden { #expect(context != nil) }
                if failure.code == .unsupportedVersion { #expect(failure.id == nil) }
                reply = failure.reply
            }
            // Whatever happened, the page gets a reply that Studio's decoder accepts.
            let echoed = try Reply.decode(text: reply.text)
            #expect(echoed.reply == reply)
            // Studio's decoders must survive the same inputs.
            _ = try? HostMessage.decode(text: text)
            _ = try? Reply.decode(text: text)
        }
        #expect(outcomes.values.reduce(0, +) == total)
        // The generator reaches every outcome, so the test is not trivially all-malformed.
        #expect(outcomes["accept", default: 0] > 2_000, "\(outcomes)")
        #expect(outcomes["malformed", default: 0] > 20_000, "\(outcomes)")
        #expect(outcomes["unknown_type", default: 0] > 500, "\(outcomes)")
        #expect(outcomes["unsupported_version", default: 0] > 500, "\(outcomes)")
        #expect(outcomes["forbidden", default: 0] > 500, "\(outcomes)")
    }

    @Test("the fuzzer is deterministic: the same seed gives the same inputs")
    func deterministic() {
        let seeds: [JSONValue] = [["version": 1, "type": "config/get", "payload": [:]]]
        var a = Fuzzer(rng: SeededGenerator(state: 42), seeds: seeds)
        var b = Fuzzer(rng: SeededGenerator(state: 42), seeds: seeds)
        for _ in 0..<500 { #expect(a.next() == b.next()) }
    }
}
