import HostCore

/// The kind of page a bridge endpoint belongs to (§1): the one main Studio page, or the page
/// that renders a native presentation (sheet).
public enum HostContext: String, Sendable, CaseIterable {
    case main
    case presentation
}

/// What the host offers in a `config/get` reply (§2), in the contract's order.
public enum HostCapability: String, Sendable, CaseIterable, Comparable {
    case nativeNavigation, authLifecycle, nativePresentations, nativeAlerts, systemShare
    case systemHaptics, systemQrScanner, nativeMediaIntake, deepLinks, nativeActionMenus
    /// §6: Studio mirrors its "…" buttons as anchored triggers only when this is offered.
    case nativeActionMenuAnchors
    /// §6: the native system map (main page only).
    case systemMap

    /// Capabilities that exist only on the main page; a presentation page offers them as false.
    public var isMainOnly: Bool {
        switch self {
        case .nativeNavigation, .authLifecycle, .nativeMediaIntake, .deepLinks, .systemMap: return true
        default: return false
        }
    }

    /// Position in the contract's order.
    var index: Int {
        switch self {
        case .nativeNavigation: return 0
        case .authLifecycle: return 1
        case .nativePresentations: return 2
        case .nativeAlerts: return 3
        case .systemShare: return 4
        case .systemHaptics: return 5
        case .systemQrScanner: return 6
        case .nativeMediaIntake: return 7
        case .deepLinks: return 8
        case .nativeActionMenus: return 9
        case .nativeActionMenuAnchors: return 10
        case .systemMap: return 11
        }
    }

    /// A capability of the newest app (§6) is written only when offered: Studio reads an absent
    /// one as off, and a reply without it is byte for byte what hosts of §1–§5 send.
    var omittedWhenOff: Bool {
        switch self {
        case .nativeActionMenuAnchors: return true
        default: return false
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.index < b.index }
}

/// The set of capabilities a host offers to one page (a bit set: this is read per message).
public struct HostCapabilities: Sendable, Equatable {
    private var bits: UInt16 = 0

    public init(_ enabled: Set<HostCapability>) {
        for capability in enabled { insert(capability) }
    }

    private static func bit(_ c: HostCapability) -> UInt16 { 1 << UInt16(c.index) }

    public mutating func insert(_ capability: HostCapability) { bits |= Self.bit(capability) }
    public func contains(_ capability: HostCapability) -> Bool { bits & Self.bit(capability) != 0 }
    public var enabled: Set<HostCapability> { Set(HostCapability.allCases.filter(contains)) }

    /// What a page of `context` is offered when the host can do `available`: every main-only
    /// capability is withheld from a presentation page.
    public static func offered(to context: HostContext, available: Set<HostCapability>) -> HostCapabilities {
        HostCapabilities(context == .main ? available : available.filter { !$0.isMainOnly })
    }

    /// Every known capability with `true` or `false`, in the contract's order.
    public var json: JSONValue {
        var object = JSONObject(capacity: HostCapability.allCases.count)
        for capability in HostCapability.allCases {
            let on = contains(capability)
            if !on && capability.omittedWhenOff { continue }
            object.appendUnique(capability.rawValue, .bool(on))
        }
        return .object(object)
    }

    /// As Studio reads a capabilities object: only an exact `true` counts; unknown keys are ignored.
    public init(reading object: JSONObject) {
        for member in object.members where member.value == .bool(true) {
            if let capability = HostCapability(rawValue: member.key) { insert(capability) }
        }
    }
}

/// What Studio says it supports in `frontend/ready` (§2).
public enum StudioCapability: String, Sendable, CaseIterable {
    case authLifecycle, nativePresentations, nativeAlerts, nativeMediaIntake, deepLinks, nativeActionMenus
    /// §6: Studio shows its fleet map natively when the host offers `systemMap`.
    case systemMap
}

/// Studio's capabilities for one document. Absent, unknown, or anything but exactly `true` is off.
public struct StudioCapabilities: Sendable, Equatable {
    public var enabled: Set<StudioCapability>

    public init(_ enabled: Set<StudioCapability> = []) { self.enabled = enabled }

    public func contains(_ capability: StudioCapability) -> Bool { enabled.contains(capability) }
}

/// `frontend/ready { capabilities? }`: idempotent, repeated on every remount.
public struct FrontendReady: Sendable, Equatable {
    public var capabilities: StudioCapabilities

    public init(capabilities: StudioCapabilities) { self.capabilities = capabilities }

    init(_ payload: FieldReader) throws(ContractViolation) {
        var set = Set<StudioCapability>()
        try payload.optionalObject("capabilities")?.forEachMember { key, value in
            if payload.tape.bool(value) == true, let capability = StudioCapability(rawValue: key) { set.insert(capability) }
        }
        capabilities = StudioCapabilities(set)
    }
}

/// The payload of a successful `config/get` reply.
public struct ConfigReply: Sendable, Equatable {
    public static let protocolVersion = 1
    public var context: HostContext
    public var capabilities: HostCapabilities

    public init(context: HostContext, capabilities: HostCapabilities) {
        self.context = context
        self.capabilities = capabilities
    }

    public var payload: JSONObject {
        var object = JSONObject(capacity: 3)
        object.appendUnique("protocolVersion", .number(Double(Self.protocolVersion)))
        object.appendUnique("context", .string(context.rawValue))
        object.appendUnique("capabilities", capabilities.json)
        return object
    }

    /// How Studio reads the reply to negotiate. `context` is nil when Studio refuses the
    /// negotiation: a context it does not know (or null); a missing one means `main`, as hosts
    /// from before presentations reply.
    public struct StudioReading: Sendable, Equatable {
        public var protocolVersion: Int
        public var context: HostContext?
        public var capabilities: HostCapabilities
    }

    public static func read(_ payload: JSONObject) throws(ContractViolation) -> StudioReading {
        guard let version = payload["protocolVersion"]?.integerValue, version >= 1 else {
            throw ContractViolation("protocolVersion", "must be a whole number of at least 1")
        }
        guard case .object(let capabilities)? = payload["capabilities"] else {
            throw ContractViolation("capabilities", "must be an object")
        }
        let context: HostContext?
        if let raw = payload["context"] {
            context = raw.stringValue.flatMap(HostContext.init(rawValue:))
        } else {
            context = .main
        }
        return StudioReading(protocolVersion: version, context: context,
                             capabilities: HostCapabilities(reading: capabilities))
    }
}
