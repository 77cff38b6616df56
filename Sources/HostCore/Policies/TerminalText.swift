/// Text a server, a page or a link controls — a server's name, an organisation name from an
/// identity, a path from a deep link, a message Studio sent — made safe to show on a terminal
/// or in a notice. Such text could carry an escape sequence (set the terminal's title or
/// colours, move the cursor, hide what follows) or a bidirectional override (show `gpj.exe` as
/// `exe.jpg`). Every scalar that could do either is shown visibly escaped, as Swift writes it
/// (`\u{1b}`), and everything else is left as it is.
///
/// Escaped: the control characters (general category Cc: C0, DEL and C1), the bidirectional
/// formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line
/// and paragraph separators (U+2028, U+2029).
public enum TerminalText {
    /// True for a scalar that must never reach a terminal or a notice as itself.
    public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true          // Cc: C0, DEL, C1
        case 0x061C, 0x200E, 0x200F: return true            // ALM, LRM, RLM
        case 0x202A...0x202E, 0x2066...0x2069: return true  // embeddings, overrides, isolates
        case 0x2028, 0x2029: return true                    // line and paragraph separators
        default: return false
        }
    }

    /// True when `text` has nothing to escape.
    public static func isPlain(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: mustEscape)
    }

    /// One value (a name, a path) for one line: every scalar of `mustEscape`, line breaks and
    /// tabs included, escaped as `\u{…}`.
    public static func escaped(_ text: String) -> String {
        escape(text) { _ in false }
    }

    /// Whole lines of output: as `escaped`, but the line breaks and tabs the program itself
    /// writes (`\n`, `\t`) are kept. A value that must stay on its line is `escaped` first.
    public static func escapedLines(_ text: String) -> String {
        escape(text) { $0 == "\n" || $0 == "\t" }
    }

    /// JSON text (compact, as `JSONWriter` writes it: no white space between tokens) for a
    /// terminal: every scalar of `mustEscape` becomes a JSON escape (`\u001b`), so the text is
    /// still the same JSON value and shows nothing raw. In compact JSON such scalars can only be
    /// inside strings, where the escape means the same scalar.
    public static func escapedJSON(_ text: String) -> String {
        guard !isPlain(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) {
                out.append(contentsOf: "\\u".unicodeScalars)
                out.append(contentsOf: hex(scalar.value, width: 4).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func escape(_ text: String, keeping: (Unicode.Scalar) -> Bool) -> String {
        guard !isPlain(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) && !keeping(scalar) {
                out.append(contentsOf: "\\u{".unicodeScalars)
                out.append(contentsOf: hex(scalar.value, width: 1).unicodeScalars)
                out.append("}")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
