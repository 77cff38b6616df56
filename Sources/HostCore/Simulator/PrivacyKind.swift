/// The simulator's privacy kinds (`xcrun simctl privacy grant|revoke|reset KIND`), as
/// `ctl privacy` takes them, and how each maps onto what WebKit and Capacitor's plugins ask for.
/// A kind's decision is kept in the profile's permission answers (`PermissionMachine`), so a
/// server's or app's pages get it without a prompt until it is reset.
public enum PrivacyKind: String, Sendable, Equatable, Hashable, CaseIterable {
    case camera, microphone, location, notifications, photos, clipboard, motion

    /// The permission the profile remembers for this kind.
    public var permission: PermissionKind {
        switch self {
        case .camera: .camera
        case .microphone: .microphone
        case .location: .geolocation
        case .notifications: .notifications
        case .photos: .photos
        case .clipboard: .clipboard
        case .motion: .motion
        }
    }

    /// The privacy kind a WebKit permission request is about; nil for a request no privacy
    /// kind covers (screen capture, pointer lock, device names, protected media, storage
    /// access: the phone has no privacy switch for them, and the prompt decides).
    public init?(_ permission: PermissionKind) {
        guard let kind = Self.allCases.first(where: { $0.permission == permission }) else { return nil }
        self = kind
    }

    /// The kind a Capacitor plugin's permission alias names (`checkPermissions()` answers an
    /// object of aliases: Camera's `camera` and `photos`, Geolocation's `location` and
    /// `coarseLocation`, PushNotifications' `receive`, LocalNotifications' `display`,
    /// Motion's `motion`); nil for an alias of no kind here.
    public init?(capacitorAlias alias: String) {
        switch alias {
        case "camera": self = .camera
        case "photos", "readImages", "saveImages": self = .photos
        case "location", "coarseLocation": self = .location
        case "receive", "display": self = .notifications
        case "microphone", "recordAudio": self = .microphone
        case "clipboard": self = .clipboard
        case "motion", "accelerometer": self = .motion
        default: return nil
        }
    }

    /// Kinds a `ctl privacy` word names: one kind, `all`, or nil for a word that is neither.
    public static func named(_ word: String) -> [PrivacyKind]? {
        if word == "all" { return allCases }
        return PrivacyKind(rawValue: word).map { [$0] }
    }

    /// Where this kind is asked on this host, for `ctl state`'s fidelity notes: what reaches a
    /// page here, and what the phone would ask that WebKitGTK never does.
    public var reach: String {
        switch self {
        case .camera, .microphone: "getUserMedia: WebKit's user-media request"
        case .location: "navigator.geolocation: WebKit's geolocation request"
        case .notifications: "Notification.requestPermission and a Capacitor app's PushNotifications"
        case .clipboard: "navigator.clipboard.read/readText without a paste gesture: WebKit's clipboard request"
        case .photos: "kept and reported only: a file chooser needs no permission on the phone (the picker runs outside the app) nor here"
        case .motion: "kept and reported only: WebKitGTK has no motion sensors and never asks for DeviceMotion/DeviceOrientation"
        }
    }
}

/// What `ctl privacy` does to the kinds it names.
public enum PrivacyChange: String, Sendable, Equatable, CaseIterable {
    /// Allowed without a prompt.
    case grant
    /// Denied without a prompt.
    case revoke
    /// Asked again, with a prompt, as on first use.
    case reset

    /// The remembered answer it leaves: granted, denied, or none (ask).
    public var answer: Bool? {
        switch self {
        case .grant: true
        case .revoke: false
        case .reset: nil
        }
    }
}

/// `ctl state`'s `privacy`: each kind's setting as simctl has it.
public enum PrivacyState {
    /// `{camera: "granted"|"denied"|"ask", …}` from a profile's remembered answers.
    public static func json(_ remembered: [PermissionKind: Bool]) -> JSONValue {
        var object = JSONObject()
        for kind in PrivacyKind.allCases {
            object[kind.rawValue] = switch remembered[kind.permission] {
            case true?: "granted"
            case false?: "denied"
            case nil: "ask"
            }
        }
        return .object(object)
    }
}

/// `--grant KIND` / `--revoke KIND` on `open` and `capacitor` (repeatable): the privacy
/// settings a run starts with, applied to the app's profile before its page asks anything.
package struct PrivacyLaunch: Sendable {
    package private(set) var changes: [(change: PrivacyChange, kinds: [PrivacyKind])] = []

    package init() {}

    /// Takes `option` (`--grant` or `--revoke`) with its `value`; a clear error for a missing
    /// or unknown kind.
    package mutating func take(_ option: String, _ value: String?) throws(UsageError) {
        let change: PrivacyChange = option == "--grant" ? .grant : .revoke
        let list = PrivacyKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let value, !value.hasPrefix("-") else { throw UsageError("\(option) takes a privacy kind: \(list) or all") }
        guard let kinds = PrivacyKind.named(value) else {
            let near = CommandLineRules.nearest(to: value, among: PrivacyKind.allCases.map(\.rawValue) + ["all"]).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError("\(option): no privacy kind \"\(TerminalText.escaped(value))\"\(near); use \(list) or all")
        }
        changes.append((change, kinds))
    }
}
