import HostCore

/// What the emulated Hermes app asks its host to do (push CONTRACT §4); the glue carries each
/// out and reports back to `HermesClient`.
public enum HermesDeviceAction: Sendable, Equatable {
    /// `GET /api/dashboard/plugins/hub` → `HermesClient.readinessProbed`.
    case probeReadiness
    /// Show the system's notification permission prompt → `permissionAnswered`.
    case askPermission
    /// Register with the push service for a device token → `tokenReceived`.
    case requestToken
    /// `POST …/hermes-push/register` → `registerAnswered`.
    case register(token: String, environment: APNsEnvironment, appVersion: String)
    /// `POST …/hermes-push/unregister` (best effort: its answer changes nothing).
    case unregister(token: String)
    /// `POST …/hermes-push/test` → `testAnswered`.
    case sendTest
    /// The app put a session on screen.
    case openSession(String)
}

/// How the readiness probe's answer reads (push CONTRACT §3): the hub lists `hermes-push` with
/// `runtime_status == "enabled"` → ready; listed otherwise or absent → not ready; 404, 5xx or no
/// answer → unknown.
public enum HermesReadiness: String, Sendable, CaseIterable {
    case unprobed, probing, ready
    case notReady = "not-ready"
    case unknown

    public static func classify(status: Int?, body: JSONValue?) -> HermesReadiness {
        guard let status, (200..<300).contains(status) else { return .unknown }
        guard let plugins = body?.objectValue?["plugins"]?.arrayValue ?? body?.arrayValue else { return .unknown }
        guard let plugin = plugins.first(where: { $0.objectValue?["name"]?.stringValue == HermesPluginServer.pluginName }) else {
            return .notReady
        }
        return plugin.objectValue?["runtime_status"]?.stringValue == "enabled" ? .ready : .notReady
    }
}

/// "Later" on the setup offer: 1, 2, 3, 5, 8, 13, 21, 34, 55 days, then 60 days from the tenth on.
public enum HermesSnooze {
    public static let days = [1, 2, 3, 5, 8, 13, 21, 34, 55]
    public static let longest = 60
    public static let secondsPerDay = 86_400.0

    /// The snooze after the `count`-th "Later" (1 = the first).
    public static func days(afterLater count: Int) -> Int {
        count >= 1 && count <= days.count ? days[count - 1] : longest
    }
}
