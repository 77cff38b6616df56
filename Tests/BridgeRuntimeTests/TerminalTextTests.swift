import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Terminal text: server-controlled text never reaches a terminal or a notice raw")
struct TerminalTextTests {
    static let hostile: [(String, String)] = [
        ("Evil\u{1b}]0;pwned\u{07}Org", #"Evil\u{1b}]0;pwned\u{7}Org"#),            // sets the terminal's title
        ("\u{1b}[31mred\u{1b}[0m", #"\u{1b}[31mred\u{1b}[0m"#),                       // colours
        ("a\u{9b}2Jb", #"a\u{9b}2Jb"#),                                               // C1 CSI: clears the screen
        ("del\u{7f}", #"del\u{7f}"#),
        ("gpj\u{202e}exe.jpg", #"gpj\u{202e}exe.jpg"#),                               // right-to-left override
        ("\u{2066}x\u{2069}\u{200f}\u{61c}", #"\u{2066}x\u{2069}\u{200f}\u{61c}"#),  // isolates, marks
        ("line\u{2028}sep", #"line\u{2028}sep"#),
        ("two\nlines\ttab\r", #"two\u{a}lines\u{9}tab\u{d}"#),
        ("\u{0}", #"\u{0}"#),
    ]

    @Test("control characters, escape sequences, DEL, C1 and bidirectional formatting are escaped visibly")
    func escapes() {
        for (raw, shown) in Self.hostile {
            #expect(TerminalText.escaped(raw) == shown, "\(shown)")
            #expect(TerminalText.escaped(raw).unicodeScalars.allSatisfy { !TerminalText.mustEscape($0) })
            #expect(!TerminalText.isPlain(raw))
        }
    }

    @Test("ordinary text, in any script, is left exactly as it is")
    func plain() {
        for text in ["North Studio", "Café Zürich", "東京スタジオ", "مرحبا", "emoji 🎬", "zero\u{200b}width", "back\\slash", ""] {
            #expect(TerminalText.escaped(text) == text)
            #expect(TerminalText.escapedLines(text) == text)
            #expect(TerminalText.escapedJSON(text) == text)
            #expect(TerminalText.isPlain(text))
        }
    }

    @Test("whole lines keep the program's own line breaks and tabs, and escape the rest")
    func lines() {
        #expect(TerminalText.escapedLines("a\tb\nc\u{1b}[2J\r") == "a\tb\nc\\u{1b}[2J\\u{d}")
    }

    @Test("JSON for a terminal is the same JSON value, with nothing raw")
    func json() throws {
        for (raw, _) in Self.hostile {
            let text = JSONWriter.string(["name": .string(raw), "list": [.string(raw)]])
            let safe = TerminalText.escapedJSON(text)
            #expect(safe.unicodeScalars.allSatisfy { !TerminalText.mustEscape($0) }, "\(safe)")
            #expect(try JSONParser.parse(safe) == JSONParser.parse(text), "the escaped JSON reads back as the same value")
        }
        #expect(TerminalText.escapedJSON("\"\u{202e}\u{85}\"") == #""\u202e\u0085""#)
    }

    @Test("every Cc scalar and every bidirectional control is escaped; nothing else in the BMP is")
    func classes() {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let cc = scalar.properties.generalCategory == .control
            let bidi = scalar.properties.isBidiControl
            let separator = value == 0x2028 || value == 0x2029
            #expect(TerminalText.mustEscape(scalar) == (cc || bidi || separator), "U+\(String(value, radix: 16))")
        }
    }
}
