/// The string members at the top of a JSON object, read without building the rest: for a
/// message too deep (or too large a value) to parse whole, enough to answer it — its callback
/// id, plugin and method — with a reason instead of leaving the page waiting. Iterative (no
/// recursion on nesting), so no depth can exhaust the stack.
public enum JSONShallow {
    /// The values of `keys` that are strings at the top level of `text`'s object; nil when
    /// `text` is not an object's text up to where the keys were read.
    public static func topLevelStrings(_ text: String, keys: Set<String>) -> [String: String]? {
        let bytes = Array(text.utf8)
        var index = 0
        func skipSpace() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
        /// The end (one past the closing quote) of the string starting at `start`, or nil.
        func stringEnd(_ start: Int) -> Int? {
            var at = start + 1
            while at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: "\\"): at += 2
                case UInt8(ascii: "\""): return at + 1
                default: at += 1
                }
            }
            return nil
        }
        func decodeString(_ range: Range<Int>) -> String? {
            (try? JSONParser.parse(String(decoding: bytes[range], as: UTF8.self), maxDepth: 1))?.stringValue
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var found: [String: String] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else { return found }
            if bytes[index] == UInt8(ascii: "}") { return found }
            guard bytes[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(index), let key = decodeString(index..<keyEnd) else { return found }
            index = keyEnd
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return found }
            index += 1
            skipSpace()
            guard index < bytes.count else { return found }
            if bytes[index] == UInt8(ascii: "\"") {
                guard let end = stringEnd(index) else { return found }
                if keys.contains(key), let value = decodeString(index..<end) { found[key] = value }
                index = end
            } else {
                // Any other value: skipped by counting brackets, strings stepped over whole.
                var depth = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        guard let end = stringEnd(index) else { return found }
                        index = end
                        continue
                    }
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    if depth == 0 && byte == UInt8(ascii: ",") { break }
                    index += 1
                }
            }
            skipSpace()
            guard index < bytes.count else { return found }
            if bytes[index] == UInt8(ascii: ",") { index += 1 } else { return found }
        }
    }
}
