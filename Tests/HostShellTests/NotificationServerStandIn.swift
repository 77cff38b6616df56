import CGtk
import Foundation

/// A desktop notification server of the test's own: a session bus of its own (`dbus-daemon
/// --session`, so no other suite's app sees it) on which this process owns
/// `org.freedesktop.Notifications` and answers `Notify` as a desktop's server does, keeping what
/// it was asked to show; `invoke` sends `ActionInvoked` as a person's click on the notification
/// or one of its buttons does. Its bus is served on a thread of its own.
final class NotificationServerStandIn: @unchecked Sendable {
    struct Shown: Sendable {
        let id: UInt32
        let summary: String
        let body: String
        /// Pairs of key and label, as the specification sends them ("default", "", …).
        let actions: [String]
    }

    private let lock = NSLock()
    private var shownList: [Shown] = []
    private var nextId: UInt32 = 1
    private var bus: PrivateBusService!
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    var address: String { bus.address }
    private var connection: OpaquePointer? { bus.connection }

    static let xml = """
        <node><interface name="org.freedesktop.Notifications">
          <method name="GetCapabilities"><arg type="as" direction="out"/></method>
          <method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
            <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
            <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/></method>
          <method name="CloseNotification"><arg type="u" direction="in"/></method>
          <method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
            <arg type="s" direction="out"/><arg type="s" direction="out"/></method>
          <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
          <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
        </interface></node>
        """

    struct Failure: Error, CustomStringConvertible { let description: String }

    init() throws {
        bus = try PrivateBusService(name: "org.freedesktop.Notifications", xml: Self.xml) { [unowned self] connection, node, error in
            let vtable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
            vtable.initialize(to: GDBusInterfaceVTable())
            vtable.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
                let server = Unmanaged<NotificationServerStandIn>.fromOpaque(data!).takeUnretainedValue()
                server.answer(String(cString: method!), parameters, invocation)
            }
            return g_dbus_connection_register_object(connection, "/org/freedesktop/Notifications", node.pointee.interfaces[0],
                                                     vtable, Unmanaged.passUnretained(self).toOpaque(), nil, &error) != 0
        }
    }

    var shown: [Shown] { lock.withLock { shownList } }

    /// A person clicks the notification `id` (`key` "default") or one of its buttons (its key).
    func invoke(_ id: UInt32, key: String) throws {
        var error: UnsafeMutablePointer<GError>?
        var values: [OpaquePointer?] = [g_variant_new_uint32(id), g_variant_new_string(key)]
        guard g_dbus_connection_emit_signal(connection, nil, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                            "ActionInvoked", g_variant_new_tuple(&values, 2), &error) != 0 else {
            defer { g_clear_error(&error) }
            throw Failure(description: "ActionInvoked was not sent: \(error.map { String(cString: $0.pointee.message) } ?? "?")")
        }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    func stop() { bus.stop() }

    private func answer(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        func string(_ index: Int) -> String {
            String(cString: g_variant_get_string(g_variant_get_child_value(parameters, gsize(index)), nil))
        }
        var values: [OpaquePointer?]
        switch method {
        case "GetCapabilities":
            var caps: [OpaquePointer?] = [g_variant_new_string("actions"), g_variant_new_string("body")]
            values = [g_variant_new_array(g_variant_type_new("s"), &caps, 2)]
        case "GetServerInformation":
            let info: [String] = ["stand-in", "hostshell tests", "1", "1.2"]
            values = info.map { g_variant_new_string($0) }
        case "Notify":
            let list = g_variant_get_child_value(parameters, 5)
            let actions = (0..<g_variant_n_children(list)).map { String(cString: g_variant_get_string(g_variant_get_child_value(list, $0), nil)) }
            let id = lock.withLock { () -> UInt32 in
                let id = nextId
                nextId += 1
                shownList.append(Shown(id: id, summary: string(3), body: string(4), actions: actions))
                return id
            }
            values = [g_variant_new_uint32(id)]
        case "CloseNotification":
            values = []
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method)
            return
        }
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&values, gsize(values.count)))
    }
}
