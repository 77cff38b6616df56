import HostCore

/// The main page's native media intake (§4 Media intake): available only while the app holds a
/// credential for the server (signed out, or an older server, Studio uses its browser uploader);
/// one intake at a time; its completion reported once, with at most 1000 uploads counted.
public struct NativeMediaIntake: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// Whether the app now holds a credential for this server.
        case credentialAvailable(Bool)
        /// `system/media-intake-status`.
        case status(id: String?)
        /// `system/media-intake`.
        case start(MediaIntakeRequest, id: String?)
        /// The intake `requestId` finished; `studioReady`: Studio said `frontend/ready`, so it may be told.
        case finished(requestId: String, outcome: MediaIntakeOutcome, uploadedCount: Int, studioReady: Bool)
    }

    /// Replies, `.startMediaIntake`, and `.send` of `system/media-intake-completed`.
    public typealias Effect = PageEffect

    public let context: HostContext
    /// `nativeMediaIntake` is offered to this page.
    public let offered: Bool
    /// The app holds a credential for this server: `system/media-intake-status` says available.
    public private(set) var hasCredential = false
    /// The intake in progress (one at a time), by request id.
    public private(set) var requestId: String?

    public init(context: HostContext, offered: Bool) {
        self.context = context
        self.offered = offered
    }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .credentialAvailable(let available):
            hasCredential = available
            return []

        case .status(let id):
            var payload = JSONObject()
            payload["available"] = .bool(hasCredential && offered)
            return [.reply(.ok(id, payload))]

        case .start(let request, let id):
            guard hasCredential, offered, requestId == nil else { return [.reply(.failure(id: id, code: .unavailable))] }
            requestId = request.requestId
            return [.reply(.ok(id)), .startMediaIntake(request)]

        case .finished(let finished, let outcome, let count, let studioReady):
            guard requestId == finished else { return [] }
            requestId = nil
            guard studioReady, context == .main else { return [] }
            return [.send(.mediaIntakeCompleted(requestId: finished, outcome: outcome, uploadedCount: min(count, 1000)))]
        }
    }
}
