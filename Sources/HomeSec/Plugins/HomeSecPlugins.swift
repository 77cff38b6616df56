import CapacitorContract
import HostCore
import Push

/// HomeSec's own native plugins, which its iOS app registers beside Capacitor's: added to a
/// Capacitor app by the command that runs HomeSec, never built into every app.
public enum HomeSecPluginTypes {
    public static let all: [any CapacitorPlugin.Type] = [HomeSecAuthPlugin.self, HomeSecDevicePlugin.self]
}

/// `HomeSecAuth` on the Capacitor seam: every call goes to the glue as one request
/// (`homesec.auth`), which runs `HomeSecAuth.call` — the rules — against the platform secret
/// store and hands back the answer with the store's entry names. The plugin turns the answer into
/// the page's result, every rejection with `HOMESEC_AUTH_STORAGE_ERROR`.
public struct HomeSecAuthPlugin: CapacitorPlugin {
    public static let name = HomeSecAuth.pluginName
    public static var secretValueMethods: Set<String> { HomeSecAuth.secretValueMethods }
    public static let methods = HomeSecAuth.methods.map { CapacitorMethod($0) }
    /// The request's action; its arguments are `{method, options}`.
    public static let action = "homesec.auth"

    /// The store's entry names as of the last call (nil before any), for `ctl state`.
    public private(set) var entries: JSONValue?
    /// Which store holds them (`secret-service` or `file`), as the glue reported.
    public private(set) var store: String?

    public init(_ app: CapacitorAppInfo) {}

    public mutating func call(_ call: CapacitorCall) -> [PluginEffect] {
        [.ask(action: Self.action, arguments: ["method": .string(call.methodName), "options": .object(call.options)], call: call)]
    }

    public mutating func answered(_ answer: HostAnswer) -> [PluginEffect] {
        guard answer.action == Self.action, let call = answer.call else { return [] }
        switch answer.outcome {
        case .failure(let failure):
            return [.reject(call, CapacitorError(failure.message, code: HomeSecAuth.errorCode))]
        case .success(let value):
            let reply = value.objectValue ?? [:]
            if let names = reply["entries"] { entries = names }
            if let kind = reply["store"]?.stringValue { store = kind }
            switch HomeSecAuth.Answer(reply: reply) {
            case .resolve(let data)?: return [.resolve(call, data?.objectValue)]
            case .reject(let message)?: return [.reject(call, CapacitorError(message, code: HomeSecAuth.errorCode))]
            case nil: return [.reject(call, CapacitorError("The secret store's answer could not be read.", code: HomeSecAuth.errorCode))]
            }
        }
    }

    /// The glue's report of the store's entry names at start (`{entries, store}`).
    public static let entriesEvent = "homesec.entries"

    public mutating func hostEvent(_ event: PluginHostEvent) -> [PluginEffect]? {
        guard case .custom(Self.entriesEvent, let data) = event else { return nil }
        if let names = data["entries"] { entries = names }
        if let kind = data["store"]?.stringValue { store = kind }
        return []
    }

    public var state: JSONObject {
        ["entries": entries ?? .null, "store": store.map(JSONValue.string) ?? .null]
    }
}

extension HomeSecAuth.Answer {
    /// The glue's reply: `{"resolve": data|null}` or `{"reject": message}` (plus `entries`,
    /// `store`, which the plugin reads separately).
    public var reply: JSONObject {
        switch self {
        case .resolve(let data): ["resolve": data ?? .null]
        case .reject(let message): ["reject": .string(message)]
        }
    }

    /// Reads `reply`; nil when it is neither shape.
    public init?(reply: JSONObject) {
        if let message = reply["reject"]?.stringValue {
            self = .reject(message)
        } else if let data = reply["resolve"] {
            self = .resolve(data.isNull ? nil : data)
        } else {
            return nil
        }
    }
}

/// `HomeSecDevice` on the Capacitor seam: everything it reports is the app's configuration and
/// the command's facts (`appId`, version, the machine's name, `--apns-environment`), so it needs
/// no glue.
public struct HomeSecDevicePlugin: CapacitorPlugin {
    public static let name = HomeSecDevice.pluginName
    public static let methods = HomeSecDevice.methods.map { CapacitorMethod($0) }

    public let device: HomeSecDevice

    public init(_ app: CapacitorAppInfo) {
        device = HomeSecDevice(bundleId: app.appId, appVersion: app.appVersion, deviceName: app.deviceName,
                               environment: APNsEnvironment(flag: app.apnsEnvironment) ?? .sandbox)
    }

    public mutating func call(_ call: CapacitorCall) -> [PluginEffect] {
        switch device.call(call.methodName) {
        case .resolve(let data)?: [.resolve(call, data.objectValue)]
        case .reject(let message)?: [.reject(call, CapacitorError(message, code: HomeSecDevice.errorCode))]
        case nil: [.reject(call, .unknownMethod(Self.name, call.methodName))]
        }
    }

    public var state: JSONObject {
        ["bundleId": device.bundleId.map(JSONValue.string) ?? .null,
         "apnsEnvironment": .string(device.environment.rawValue),
         "appVersion": device.appVersion.map(JSONValue.string) ?? .null,
         "deviceName": device.deviceName.map(JSONValue.string) ?? .null]
    }
}
