/// Why a text is not JSON, with the byte offset where the parser gave up.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case unexpectedEnd = "unexpected end of input"
        case unexpectedCharacter = "unexpected character"
        case invalidEscape = "invalid escape sequence"
        case invalidNumber = "invalid number"
        case invalidUTF8 = "invalid UTF-8"
        case controlCharacterInString = "unescaped control character in a string"
        case tooDeep = "nested too deeply"
        case tooLarge = "document too large"
        case trailingData = "data after the JSON value"
    }
    public let reason: Reason
    public let offset: Int
    @usableFromInline init(reason: Reason, offset: Int) { self.reason = reason; self.offset = offset }
    public var description: String { "\(reason.rawValue) at byte \(offset)" }
}

/// A strict RFC 8259 parser to `JSONValue`. It never traps: every failure is a `JSONParseError`,
/// and nesting beyond `maxDepth` is refused before it can exhaust the stack.
///
/// Depth is a value's depth: the document is depth 0 and every value inside an array or object
/// is one deeper than it. With `maxDepth` 7 a value at depth 8 is refused, so a container at
/// depth 7 must be empty. Numbers are doubles, as in JavaScript; a lone surrogate escape becomes
/// U+FFFD; a repeated key keeps its first position and its last value, as `JSON.parse` does.
public enum JSONParser {
    /// Far above anything the bridge accepts, far below what would endanger the stack.
    public static let defaultMaxDepth = 512

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        do {
            return try JSONTape.parse(text, maxDepth: maxDepth) { $0.value($0.root) }
        } catch {
            switch error {
            case .notJSON(let failure): throw failure
            case .body(let never): switch never {}
            }
        }
    }

    /// Whether UTF-8 `bytes` are one JSON object (within `maxDepth`): the parser's checks
    /// without building the values, for callers that only need the verdict.
    public static func isObject(bytes: [UInt8], maxDepth: Int = defaultMaxDepth) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return (try? JSONTape.parse(text, maxDepth: maxDepth) { (tape) throws(Never) -> Bool in tape.kind(tape.root) == .object }) ?? false
    }

    /// Parses UTF-8 bytes, refusing invalid UTF-8 rather than repairing it.
    public static func parse(bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            var offset = 0
            // Find where the invalid sequence starts, for the message.
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): offset += UTF8.width(s)
                case .emptyInput, .error: break loop
                }
            }
            throw JSONParseError(reason: .invalidUTF8, offset: offset)
        }
        return try parse(text, maxDepth: maxDepth)
    }
}
