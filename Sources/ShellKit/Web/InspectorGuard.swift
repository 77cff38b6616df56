import CGtk
import Glibc
import HostCore

/// WebKit's remote inspector, which WebKitWebDriver reaches over loopback TCP: a listener any
/// local user could otherwise connect to and inspect or script every page through (console,
/// storage, DOM), around `--allow-eval`. HostShell lets it listen only when a WebDriver session
/// is what the run is for (`--automation`), only on a loopback address, and only for the user
/// who started it: a connection whose socket another user made is closed before WebKit reads a
/// byte (the kernel's socket tables say who made it: `SocketOwner`). WebKit reads the variable
/// once, when its first type is made, so it is taken out of the environment first thing.
package enum InspectorGuard {
    static let webKitVariable = "WEBKIT_INSPECTOR_SERVER"
    /// WebKit's inspector over HTTP and WebSocket: never honoured (no user check can be made on it).
    static let httpVariable = "WEBKIT_INSPECTOR_HTTP_SERVER"
    /// Where the driver's address is kept between `main` and `--automation`.
    static let keptVariable = "HOSTSHELL_WEBDRIVER_INSPECTOR"

    /// First thing in `main`, before GTK or WebKit: no inspector listens unless the run asks.
    package static func takeFromEnvironment() {
        if let value = getenv(webKitVariable) { setenv(keptVariable, value, 1) }
        unsetenv(webKitVariable)
        unsetenv(httpVariable)
    }

    /// Whether a driver may connect now, asked for each connection that passed the user check:
    /// nil lets it through, a reason closes it (a fleet's one session at a time, `FleetSessions`).
    @MainActor package static var admission: (@MainActor () -> String?)?

    /// For `--automation`, before WebKit's first type: gives WebKit the driver's address back
    /// (a loopback one only) and lets only this user's connections through. Nil, or why no
    /// WebDriver can connect (for the person).
    @MainActor
    package static func allowForAutomation() -> String? {
        guard let kept = getenv(keptVariable).map({ String(cString: $0) }) else {
            return "no WebDriver started this app (WEBKIT_INSPECTOR_SERVER is not set), so none can connect; let WebKitWebDriver start it (README: WebDriver)"
        }
        unsetenv(keptVariable)  // not handed on to anything this app starts
        switch InspectorAddress.parse(kept) {
        case .failure(let error):
            return "WEBKIT_INSPECTOR_SERVER refused: \(error.message)"
        case .success(let endpoint):
            // The hook holds the port as its data (an integer, nothing to release).
            _ = cgtk_add_incoming_hook({ _, _, values, data in
                guard let values else { return 1 }
                InspectorGuard.check(values, port: UInt16(truncatingIfNeeded: Int(bitPattern: data)))
                return 1  // keep the hook for the next connection
            }, UnsafeMutableRawPointer(bitPattern: endpoint.port))
            setenv(webKitVariable, kept, 1)
            return nil
        }
    }

    /// Closes `values`' connection when it reaches the inspector's `port` from a socket another
    /// user made, or one the tables do not show (refused when unsure). Any other listener's
    /// connections pass untouched.
    nonisolated static func check(_ values: UnsafePointer<GValue>, port: UInt16) {
        var localPort: UInt16 = 0, remotePort: UInt16 = 0
        guard let local = cgtk_incoming_endpoint(values, 0, &localPort) else { return }
        defer { g_free(local) }
        guard localPort == port else { return }
        guard let remote = cgtk_incoming_endpoint(values, 1, &remotePort) else { return cgtk_incoming_refuse(values) }
        defer { g_free(remote) }
        let tables = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { path -> String? in
            (try? FileReading.bytes(path, limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) }
        }.joined(separator: "\n")
        let owner = SocketOwner.uid(peer: .init(String(cString: remote), Int(remotePort)),
                                    local: .init(String(cString: local), Int(localPort)), tables: tables)
        if owner != getuid() { return cgtk_incoming_refuse(values) }
        // GLib emits "incoming" on the main thread, where the main loop runs.
        let refusal = MainActor.assumeIsolated { admission?() }
        if let refusal {
            printError("hostshell: a WebDriver connection from port \(remotePort) refused: \(refusal)")
            cgtk_incoming_refuse(values)
        }
    }
}
