import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("JSON parser and writer")
struct JSONTests {
    @Test("scalars, containers and escapes parse to the values JavaScript has")
    func parsesValues() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse(" true ") == .bool(true))
        #expect(try JSONParser.parse("-0.5e2") == .number(-50))
        #expect(try JSONParser.parse("1.0").integerValue == 1)
        #expect(try JSONParser.parse("1.5").integerValue == nil)
        #expect(try JSONParser.parse(#""a\"\\\/\b\f\n\r\t\u00e9\u0000""#) == .string("a\"\\/\u{8}\u{c}\n\r\té\u{0}"))
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\ud83d x""#) == .string("\u{FFFD} x"), "a lone surrogate becomes U+FFFD")
        #expect(try JSONParser.parse(#""\ude00""#) == .string("\u{FFFD}"))
        #expect(try JSONParser.parse(#"[1, [2, {"a": []}]]"#) == [1, [2, ["a": []]]])
        #expect(try JSONParser.parse("\"é漢😀\"") == .string("é漢😀"))
    }

    @Test("a repeated key keeps its first position and last value, also in large objects")
    func duplicateKeys() throws {
        let small = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#).objectValue!
        #expect(small.keys == ["a", "b"])
        #expect(small["a"] == .number(3))
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let large = try JSONParser.parse("{\(members), \"k5\": \"x\"}").objectValue!
        #expect(large.count == 40)
        #expect(large["k5"] == .string("x"))
    }

    @Test("invalid documents fail with a reason and an offset", arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"",
        "[1] 2", "{\"a\":1,}", "'a'", "\"a\u{1}b\"", "NaN", "Infinity", "{1: 2}",
    ])
    func rejectsInvalid(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("strings are scanned word by word: every position of a quote, escape or control byte is found")
    func stringScanAtEveryOffset() throws {
        for length in 0..<24 {
            let plain = String(repeating: "a", count: length)
            #expect(try JSONParser.parse("[\"\(plain)\"]") == [.string(plain)])
            #expect(try JSONParser.parse("[\"\(plain)\\n\(plain)é\"]") == [.string(plain + "\n" + plain + "é")])
            #expect(throws: JSONParseError.self) { try JSONParser.parse("[\"\(plain)\u{1F}\(plain)\"]") }
            #expect(throws: JSONParseError.self) { try JSONParser.parse("[\"\(plain)") }
            // Bytes at and above 0x80 are never mistaken for quotes, backslashes or controls.
            #expect(try JSONParser.parse("\"\(plain)\u{A2}\u{DC}\u{5C5C}\"") == .string(plain + "\u{A2}\u{DC}\u{5C5C}"))
        }
    }

    @Test("member lookup finds keys written with escapes and keeps the last of repeated keys")
    func escapedAndRepeatedKeysInMessages() {
        let escaped = #"{"version":1,"type":"navigation\/state","payload":{"\u0061ctiveDestinationId":"media"}}"#
        #expect(decodedState(escaped)?.activeDestinationId == "media")
        let repeated = #"{"version":1,"type":"navigation/state","payload":{"activeDestinationId":"a","activeDestinationId":"b"}}"#
        #expect(decodedState(repeated)?.activeDestinationId == "b")
        // Same length, same first and last bytes, or a prefix: none of them is the key.
        let nearMiss = #"{"version":1,"type":"navigation/state","payload":{"activeDestinationIdx":"a","activeDestinationI":"b","activeDestinatioxId":"c","activeDestinationId":"d","aetiveDestinationId":"e"}}"#
        #expect(decodedState(nearMiss)?.activeDestinationId == "d")
    }

    private func decodedState(_ text: String) -> NavigationState? {
        guard case .success(let inbound) = StudioMessageDecoder.decode(text, context: .main),
              case .navigationState(let state) = inbound.message else { return nil }
        return state
    }

    @Test("invalid UTF-8 is refused, not repaired")
    func invalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: [0x22, 0xFF, 0x22]) }
    }

    @Test("nesting beyond the limit is refused without exhausting the stack")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        // Value depth: with maxDepth 2, [[1]] puts 1 at depth 2 (fine), [[[]]] an empty array at 2 (fine).
        #expect(try JSONParser.parse("[[1]]", maxDepth: 2).nestingDepth() == 2)
        #expect(try JSONParser.parse("[[[]]]", maxDepth: 2).nestingDepth() == 3)
        #expect(try JSONParser.parse(#"{"a":{"b":{}}}"#, maxDepth: 2).nestingDepth() == 3)
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[[[1]]]", maxDepth: 2) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":{"b":{"c":1}}}"#, maxDepth: 2) }
    }

    @Test("the writer round-trips every value and escapes control characters")
    func writerRoundTrip() throws {
        let value: JSONValue = ["s": "q\"b\\n\n\u{1}é😀", "n": [0, -3, 1.5, 1e21, 123456789012], "b": [true, false, nil], "o": [:]]
        let text = JSONWriter.string(value)
        #expect(try JSONParser.parse(text) == value)
        #expect(JSONWriter.string(["a": 1, "b": "x"]) == #"{"a":1,"b":"x"}"#)
        #expect(JSONWriter.string("\u{1}") == #""\u0001""#)
        #expect(JSONWriter.string(.number(.nan)) == "null")
    }

    @Test("the writer writes small, long, literal and built strings alike, escapes included",
          arguments: ["", "a", "a\tb", "q\"", "short\\path/é", "nativeActionMenuAnchors", "a long literal, well past fifteen bytes \u{1F}",
                      String(repeating: "ab\"c\n", count: 40), String("é😀\r\u{7F}\u{0}x".reversed()), String("--" + "x\u{1}y".dropFirst())])
    func writerStringKinds(_ text: String) throws {
        // Each scalar as JSON writes it: the two escapes with a backslash, the three named
        // controls, other controls as \u00XX, everything else as it is.
        var expected = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": expected += "\\\""
            case "\\": expected += "\\\\"
            case "\n": expected += "\\n"
            case "\r": expected += "\\r"
            case "\t": expected += "\\t"
            case _ where scalar.value < 0x20: expected += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: expected.unicodeScalars.append(scalar)
            }
        }
        expected += "\""
        #expect(JSONWriter.string(.string(text)) == expected)
        #expect(try JSONParser.parse(JSONWriter.string(.string(text))) == .string(text))
    }

    @Test("objects compare as JSON: key order does not matter")
    func objectEquality() throws {
        #expect(try JSONParser.parse(#"{"a":1,"b":[1,2]}"#) == JSONParser.parse(#"{"b":[1,2],"a":1}"#))
        #expect(try JSONParser.parse(#"{"a":1}"#) != JSONParser.parse(#"{"a":1,"b":null}"#))
        #expect(try JSONParser.parse(#"[1,2]"#) != JSONParser.parse(#"[2,1]"#))
    }
}
