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
        case trailingData = "data after the JSON value"
    }
    public let reason: Reason
    public let offset: Int
    public var description: String { "\(reason.rawValue) at byte \(offset)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes. It never traps: every failure is a
/// `JSONParseError`, and nesting beyond `maxDepth` is refused before it can exhaust the stack.
///
/// Depth is a value's depth: the document is depth 0 and every value inside an array or object
/// is one deeper than it. With `maxDepth` 7 a value at depth 8 is refused, so a container at
/// depth 7 must be empty.
public struct JSONParser {
    /// Far above anything the bridge accepts, far below what would endanger the stack.
    public static let defaultMaxDepth = 512

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { bytes in
            Result { () throws(JSONParseError) -> JSONValue in try parse(bytes: bytes, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    public static func parse(bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(bytes: buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure(.trailingData) }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func failure(_ reason: JSONParseError.Reason) -> JSONParseError {
        JSONParseError(reason: reason, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard position < bytes.count else { throw failure(.unexpectedEnd) }
        return bytes[position]
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure(.unexpectedCharacter)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw failure(.unexpectedEnd) }
        let start = literal.utf8Start
        for i in 0..<count where bytes[position + i] != start[i] {
            position += i
            throw failure(.unexpectedCharacter)
        }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        position += 1  // {
        var object = JSONObject()
        var index: [String: Int]? = nil  // built only for large objects, to keep duplicate checks linear
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { position += 1; return .object(object) }
        guard depth < maxDepth else { throw failure(.tooDeep) }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw failure(.unexpectedCharacter) }
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw failure(.unexpectedCharacter) }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if object.count < 16 && index == nil {
                object[key] = value  // linear scan; a repeated key keeps its last value
            } else {
                if index == nil {
                    var built: [String: Int] = [:]
                    for (i, member) in object.members.enumerated() { built[member.key] = i }
                    index = built
                }
                if index![key] != nil {
                    object[key] = value
                } else {
                    index![key] = object.count
                    object.appendUnique(key, value)
                }
            }
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(object)
            default: throw failure(.unexpectedCharacter)
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        position += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { position += 1; return .array(items) }
        guard depth < maxDepth else { throw failure(.tooDeep) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(items)
            default: throw failure(.unexpectedCharacter)
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        var asciiOnly = true
        // Fast path: no escapes. Scan to the closing quote.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if asciiOnly { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    position = start
                    throw failure(.invalidUTF8)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure(.controlCharacterInString) }
            if byte >= 0x80 { asciiOnly = false }
            position += 1
        }
        guard position < bytes.count else { throw failure(.unexpectedEnd) }
        // Slow path: copy what was scanned, then decode escapes.
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            guard position < bytes.count else { throw failure(.unexpectedEnd) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    position = start
                    throw failure(.invalidUTF8)
                }
                return string
            }
            if byte < 0x20 { throw failure(.controlCharacterInString) }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { throw failure(.unexpectedEnd) }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate must be followed by an escaped low surrogate; a lone one
                    // (legal in JS strings) becomes U+FFFD, as TextEncoder does.
                    if bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                       bytes[position + 1] == UInt8(ascii: "u") {
                        let save = position
                        position += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            position = save
                            code = 0xFFFD
                        }
                    } else {
                        code = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(code) {
                    code = 0xFFFD
                }
                appendUTF8(Unicode.Scalar(code) ?? "\u{FFFD}", to: &scalars)
            default:
                position -= 1
                throw failure(.invalidEscape)
            }
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure(.invalidEscape)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw failure(.unexpectedEnd) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(bytes[position]) {
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        } else {
            throw failure(.invalidNumber)
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw failure(.invalidNumber) }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw failure(.invalidNumber) }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        let digits = position - start
        // Small integers (the common case: versions, counts) without going through text.
        if isInteger && digits <= 15 {
            var value: Int64 = 0
            var i = start
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            while i < position { value = value * 10 + Int64(bytes[i] - UInt8(ascii: "0")); i += 1 }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw failure(.invalidNumber) }
        return value  // an overflowing exponent gives ±infinity, as JSON.parse does
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
