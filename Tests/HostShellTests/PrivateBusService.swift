import CGtk
import Foundation

/// A session bus of a test's own (`dbus-daemon --session`, so no other suite's app sees it) and
/// a thread of this process serving one well-known name on it: the ground the desktop services'
/// stand-ins (`NotificationServerStandIn`, `SecretServiceStandIn`) stand on. `register` puts the
/// stand-in's objects on the connection (nonzero: done; else it sets `error`); the name is then
/// asked for, and the connection served until `stop`.
final class PrivateBusService: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    private let daemon: Process
    private let lock = NSLock()
    private var running = true
    private var context: OpaquePointer?
    private var connectionPointer: OpaquePointer?
    private let served = DispatchSemaphore(value: 0)
    private var failure: String?

    private let configFile = FileManager.default.temporaryDirectory.appendingPathComponent("hostshell-bus-\(UUID().uuidString).conf")
    /// A session bus that starts nothing by itself (no service directories). The standard one
    /// would start the accessibility bus launcher when an app's GTK asks for it, a second one on
    /// the suites' shared display: it takes the display's socket (~/.cache/at-spi/bus_N) and
    /// removes it when this bus ends, and every app started after that logs a GTK critical.
    /// Without it, GTK here reaches the display's own accessibility bus (its X property).
    static let configuration = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:tmpdir=/tmp</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """

    /// The stand-in's connection to the bus, once serving.
    var connection: OpaquePointer? { lock.withLock { connectionPointer } }

    init(name: String, xml: String,
         register: @escaping @Sendable (_ connection: OpaquePointer, _ node: UnsafeMutablePointer<GDBusNodeInfo>,
                              _ error: inout UnsafeMutablePointer<GError>?) -> Bool) throws {
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        try Self.configuration.write(to: configFile, atomically: true, encoding: .utf8)
        daemon.arguments = ["--config-file=\(configFile.path)", "--nofork", "--print-address=1"]
        guard let printed = try runUntilFirstLine(daemon) else { throw Failure(description: "dbus-daemon ended without an address") }
        address = printed
        let thread = Thread { [unowned self] in self.serve(name: name, xml: xml, register: register) }
        thread.start()
        served.wait()
        if let failure { stop(); throw Failure(description: failure) }
    }

    func stop() {
        lock.withLock { running = false }
        if let context { g_main_context_wakeup(context) }
        // dbus-daemon takes SIGTERM as no reason to end; its bus is the test's alone.
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
        try? FileManager.default.removeItem(at: configFile)
    }

    private func serve(name: String, xml: String,
                       register: (OpaquePointer, UnsafeMutablePointer<GDBusNodeInfo>, inout UnsafeMutablePointer<GError>?) -> Bool) {
        let context = g_main_context_new()
        self.context = context
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error),
              let node = g_dbus_node_info_new_for_xml(xml, &error) else {
            failure = "the stand-in could not start: \(error.map { String(cString: $0.pointee.message) } ?? "?")"
            served.signal()
            return
        }
        lock.withLock { connectionPointer = connection }
        var owned: [OpaquePointer?] = [g_variant_new_string(name), g_variant_new_uint32(4)]
        let reply = !register(connection, node, &error) ? nil : g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
            g_variant_new_tuple(&owned, 2), g_variant_type_new("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        if reply == nil || g_variant_get_uint32(g_variant_get_child_value(reply, 0)) != 1 {
            failure = "the stand-in could not own \(name): \(error.map { String(cString: $0.pointee.message) } ?? "not the primary owner")"
        }
        served.signal()
        while lock.withLock({ running }) && failure == nil { g_main_context_iteration(context, 1) }
        g_dbus_connection_close_sync(connection, nil, nil)
    }
}
