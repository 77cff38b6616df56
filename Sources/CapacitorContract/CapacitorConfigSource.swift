import HostCore

/// A `capacitor.config.ts` read without running it (contract §3): the object the file exports,
/// when it is plain data — keys, strings, numbers, booleans, null, arrays and objects, with
/// comments and trailing commas — turned into JSON text for `CapacitorConfig.decode`. Anything
/// computed (a variable, a call, a template with `${}`, a spread) is refused, saying where.
public enum CapacitorConfigSource {
    public static func json(fromTypeScript source: String) -> Result<String, CapacitorConfigError> {
        let text = Array(source.unicodeScalars)
        guard let start = objectStart(in: text) else {
            return .failure(CapacitorConfigError("no exported object found (expected `const config: CapacitorConfig = { … }` and `export default config`, or `export default { … }`)"))
        }
        var reader = Reader(text: text, index: start)
        do throws(CapacitorConfigError) {
            var out = ""
            try reader.value(into: &out, depth: 0)
            return .success(out)
        } catch {
            return .failure(error)
        }
    }

    /// Where the exported object literal begins: `export default {`, or the `{` assigned to the
    /// name `export default NAME` exports (or to the first `const`/`let`/`var` when none is).
    static func objectStart(in source: [Unicode.Scalar]) -> Int? {
        let text = blankingComments(source)
        func isName(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "$" }
        func skip(_ i: Int) -> Int { var i = i; while i < text.count && text[i].properties.isWhitespace { i += 1 }; return i }
        var exported: String?
        if let at = find("export default", in: text, from: 0) {
            let i = skip(at + 14)
            if i < text.count && text[i] == "{" { return i }
            var name = String.UnicodeScalarView()
            var j = i
            while j < text.count && isName(text[j]) { name.append(text[j]); j += 1 }
            guard !name.isEmpty else { return nil }
            exported = String(name)
        }
        for keyword in ["const ", "let ", "var "] {
            var from = 0
            while let at = find(keyword, in: text, from: from) {
                from = at + keyword.unicodeScalars.count
                if at > 0 && isName(text[at - 1]) { continue }
                var i = skip(from)
                var name = String.UnicodeScalarView()
                while i < text.count && isName(text[i]) { name.append(text[i]); i += 1 }
                guard !name.isEmpty, exported == nil || String(name) == exported else { continue }
                while i < text.count && text[i] != "=" && text[i] != ";" { i += 1 }
                guard i < text.count, text[i] == "=" else { continue }
                i = skip(i + 1)
                if i < text.count && text[i] == "{" { return i }
            }
        }
        return nil
    }

    static func find(_ needle: String, in text: [Unicode.Scalar], from: Int) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        guard pattern.count <= text.count, from <= text.count - pattern.count else { return nil }
        for i in from...(text.count - pattern.count) where text[i] == pattern[0] && Array(text[i..<(i + pattern.count)]) == pattern { return i }
        return nil
    }

    /// The text with comments turned into spaces (strings kept), so positions stay the same.
    static func blankingComments(_ text: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var out = text
        var i = 0
        var quote: Unicode.Scalar?
        while i < text.count {
            let c = text[i]
            if let q = quote {
                if c == "\\" { i += 2; continue }
                if c == q { quote = nil }
                i += 1
                continue
            }
            if c == "\"" || c == "'" || c == "`" { quote = c; i += 1; continue }
            if c == "/" && i + 1 < text.count && text[i + 1] == "/" {
                while i < text.count && text[i] != "\n" { out[i] = " "; i += 1 }
                continue
            }
            if c == "/" && i + 1 < text.count && text[i + 1] == "*" {
                while i < text.count && !(text[i] == "*" && i + 1 < text.count && text[i + 1] == "/") { out[i] = " "; i += 1 }
                if i < text.count { out[i] = " " }
                if i + 1 < text.count { out[i + 1] = " " }
                i += 2
                continue
            }
            i += 1
        }
        return out
    }

    private struct Reader {
        let text: [Unicode.Scalar]
        var index: Int

        var line: Int { text[..<min(index, text.count)].filter { $0 == "\n" }.count + 1 }

        func fail(_ what: String) -> CapacitorConfigError {
            CapacitorConfigError("line \(line): \(what); only plain data (strings, numbers, booleans, arrays, objects) can be read without running the file")
        }

        mutating func skipSpace() {
            while index < text.count {
                let c = text[index]
                if c.properties.isWhitespace { index += 1; continue }
                if c == "/" && index + 1 < text.count && text[index + 1] == "/" {
                    while index < text.count && text[index] != "\n" { index += 1 }
                    continue
                }
                if c == "/" && index + 1 < text.count && text[index + 1] == "*" {
                    index += 2
                    while index + 1 < text.count && !(text[index] == "*" && text[index + 1] == "/") { index += 1 }
                    index += 2
                    continue
                }
                return
            }
        }

        mutating func value(into out: inout String, depth: Int) throws(CapacitorConfigError) {
            guard depth < 64 else { throw fail("nested too deeply") }
            skipSpace()
            guard index < text.count else { throw fail("the file ends inside the object") }
            let c = text[index]
            switch c {
            case "{", "[":
                let close: Unicode.Scalar = c == "{" ? "}" : "]"
                out.unicodeScalars.append(c == "{" ? "{" : "[")
                index += 1
                var first = true
                while true {
                    skipSpace()
                    guard index < text.count else { throw fail("the file ends inside the object") }
                    if text[index] == close { index += 1; break }
                    if !first { out += "," }
                    first = false
                    if text[index] == "." { throw fail("a spread (...) is computed") }
                    if c == "{" {
                        try key(into: &out)
                        skipSpace()
                        guard index < text.count, text[index] == ":" else { throw fail("expected : after a key") }
                        index += 1
                        out += ":"
                    }
                    try value(into: &out, depth: depth + 1)
                    skipSpace()
                    if index < text.count && text[index] == "," { index += 1 } else if index < text.count && text[index] != close {
                        throw fail("expected , or \(close)")
                    }
                }
                out.unicodeScalars.append(close)
            case "\"", "'", "`": out += try string()
            default:
                let word = identifier()
                switch word {
                case "true", "false", "null": out += word
                case "undefined": out += "null"
                case "": 
                    let number = numberText()
                    guard !number.isEmpty, Double(number) != nil else { throw fail("unexpected \"\(c)\"") }
                    out += number
                default: throw fail("\(word) is a name, not a value")
                }
            }
        }

        mutating func key(into out: inout String) throws(CapacitorConfigError) {
            let c = text[index]
            if c == "\"" || c == "'" { out += try string(); return }
            let word = identifier()
            guard !word.isEmpty else { throw fail("expected a key") }
            out += JSONWriter.string(.string(word))
        }

        mutating func identifier() -> String {
            var word = String.UnicodeScalarView()
            while index < text.count, text[index].properties.isAlphabetic || ("0"..."9").contains(text[index]) || text[index] == "_" || text[index] == "$" {
                if word.isEmpty && ("0"..."9").contains(text[index]) { break }
                word.append(text[index]); index += 1
            }
            return String(word)
        }

        mutating func numberText() -> String {
            var number = String.UnicodeScalarView()
            while index < text.count, ("0"..."9").contains(text[index]) || "+-.eE".unicodeScalars.contains(text[index]) {
                number.append(text[index]); index += 1
            }
            return String(number)
        }

        mutating func string() throws(CapacitorConfigError) -> String {
            let quote = text[index]
            index += 1
            var value = String.UnicodeScalarView()
            while index < text.count, text[index] != quote {
                var c = text[index]
                if quote == "`" && c == "$" && index + 1 < text.count && text[index + 1] == "{" { throw fail("a template with ${} is computed") }
                if c == "\\" && index + 1 < text.count {
                    index += 1
                    switch text[index] {
                    case "n": c = "\n"
                    case "t": c = "\t"
                    case "r": c = "\r"
                    default: c = text[index]
                    }
                }
                value.append(c)
                index += 1
            }
            guard index < text.count else { throw fail("a string does not end") }
            index += 1
            return JSONWriter.string(.string(String(value)))
        }
    }
}
