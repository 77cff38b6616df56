import HostCore

/// Every message type Studio may send to the host (§3, S→N), with the pages allowed to send it.
public enum StudioMessageType: String, Sendable, CaseIterable {
    case configGet = "config/get"
    case frontendReady = "frontend/ready"
    case navigationCatalog = "navigation/catalog"
    case navigationState = "navigation/state"
    case navigationChrome = "navigation/chrome"
    case authSignedOut = "auth/signed-out"
    case presentationOpen = "presentation/open"
    case presentationReady = "presentation/ready"
    case presentationUpdate = "presentation/update"
    case presentationClose = "presentation/close"
    case presentationNavigate = "presentation/navigate"
    case alertPresent = "alert/present"
    case alertCancel = "alert/cancel"
    case haptic = "system/haptic"
    case share = "system/share"
    case mediaIntakeStatus = "system/media-intake-status"
    case mediaIntake = "system/media-intake"
    case scanQR = "system/scan-qr"
    case actionMenuArm = "action-menu/arm"
    case actionMenuRegisterTrigger = "action-menu/register-trigger"
    case actionMenuUnregisterTrigger = "action-menu/unregister-trigger"
    case actionMenuDisarm = "action-menu/disarm"
    case actionMenuPresent = "action-menu/present"
    case mapPresent = "system/map-present"
    case mapDismiss = "system/map-dismiss"

    /// The page context that may send it; nil for both.
    public var onlyContext: HostContext? {
        switch self {
        case .navigationCatalog, .navigationState, .navigationChrome, .authSignedOut, .presentationOpen,
             .mediaIntakeStatus, .mediaIntake, .mapPresent, .mapDismiss:
            return .main
        case .presentationReady, .presentationUpdate, .presentationClose, .presentationNavigate:
            return .presentation
        default:
            return nil
        }
    }

    public func isAllowed(in context: HostContext) -> Bool { onlyContext.map { $0 == context } ?? true }

    /// The type named `name` (UTF-8 as it stands in the message), found without making a
    /// string: a name that passed `Patterns.isMessageType` is ASCII, for which equal bytes is
    /// exactly string equality, and the lengths rule out all but one or two types.
    init?(utf8 name: UnsafeBufferPointer<UInt8>) {
        for (type, spelling) in Self.spellings where spelling.count == name.count {
            if spelling.withUnsafeBufferPointer({ $0.elementsEqual(name) }) { self = type; return }
        }
        return nil
    }

    private static let spellings: [(StudioMessageType, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }
}

/// A decoded, validated message from Studio.
public enum StudioMessage: Sendable, Equatable {
    case configGet
    case frontendReady(FrontendReady)
    case navigationCatalog(NavigationCatalog)
    case navigationState(NavigationState)
    case navigationChrome(NavigationChrome)
    case authSignedOut
    case presentationOpen(PresentationOpen)
    case presentationReady
    case presentationUpdate(PresentationUpdate)
    case presentationClose(presentationId: String)
    case presentationNavigate(PresentationNavigate)
    case alertPresent(AlertRequest)
    case alertCancel(alertId: String)
    /// nil for a well-formed feedback token the host does not know: accepted, no effect.
    case haptic(HapticFeedback?)
    case share(ShareRequest)
    case mediaIntakeStatus
    case mediaIntake(MediaIntakeRequest)
    case scanQR(QRScanRequest)
    case actionMenuArm(ActionMenu)
    case actionMenuRegisterTrigger(ActionMenuTrigger)
    case actionMenuUnregisterTrigger(menuId: String)
    case actionMenuDisarm(menuId: String)
    /// Legacy: decoded so its payload is checked, answered `unavailable`.
    case actionMenuPresent(ActionMenu)
    case mapPresent(MapPresent)
    case mapDismiss(mapId: String)

    static func decode(_ type: StudioMessageType, _ payload: FieldReader) throws(ContractViolation) -> StudioMessage {
        switch type {
        case .configGet: return .configGet
        case .frontendReady: return .frontendReady(try FrontendReady(payload))
        case .navigationCatalog: return .navigationCatalog(try NavigationCatalog(payload))
        case .navigationState: return .navigationState(try NavigationState(payload))
        case .navigationChrome: return .navigationChrome(try NavigationChrome(payload))
        case .authSignedOut: return .authSignedOut
        case .presentationOpen: return .presentationOpen(try PresentationOpen(payload))
        case .presentationReady: return .presentationReady
        case .presentationUpdate: return .presentationUpdate(try PresentationUpdate(payload))
        case .presentationClose: return .presentationClose(presentationId: try payload.identifier("presentationId"))
        case .presentationNavigate: return .presentationNavigate(try PresentationNavigate(payload))
        case .alertPresent: return .alertPresent(try AlertRequest(payload))
        case .alertCancel: return .alertCancel(alertId: try payload.identifier("alertId"))
        case .haptic: return .haptic(HapticFeedback(rawValue: try payload.token("feedback", maxLength: 32)))
        case .share: return .share(try ShareRequest(payload))
        case .mediaIntakeStatus: return .mediaIntakeStatus
        case .mediaIntake: return .mediaIntake(try MediaIntakeRequest(payload))
        case .scanQR: return .scanQR(try QRScanRequest(payload))
        case .actionMenuArm: return .actionMenuArm(try ActionMenu(payload))
        case .actionMenuRegisterTrigger: return .actionMenuRegisterTrigger(try ActionMenuTrigger(payload))
        case .actionMenuUnregisterTrigger: return .actionMenuUnregisterTrigger(menuId: try payload.identifier("menuId"))
        case .actionMenuDisarm: return .actionMenuDisarm(menuId: try payload.identifier("menuId"))
        case .actionMenuPresent: return .actionMenuPresent(try ActionMenu(payload))
        case .mapPresent: return .mapPresent(try MapPresent(payload))
        case .mapDismiss: return .mapDismiss(mapId: try MapDismiss.mapId(payload))
        }
    }
}

/// A message from a page, decoded with its request id.
public struct InboundMessage: Sendable, Equatable {
    public var id: String?
    public var type: StudioMessageType
    public var message: StudioMessage
}

/// Decodes what a page posted, in the contract's check order: JSON and depth, version, envelope,
/// type, sending context, payload. Every failure is a `BridgeFailure` with its reply code.
public enum StudioMessageDecoder {
    /// From the JSON text of the posted value. With `context`, a type that belongs to the
    /// other page is `forbidden`.
    public static func decode(_ text: String, context: HostContext? = nil) -> Result<InboundMessage, BridgeFailure> {
        Result { () throws(BridgeFailure) in
            try EnvelopeReader.withTape(text) { (tape) throws(BridgeFailure) in try decode(tape: tape, context: context) }
        }
    }

    /// From a parsed value (tools and tests); the same rules as from text.
    public static func decode(value: JSONValue, context: HostContext? = nil) throws(BridgeFailure) -> InboundMessage {
        try decode(JSONWriter.string(value), context: context).get()
    }

    static func decode(tape: JSONTape, context: HostContext?) throws(BridgeFailure) -> InboundMessage {
        let envelope = try EnvelopeReader.read(tape)
        guard let type = tape.withUTF8(envelope.typeEntry, StudioMessageType.init(utf8:)) else {
            throw BridgeFailure(.unknownType, id: envelope.id, type: envelope.type,
                                reason: "the host does not handle \"\(envelope.type)\" from Studio")
        }
        if let context, !type.isAllowed(in: context) {
            throw BridgeFailure(.forbidden, id: envelope.id, type: envelope.type,
                                reason: "\(type.rawValue) may not be sent from the \(context.rawValue) page")
        }
        do {
            let message = try StudioMessage.decode(type, envelope.payload)
            return InboundMessage(id: envelope.id, type: type, message: message)
        } catch {
            throw BridgeFailure(.malformed, id: envelope.id, type: envelope.type,
                                reason: error.prefixed("payload").description)
        }
    }
}
