import HostCore

/// How a media intake ended.
public enum MediaIntakeOutcome: String, Sendable, Equatable, CaseIterable {
    case completed, partial, failed, cancelled
}

/// How a QR scan ended.
public enum QRScanOutcome: String, Sendable, Equatable, CaseIterable {
    case scanned, cancelled, unavailable
}

/// Every message the host sends to Studio (§3, N→S). Encoded with `envelope`; decoded (as Studio
/// reads them) with `HostMessage.decode`, which tools and tests use to check what was sent.
public enum HostMessage: Sendable, Equatable {
    case navigationRequest(destinationId: String)
    case navigationBack
    case navigationOpenPath(path: String)
    case signOutRequest
    case presentationShow(presentationId: String, path: String)
    case presentationAction(presentationId: String, actionId: String)
    case presentationDismissed(presentationId: String)
    case presentationEnded(presentationId: String)
    case alertAction(alertId: String, actionId: String)
    case mediaIntakeCompleted(requestId: String, outcome: MediaIntakeOutcome, uploadedCount: Int)
    /// `value` is sent only with `.scanned`.
    case qrScanResult(requestId: String, outcome: QRScanOutcome, value: String?)
    case actionMenuAction(menuId: String, actionId: String)
    case actionMenuDismissed(menuId: String)
    case mapAction(mapId: String, actionId: String)
    case mapDismissed(mapId: String)

    public static let maxQRValueLength = 4096
    public static let maxUploadedCount = 1000

    public static let types: [String] = [
        "navigation/request", "navigation/back", "navigation/open-path", "auth/sign-out-request",
        "presentation/show", "presentation/action", "presentation/dismissed", "presentation/ended",
        "alert/action", "system/media-intake-completed", "system/qr-scan-result",
        "action-menu/action", "action-menu/dismissed", "system/map-action", "system/map-dismissed",
    ]

    public var type: String {
        switch self {
        case .navigationRequest: return "navigation/request"
        case .navigationBack: return "navigation/back"
        case .navigationOpenPath: return "navigation/open-path"
        case .signOutRequest: return "auth/sign-out-request"
        case .presentationShow: return "presentation/show"
        case .presentationAction: return "presentation/action"
        case .presentationDismissed: return "presentation/dismissed"
        case .presentationEnded: return "presentation/ended"
        case .alertAction: return "alert/action"
        case .mediaIntakeCompleted: return "system/media-intake-completed"
        case .qrScanResult: return "system/qr-scan-result"
        case .actionMenuAction: return "action-menu/action"
        case .actionMenuDismissed: return "action-menu/dismissed"
        case .mapAction: return "system/map-action"
        case .mapDismissed: return "system/map-dismissed"
        }
    }

    public var payload: JSONObject {
        var p = JSONObject()
        switch self {
        case .navigationRequest(let destinationId):
            p.appendUnique("destinationId", .string(destinationId))
        case .navigationBack, .signOutRequest:
            break
        case .navigationOpenPath(let path):
            p.appendUnique("path", .string(path))
        case .presentationShow(let presentationId, let path):
            p.appendUnique("presentationId", .string(presentationId))
            p.appendUnique("path", .string(path))
        case .presentationAction(let presentationId, let actionId):
            p.appendUnique("presentationId", .string(presentationId))
            p.appendUnique("actionId", .string(actionId))
        case .presentationDismissed(let presentationId), .presentationEnded(let presentationId):
            p.appendUnique("presentationId", .string(presentationId))
        case .alertAction(let alertId, let actionId):
            p.appendUnique("alertId", .string(alertId))
            p.appendUnique("actionId", .string(actionId))
        case .mediaIntakeCompleted(let requestId, let outcome, let uploadedCount):
            p.appendUnique("requestId", .string(requestId))
            p.appendUnique("outcome", .string(outcome.rawValue))
            p.appendUnique("uploadedCount", .number(Double(min(max(uploadedCount, 0), Self.maxUploadedCount))))
        case .qrScanResult(let requestId, let outcome, let value):
            p.appendUnique("requestId", .string(requestId))
            p.appendUnique("outcome", .string(outcome.rawValue))
            if outcome == .scanned, let value { p.appendUnique("value", .string(value)) }
        case .actionMenuAction(let menuId, let actionId):
            p.appendUnique("menuId", .string(menuId))
            p.appendUnique("actionId", .string(actionId))
        case .actionMenuDismissed(let menuId):
            p.appendUnique("menuId", .string(menuId))
        case .mapAction(let mapId, let actionId):
            p.appendUnique("mapId", .string(mapId))
            p.appendUnique("actionId", .string(actionId))
        case .mapDismissed(let mapId):
            p.appendUnique("mapId", .string(mapId))
        }
        return p
    }

    /// The message in its envelope, ready for `tilecastNativeReceiver`.
    public var envelope: Envelope { Envelope(type: type, payload: payload) }

    /// A scan result with the contract's bounds applied before sending: an empty value is a
    /// cancel, and a value over 4096 characters is unavailable (never truncated).
    public static func boundedQRResult(requestId: String, value: String?) -> HostMessage {
        guard let value, !value.isEmpty else { return .qrScanResult(requestId: requestId, outcome: .cancelled, value: nil) }
        guard Patterns.hasLength(value, in: 1...maxQRValueLength) else {
            return .qrScanResult(requestId: requestId, outcome: .unavailable, value: nil)
        }
        return .qrScanResult(requestId: requestId, outcome: .scanned, value: value)
    }

    // MARK: decoding, as Studio reads host messages

    /// Decodes a host message the way Studio's decoder does, in the same check order as the
    /// host's own decoder. Types that flow Studio→host are `unknown_type` here.
    public static func decode(value: JSONValue) throws(BridgeFailure) -> HostMessage {
        try decode(text: JSONWriter.string(value))
    }

    public static func decode(text: String) throws(BridgeFailure) -> HostMessage {
        try EnvelopeReader.withTape(text) { (tape) throws(BridgeFailure) in try decode(tape: tape) }
    }

    static func decode(tape: JSONTape) throws(BridgeFailure) -> HostMessage {
        let envelope = try EnvelopeReader.read(tape)
        let type = envelope.type
        guard types.contains(type) else {
            throw BridgeFailure(.unknownType, id: envelope.id, type: type,
                                reason: "Studio does not handle \"\(type)\" from the host")
        }
        do {
            return try decodePayload(type, envelope.payload)
        } catch {
            throw BridgeFailure(.malformed, id: envelope.id, type: type, reason: error.prefixed("payload").description)
        }
    }

    private static func decodePayload(_ type: String, _ p: FieldReader) throws(ContractViolation) -> HostMessage {
        switch type {
        case "navigation/request":
            return .navigationRequest(destinationId: try p.identifier("destinationId", maxLength: 128))
        case "navigation/back":
            guard p.isEmpty else { throw ContractViolation(nil, "must be empty") }
            return .navigationBack
        case "navigation/open-path":
            return .navigationOpenPath(path: try readPath(p, "path", { StudioPath.checkStudioPath($0) }))
        case "auth/sign-out-request":
            return .signOutRequest
        case "presentation/show":
            return .presentationShow(presentationId: try p.identifier("presentationId"),
                                     path: try readPath(p, "path", StudioPath.checkPresentationPath))
        case "presentation/action":
            return .presentationAction(presentationId: try p.identifier("presentationId"), actionId: try p.identifier("actionId"))
        case "presentation/dismissed":
            return .presentationDismissed(presentationId: try p.identifier("presentationId"))
        case "presentation/ended":
            return .presentationEnded(presentationId: try p.identifier("presentationId"))
        case "alert/action":
            try p.requireOnly(["alertId", "actionId"])
            return .alertAction(alertId: try p.identifier("alertId"), actionId: try p.identifier("actionId"))
        case "system/media-intake-completed":
            return .mediaIntakeCompleted(requestId: try p.identifier("requestId"),
                                         outcome: try p.requiredEnum("outcome", MediaIntakeOutcome.self),
                                         uploadedCount: try p.integer("uploadedCount", range: 0...maxUploadedCount))
        case "system/qr-scan-result":
            try p.requireOnly(["requestId", "outcome", "value"])
            let requestId = try p.identifier("requestId", maxLength: 128)
            let outcome = try p.requiredEnum("outcome", QRScanOutcome.self)
            let value = try p.optionalString("value", length: 1...maxQRValueLength)
            if outcome == .scanned && value == nil { throw ContractViolation("value", "is required when scanned") }
            return .qrScanResult(requestId: requestId, outcome: outcome, value: value)
        case "action-menu/action":
            return .actionMenuAction(menuId: try p.identifier("menuId"), actionId: try p.identifier("actionId"))
        case "action-menu/dismissed":
            return .actionMenuDismissed(menuId: try p.identifier("menuId"))
        case "system/map-action":
            try p.requireOnly(["mapId", "actionId"])
            return .mapAction(mapId: try p.identifier("mapId"), actionId: try p.identifier("actionId"))
        case "system/map-dismissed":
            try p.requireOnly(["mapId"])
            return .mapDismissed(mapId: try p.identifier("mapId"))
        default:
            throw ContractViolation(nil, "unhandled type")  // unreachable: types were checked
        }
    }
}
