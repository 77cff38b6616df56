/// The bridge log's bounds (README "Limits"): a record keeps large values short — a prefix and
/// the original length — and the file rotates at a size limit, so no page can fill a disk
/// through `--bridge-log`.
extension BridgeLog {
    /// A string value keeps this many Unicode scalars, then says how long it was.
    public static let loggedStringScalars = 256
    /// An array keeps this many items and an object this many members, then says how many more.
    public static let loggedItems = 64
    /// A logged message larger than this (as JSON text, in bytes) after the bounds above is kept
    /// only as a prefix of its text and its length.
    public static let loggedMessageBytes = 64 << 10

    /// What marks a shortened value: `…[shortened from N scalars]` after a prefix, or
    /// `…[N more items]` / `…[N more members]` in place of what was left out. Replay treats a
    /// record with it as one whose answer may differ.
    public static let shortenedMark = "…[shortened"

    /// `text` cut to `scalars` Unicode scalars, followed by its original length when it was longer.
    public static func shortened(_ text: String, keeping scalars: Int) -> String {
        let length = text.unicodeScalars.count
        guard length > scalars else { return text }
        return text.prefix(scalars: scalars) + "\(shortenedMark) from \(length) scalars]"
    }

    /// The value with long strings, arrays and objects cut to the logged bounds, at any depth.
    public static func shorten(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(shortened(text, keeping: loggedStringScalars))
        case .array(let items):
            var kept = items.prefix(loggedItems).map(shorten)
            if items.count > loggedItems { kept.append(.string("\(shortenedMark): \(items.count - loggedItems) more items]")) }
            return .array(kept)
        case .object(let object):
            var out = JSONObject(capacity: min(object.count, loggedItems + 1))
            for member in object.members.prefix(loggedItems) { out.appendUnique(member.key, shorten(member.value)) }
            if object.count > loggedItems {
                out.appendUnique(shortenedMark + "]", .string("\(object.count - loggedItems) more members"))
            }
            return .object(out)
        default:
            return value
        }
    }

    /// A message's text as its log record keeps it: parsed (when it is JSON within the message
    /// size limit), redacted and shortened; otherwise, or when still larger than
    /// `loggedMessageBytes`, a redacted prefix of the text with its length.
    public static func loggedMessage(_ text: String) -> JSONValue {
        func raw() -> JSONValue {
            .string(CredentialMarkers.contained(in: text) ? redacted : shortened(text, keeping: rawTextScalars))
        }
        guard !BridgeMessageSize.exceeds(text), let parsed = try? JSONParser.parse(text, maxDepth: 16) else { return raw() }
        let kept = shorten(redact(parsed))
        return JSONWriter.string(kept).utf8.count > loggedMessageBytes ? raw() : kept
    }

    /// A host message as its log record keeps it.
    public static func loggedMessage(_ value: JSONValue) -> JSONValue { shorten(redact(value)) }
}

/// When a log HostShell writes (`--bridge-log FILE`, `apns serve --record FILE`) starts a new
/// file (README "Limits"): before a line would take
/// FILE past `maxFileBytes`, FILE becomes FILE.1, FILE.1 becomes FILE.2 and so on; the oldest,
/// FILE.`rotatedFiles`, is dropped. So the log takes at most `(rotatedFiles + 1) ×
/// maxFileBytes` (plus one line) on disk.
public struct LogRotation: Sendable, Equatable {
    public static let maxFileBytes = 8 << 20
    public static let rotatedFiles = 3

    public let limit: Int
    /// Bytes in the current file.
    public private(set) var size: Int

    public init(existingBytes: Int, limit: Int = LogRotation.maxFileBytes) {
        self.size = max(0, existingBytes)
        self.limit = limit
    }

    /// Accounts for a line of `bytes` about to be written; true when the file must rotate first.
    /// A line goes whole into one file: one longer than the limit fills a file alone.
    public mutating func write(_ bytes: Int) -> Bool {
        let rotate = size > 0 && size + bytes > limit
        size = (rotate ? 0 : size) + bytes
        return rotate
    }

    /// The renames of one rotation, in the order to make them (oldest first, each over the
    /// next older, which drops FILE.`rotatedFiles`).
    public static func renames(of path: String, keeping count: Int = rotatedFiles) -> [(from: String, to: String)] {
        guard count > 0 else { return [] }
        return (1..<count).reversed().map { (from: "\(path).\($0)", to: "\(path).\($0 + 1)") } + [(from: path, to: "\(path).1")]
    }
}
