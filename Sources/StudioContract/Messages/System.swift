import HostCore
/// The semantic feedback kinds a host knows (§3 `system/haptic`).
public enum HapticFeedback: String, Sendable, Equatable, CaseIterable {
    case selection, success, warning, error, start, stop
}

/// `system/share`: normal, user-visible content. The refusal rules are `SharePolicy`.
public struct ShareRequest: Sendable, Equatable {
    public var title: String?
    public var text: String?
    public var url: String?

    public init(title: String? = nil, text: String? = nil, url: String? = nil) {
        self.title = title; self.text = text; self.url = url
    }

    init(_ payload: FieldReader) throws(ContractViolation) {
        title = try payload.optionalString("title", length: 1...200)
        text = try payload.optionalString("text", length: 1...2000)
        url = try payload.optionalString("url", length: 1...2048)
        guard text != nil || url != nil else { throw ContractViolation(nil, "needs text or url") }
        if let problem = SharePolicy.contentProblem(self) { throw ContractViolation(problem.field, problem.reason) }
    }
}

/// A kind of media the picker offers.
public enum MediaKind: String, Sendable, Equatable, CaseIterable {
    case image, video
}

/// `system/media-intake` (main page): choose media natively and upload it with the app's credential.
public struct MediaIntakeRequest: Sendable, Equatable {
    public var requestId: String
    /// Known kinds in the order asked, without repeats; never empty (nothing usable means both).
    public var kinds: [MediaKind]
    public var multiple: Bool

    public init(requestId: String, kinds: [MediaKind] = MediaKind.allCases, multiple: Bool = true) {
        self.requestId = requestId; self.kinds = kinds; self.multiple = multiple
    }

    init(_ payload: FieldReader) throws(ContractViolation) {
        requestId = try payload.identifier("requestId")
        var kinds: [MediaKind] = []
        if let raw = try payload.optionalArray("accept", count: 0...4) {
            for (index, value) in raw.enumerated() {
                let token = payload.tape.kind(value) == .string ? payload.tape.string(value) : ""
                guard Patterns.isToken(token, maxLength: 16) else {
                    throw ContractViolation("[\(index)]", "must be a kind token of at most 16 characters").prefixed("accept")
                }
                if let kind = MediaKind(rawValue: token), !kinds.contains(kind) { kinds.append(kind) }
            }
        }
        self.kinds = kinds.isEmpty ? MediaKind.allCases : kinds
        multiple = try payload.optionalBool("multiple") ?? true
    }
}

/// `system/scan-qr` (strict): scan one QR code.
public struct QRScanRequest: Sendable, Equatable {
    public var requestId: String

    init(_ payload: FieldReader) throws(ContractViolation) {
        try payload.requireOnly(["requestId"])
        requestId = try payload.identifier("requestId", maxLength: 128)
    }
}
