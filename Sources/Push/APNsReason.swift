/// Every reason Apple's provider API answers with, and the status it comes with (push CONTRACT
/// §1). Errors go out as JSON `{"reason": …}`; a 410 also carries `timestamp`.
public enum APNsReason: String, CaseIterable, Sendable, Equatable {
    case badCollapseId = "BadCollapseId"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case idleTimeout = "IdleTimeout"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case topicDisallowed = "TopicDisallowed"
    case badCertificate = "BadCertificate"
    case badCertificateEnvironment = "BadCertificateEnvironment"
    case expiredProviderToken = "ExpiredProviderToken"
    case forbidden = "Forbidden"
    case invalidProviderToken = "InvalidProviderToken"
    case missingProviderToken = "MissingProviderToken"
    case badPath = "BadPath"
    case methodNotAllowed = "MethodNotAllowed"
    case expiredToken = "ExpiredToken"
    case unregistered = "Unregistered"
    case payloadTooLarge = "PayloadTooLarge"
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    case tooManyRequests = "TooManyRequests"
    case internalServerError = "InternalServerError"
    case serviceUnavailable = "ServiceUnavailable"
    case shutdown = "Shutdown"

    /// The HTTP status Apple sends this reason with.
    public var status: Int {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
             .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
             .missingTopic, .payloadEmpty, .topicDisallowed:
            return 400
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden,
             .invalidProviderToken, .missingProviderToken:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .expiredToken, .unregistered: return 410
        case .payloadTooLarge: return 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        }
    }

    /// A 410: the device token is gone; the answer carries the time it went.
    public var isGone: Bool { status == 410 }

    /// A reason by its name, in any case (`unregistered`, `Unregistered`), or by a status that
    /// has one obvious reason (410 Unregistered, 413, 429 TooManyRequests, 500, 503
    /// ServiceUnavailable) — the words `--fault` takes.
    public static func named(_ word: String) -> APNsReason? {
        if let exact = APNsReason(rawValue: word) { return exact }
        let lower = word.lowercased()
        if let match = allCases.first(where: { $0.rawValue.lowercased() == lower }) { return match }
        switch word {
        case "405": return .methodNotAllowed
        case "410": return .unregistered
        case "413": return .payloadTooLarge
        case "429": return .tooManyRequests
        case "500": return .internalServerError
        case "503": return .serviceUnavailable
        default: return nil
        }
    }
}
