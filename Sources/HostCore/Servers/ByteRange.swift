/// A request's `Range: bytes=…` header against a file of `size` bytes (RFC 9110 §14), as a
/// file server answers it: one range is served as 206 with its slice, a range that starts past
/// the end is 416, and anything else — no header, another unit, several ranges, a malformed
/// or backwards range — is ignored, so the whole file is sent (which the RFC allows).
public enum ByteRange: Sendable, Equatable {
    /// Send the whole file with 200.
    case whole
    /// Send bytes `first...last` (inclusive) with 206.
    case partial(first: Int, last: Int)
    /// Send 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    public static func resolve(_ header: String?, size: Int) -> ByteRange {
        guard let header else { return .whole }
        let text = header.trimmingSpaces()
        guard text.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = text.dropFirst(6).trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let start = spec[..<dash].trimmingSpaces(), end = spec[spec.index(after: dash)...].trimmingSpaces()
        func number(_ digits: String) -> Int? {
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(digits)
        }
        if start.isEmpty {
            // A suffix: the last n bytes.
            guard let count = number(end) else { return .whole }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .partial(first: max(0, size - count), last: size - 1)
        }
        guard let first = number(start) else { return .whole }
        let last: Int
        if end.isEmpty {
            last = size - 1
        } else {
            guard let given = number(end), given >= first else { return .whole }
            last = min(given, size - 1)
        }
        return first < size ? .partial(first: first, last: last) : .unsatisfiable
    }

    /// How many bytes are sent.
    public var length: Int? {
        if case .partial(let first, let last) = self { return last - first + 1 }
        return nil
    }

    /// The `Content-Range` header for this answer, or nil for the whole file.
    public func contentRange(size: Int) -> String? {
        switch self {
        case .whole: nil
        case .partial(let first, let last): "bytes \(first)-\(last)/\(size)"
        case .unsatisfiable: "bytes */\(size)"
        }
    }

    /// The same range, cut to at most `limit` bytes from its start (a server may send less than
    /// was asked; the `Content-Range` says what was sent).
    public func limited(to limit: Int) -> ByteRange {
        guard case .partial(let first, let last) = self, last - first + 1 > limit else { return self }
        return .partial(first: first, last: first + limit - 1)
    }
}
