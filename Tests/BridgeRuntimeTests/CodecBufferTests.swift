@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Testing

/// The writer escapes runs found eight bytes at a time and starts on the stack; the tape
/// builder keeps its first entries on the stack and moves them to the heap when a document
/// needs more. These hold both to plain expectations across those boundaries.
@Suite("Codec buffers")
struct CodecBufferTests {
    /// JSON string escaping of ASCII text as the writer did it byte by byte before (72e5f6a).
    static func referenceQuoted(_ s: String) -> String {
        var out = "\""
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += "\\u00" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            default: out += String(decoding: [byte], as: UTF8.self)
            }
        }
        return out + "\""
    }

    /// The reference for any text: non-ASCII scalars are never escaped.
    static func expectedQuoted(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            out += scalar.isASCII ? String(referenceQuoted(String(scalar)).dropFirst().dropLast()) : String(scalar)
        }
        return "\"" + out + "\""
    }

    @Test("every byte, and seeded strings at every offset and past the stack buffer, escape as before")
    func writerEscapes() {
        for value in 0..<0x80 {
            let s = String(Unicode.Scalar(UInt8(value)))
            #expect(JSONWriter.string(.string(s)) == Self.referenceQuoted(s), "\(value)")
        }
        var rng = SeededGenerator(state: 0xE5CA9E)
        let pieces = ["a", "b", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\t", "\r", "é", "😀", "/", " ", "\u{7F}"]
        for _ in 0..<5_000 {
            let count = Bool.random(using: &rng) ? Int.random(in: 0...40, using: &rng) : Int.random(in: 480...700, using: &rng)
            let s = (0..<count).map { _ in Int.random(in: 0..<4, using: &rng) == 0 ? pieces.randomElement(using: &rng)! : "x" }.joined()
            let written = JSONWriter.string(.string(s))
            #expect(written == Self.expectedQuoted(s))
            #expect((try? JSONParser.parse(written)) == .string(s))
        }
    }

    @Test("documents around the tape's stack entries parse to what was written; broken ones fail")
    func tapeGrowth() throws {
        for count in 0...130 {
            let array = JSONValue.array((0..<count).map { .string("v\($0)") })
            #expect(try JSONParser.parse(JSONWriter.string(array)) == array)
            var object = JSONObject()
            for i in 0..<count { object["k\(i)"] = i % 2 == 0 ? .number(Double(i)) : ["x": .bool(true)] }
            let text = JSONWriter.string(.object(object))
            #expect(try JSONParser.parse(text) == .object(object))
            // Cut short or broken after the move to the heap: an error, not a crash.
            #expect(throws: JSONParseError.self) { try JSONParser.parse(String(text.dropLast())) }
            #expect(throws: JSONParseError.self) { try JSONParser.parse(text + ",") }
        }
    }
}
