/// What may go into an HTTP header field's value (RFC 9110 §5.5): visible characters, spaces
/// and tabs, no control character. A value a server or a page controls (Hermes' `session_id`
/// copied into `apns-collapse-id`, a token, a topic) is checked before it is set, so no one can
/// add a header of their own with a line break — and libsoup, which refuses such a value with
/// a critical, never sees one.
public enum HeaderValue {
    /// Why `value` cannot be a header value, or nil when it can.
    public static func problem(_ value: String) -> String? {
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x0D, 0x0A: return "contains a line break"
            case 0x09: continue
            case 0x00..<0x20, 0x7F: return "contains a control character (U+\(hex(scalar.value)))"
            default: continue
            }
        }
        if let first = value.unicodeScalars.first, first == " " || first == "\t" { return "starts with white space" }
        if let last = value.unicodeScalars.last, last == " " || last == "\t" { return "ends with white space" }
        return nil
    }

    /// The first of `headers` whose value cannot be sent, as one line naming it.
    public static func problem(in headers: [(name: String, value: String)]) -> String? {
        for header in headers {
            if let why = problem(header.value) { return "the \(header.name) header's value \(why)" }
        }
        return nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
