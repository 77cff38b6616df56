import HostCore
import Push

/// HomeSec's own `HomeSecDevice` plugin (capacitor-shell CONTRACT §4): what the app tells its
/// server when it registers for push.
public struct HomeSecDevice: Sendable, Equatable {
    public static let pluginName = "HomeSecDevice"
    public static let errorCode = "HOMESEC_DEVICE_INFO_ERROR"
    public static let missingBundleId = "App bundle identifier is unavailable."
    public static let methods = ["getRegistrationInfo"]

    /// The bundle id is the config's `appId`; nil when the app has none.
    public var bundleId: String?
    public var appVersion: String?
    public var deviceName: String?
    public var environment: APNsEnvironment

    /// Each text trimmed, and absent when nothing is left (as the phone app reports them).
    public init(bundleId: String?, appVersion: String?, deviceName: String?, environment: APNsEnvironment) {
        func clean(_ text: String?) -> String? {
            guard let text else { return nil }
            let trimmed = String(HomeSecServerURL.trim(text))
            return trimmed.isEmpty ? nil : trimmed
        }
        self.bundleId = clean(bundleId)
        self.appVersion = clean(appVersion)
        self.deviceName = clean(deviceName)
        self.environment = environment
    }

    public enum Answer: Sendable, Equatable {
        case resolve(JSONValue)
        case reject(String)
    }

    /// `getRegistrationInfo`; nil for a method that is not this plugin's.
    public func call(_ method: String) -> Answer? {
        guard method == "getRegistrationInfo" else { return nil }
        guard let bundleId else { return .reject(Self.missingBundleId) }
        return .resolve(["apnsEnvironment": .string(environment.rawValue),
                         "appVersion": appVersion.map(JSONValue.string) ?? .null,
                         "bundleId": .string(bundleId),
                         "deviceName": deviceName.map(JSONValue.string) ?? .null])
    }
}
