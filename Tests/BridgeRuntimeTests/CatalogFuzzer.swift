import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract

/// Seeded `navigation/catalog` envelopes written directly as text, so that they carry what a
/// `JSONValue` never does: repeated keys, escaped keys and values, white space. Half the
/// messages are meant to be valid (with valid but awkward spellings), the other half break
/// rules at a few places each, so both the decoded values and the order in which violations
/// are found get exercised.
struct CatalogFuzzer {
    var rng: SeededGenerator
    /// Chance in percent that a field is made wrong; 0 for the messages meant to be valid.
    private var errorRate = 0
    private var serial = 0

    init(seed: UInt64) { rng = SeededGenerator(state: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    mutating func below(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }

    /// The next envelope.
    mutating func next() -> String {
        errorRate = chance(50) ? 0 : pick([2, 5, 10, 30])
        var members: [(String, String)] = [("version", "1"), ("type", quoted("navigation/catalog"))]
        if chance(20) { members.append(("id", quoted("req-\(below(1000))"))) }
        members.append(("payload", payload()))
        return object(shuffledSometimes(members))
    }

    // MARK: structure

    private mutating func payload() -> String {
        var members: [(String, String)] = []
        if !wrong() {
            members.append(("groups", groups()))
        } else if chance(50) {
            members.append(("groups", junk()))
        }
        if chance(10) { members.append(("revision", "7")) }
        return object(shuffledSometimes(members))
    }

    private mutating func groups() -> String {
        switch below(50) {
        case 0, 1:
            // At and past the limits on groups (32) and destinations (128), otherwise valid, so
            // that those rules are what decides.
            let (count, items) = pick([(32, nil), (33, nil), (2, 64), (3, 43), (4, 32), (3, 64)] as [(Int, Int?)])
            let rate = errorRate
            errorRate = 0
            defer { errorRate = rate }
            return array((0..<count).map { _ in group(items: items) })
        case 2:
            return "[]"
        default:
            return array((0..<1 + below(5)).map { _ in chance(errorRate / 2) ? junk() : group(items: nil) })
        }
    }

    private mutating func group(items fixedCount: Int?) -> String {
        var members: [(String, String)] = []
        field(&members, "id") { (f: inout CatalogFuzzer) in f.quoted(f.identifier(maxLength: 64, unique: false)) }
        if chance(50) { field(&members, "title", optional: true) { (f: inout CatalogFuzzer) in f.quoted(f.title()) } }
        field(&members, "items") { (f: inout CatalogFuzzer) in
            var count = fixedCount ?? (1 + f.below(5))
            if f.wrong() { count = f.pick([0, 65]) } else if fixedCount == nil && f.chance(2) { count = 64 }
            return f.array((0..<count).map { _ in f.chance(f.errorRate / 3) ? f.junk() : f.item() })
        }
        if chance(10) { members.append(("collapsed", "false")) }
        return object(shuffledSometimes(members))
    }

    private mutating func item() -> String {
        var members: [(String, String)] = []
        field(&members, "id") { (f: inout CatalogFuzzer) in f.quoted(f.identifier(maxLength: 128, unique: true)) }
        field(&members, "title") { (f: inout CatalogFuzzer) in f.quoted(f.title()) }
        field(&members, "icon") { (f: inout CatalogFuzzer) in f.quoted(f.icon()) }
        if chance(60) { field(&members, "mobilePlacement", optional: true) { (f: inout CatalogFuzzer) in f.quoted(f.placement()) } }
        if chance(10) { members.append((pick(["badge", "order", "hidden"]), pick(["3", "true", "{\"a\":1}"]))) }
        return object(shuffledSometimes(members))
    }

    /// Adds `key` with a value from `make`, or with the wrong kind of value, or leaves it out;
    /// sometimes twice, the earlier or the later copy differing (the last one counts).
    private mutating func field(_ members: inout [(String, String)], _ key: String, optional: Bool = false,
                                _ make: (inout CatalogFuzzer) -> String) {
        if wrong() && !optional && chance(30) { return }  // missing
        let value = wrong() ? junk() : make(&self)
        if chance(8) {
            if chance(50) {
                // An earlier copy, anything at all: the later one counts.
                members.append((key, chance(50) ? junk() : make(&self)))
                members.append((key, value))
            } else {
                members.append((key, value))
                members.append((key, wrong() ? junk() : make(&self)))
            }
        } else {
            members.append((key, value))
        }
    }

    private mutating func wrong() -> Bool { errorRate > 0 && chance(errorRate) }

    // MARK: values

    private mutating func identifier(maxLength: Int, unique: Bool) -> String {
        if wrong() {
            return pick([String(repeating: "d", count: maxLength + 1), "", "Home", "/screens", ".a", "-a", "a b", "é",
                         "a\u{0}", "_x", "a\u{212A}", "A"])
        }
        switch below(20) {
        case 0: return String(repeating: "d", count: maxLength)
        case 1: return pick(["0", "a.b", "plugin:forms:approvals", "x_y-z", "9-"])
        case 2: return pick(["overview", "media"])  // repeats across the catalog now and then
        default:
            serial += 1
            return unique ? "d\(serial)" : pick(["home", "screens", "content", "secondary"])
        }
    }

    private mutating func title() -> String {
        if wrong() {
            return pick(["", String(repeating: "t", count: 201), String(repeating: "e\u{301}", count: 200) + "e",
                         String(repeating: "👩‍👩‍👧", count: 200) + "x", String(repeating: "😀", count: 201)])
        }
        // Lengths count characters — grapheme clusters, as the phone's Swift `count` (CONTRACT.md §5).
        switch below(12) {
        case 0: return String(repeating: "t", count: 200)
        case 1: return String(repeating: "é", count: 200)
        case 2: return String(repeating: "e\u{301}", count: 200)  // 200 characters, 400 scalars, 600 bytes
        case 3: return pick([String(repeating: "👩‍👩‍👧", count: 200), String(repeating: "😀", count: 200)])  // 200 characters
        case 4: return "Quote \" back\\slash\nline\ttab \u{1}"
        case 5: return "\u{212A}elvin Ω 😀"
        default: return pick(["Overview", "Fleet", "Display Groups", "Ä", "x", "Media library"])
        }
    }

    private mutating func icon() -> String {
        if wrong() { return pick([String(repeating: "i", count: 41), "Home", "9a", "-a", "a_b", "", " ", "é"]) }
        return chance(5) ? String(repeating: "i", count: 40) : pick(["home", "screens", "plugin", "door-calendar", "a1-", "x"])
    }

    private mutating func placement() -> String {
        if wrong() { return pick(["toolbar", "", "Primary", "more ", "primar"]) }
        return pick(["primary", "more"])
    }

    /// A value of the wrong kind for any catalog field, shallow enough that even in an item the
    /// message stays within the nesting limit (a deeper one would stop it before the decoder).
    private mutating func junk() -> String {
        pick(["null", "true", "false", "0", "1.5", "-1e3", "\"x\"", "[]", "{}", "[1,\"a\"]", "{\"id\":\"a\"}", "\"\\u0000\""])
    }

    // MARK: text

    private mutating func shuffledSometimes(_ members: [(String, String)]) -> [(String, String)] {
        chance(30) ? members.shuffled(using: &rng) : members
    }

    private mutating func space() -> String { chance(90) ? "" : pick([" ", "\n  ", "\t", " \r\n "]) }

    private mutating func object(_ members: [(String, String)]) -> String {
        let body = members.map { key, value in space() + quoted(key) + space() + ":" + space() + value + space() }
        return "{" + body.joined(separator: ",") + space() + "}"
    }

    private mutating func array(_ items: [String]) -> String {
        "[" + items.map { space() + $0 + space() }.joined(separator: ",") + space() + "]"
    }

    /// `s` as a JSON string literal: the escapes JSON requires, and now and then an optional
    /// one (`\uXXXX` for any BMP character, `\/`).
    mutating func quoted(_ s: String) -> String {
        let escapeOptional = chance(10)
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "/" where escapeOptional && chance(50): out += "\\/"
            default:
                if scalar.value < 0x20 || (escapeOptional && scalar.value < 0x10000 && chance(20)) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + (chance(50) ? hex : hex.uppercased())
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
