/// The five error codes of a bridge reply (§1).
public enum ReplyErrorCode: String, Sendable, Equatable, CaseIterable {
    case malformed
    case unknownType = "unknown_type"
    case unsupportedVersion = "unsupported_version"
    case forbidden
    case unavailable
}

/// A message the host refuses: the reply code, the id to echo (if any), and a reason for logs
/// and tools. The reason never goes to the page.
public struct BridgeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: ReplyErrorCode
    public let id: String?
    /// The message type, once the envelope was read far enough to know it.
    public let type: String?
    public let reason: String

    public init(_ code: ReplyErrorCode, id: String? = nil, type: String? = nil, reason: String) {
        self.code = code; self.id = id; self.type = type; self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }

    /// The reply the page receives for this failure.
    public var reply: Reply { .failure(id: id, code: code) }
}
