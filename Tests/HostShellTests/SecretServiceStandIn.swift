import CGtk
import Foundation

/// A Secret Service of the test's own (`org.freedesktop.secrets` on a private session bus, as
/// `NotificationServerStandIn` makes one): an empty, unlocked default collection that answers
/// libsecret's probe and lookups — except a search for the server `holding`, which it never
/// answers, as a keyring whose prompt nobody sees never does. The app's synchronous call then
/// blocks its main thread: the real situation of issue 32 item 1, without a keyring. With
/// `holdingWrites`, it never answers a write either (`CreateItem`), as a keyring whose "new
/// password" prompt is up and unanswered.
final class SecretServiceStandIn: @unchecked Sendable {
    let holding: String
    let holdingWrites: Bool
    /// No default collection yet (a fresh keyring): the first write would ask for a new password.
    let noDefault: Bool
    private var writesHeld = 0
    private let lock = NSLock()
    private var heldCount = 0
    private var bus: PrivateBusService!
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    var address: String { bus.address }

    static let collection = "/org/freedesktop/secrets/collection/login"
    static let xml = """
        <node>
          <interface name="org.freedesktop.Secret.Service">
            <method name="OpenSession"><arg type="s" direction="in"/><arg type="v" direction="in"/>
              <arg type="v" direction="out"/><arg type="o" direction="out"/></method>
            <method name="SearchItems"><arg type="a{ss}" direction="in"/><arg type="ao" direction="out"/><arg type="ao" direction="out"/></method>
            <method name="ReadAlias"><arg type="s" direction="in"/><arg type="o" direction="out"/></method>
            <property name="Collections" type="ao" access="read"/>
          </interface>
          <interface name="org.freedesktop.Secret.Collection">
            <method name="SearchItems"><arg type="a{ss}" direction="in"/><arg type="ao" direction="out"/></method>
            <method name="CreateItem"><arg type="a{sv}" direction="in"/><arg type="(oayays)" direction="in"/><arg type="b" direction="in"/>
              <arg type="o" direction="out"/><arg type="o" direction="out"/></method>
            <property name="Items" type="ao" access="read"/>
            <property name="Label" type="s" access="read"/>
            <property name="Locked" type="b" access="read"/>
            <property name="Created" type="t" access="read"/>
            <property name="Modified" type="t" access="read"/>
          </interface>
        </node>
        """

    init(holding: String, holdingWrites: Bool = false, noDefault: Bool = false) throws {
        self.holding = holding
        self.holdingWrites = holdingWrites
        self.noDefault = noDefault
        bus = try PrivateBusService(name: "org.freedesktop.secrets", xml: Self.xml) { [unowned self] connection, node, error in
            let vtable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
            vtable.initialize(to: GDBusInterfaceVTable())
            vtable.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
                let server = Unmanaged<SecretServiceStandIn>.fromOpaque(data!).takeUnretainedValue()
                server.answer(String(cString: method!), parameters, invocation)
            }
            vtable.pointee.get_property = { _, _, _, _, property, _, _ in
                SecretServiceStandIn.property(String(cString: property!))
            }
            let me = Unmanaged.passUnretained(self).toOpaque()
            // The service, its default collection, and that collection again through the alias's
            // path (libsecret writes to the default collection through it).
            return g_dbus_connection_register_object(connection, "/org/freedesktop/secrets", node.pointee.interfaces[0], vtable, me, nil, &error) != 0
                && g_dbus_connection_register_object(connection, Self.collection, node.pointee.interfaces[1], vtable, me, nil, &error) != 0
                && g_dbus_connection_register_object(connection, "/org/freedesktop/secrets/aliases/default", node.pointee.interfaces[1],
                                                     vtable, me, nil, &error) != 0
        }
    }

    /// How many calls it holds unanswered.
    var held: Int { lock.withLock { heldCount } }
    /// How many writes it holds unanswered.
    var heldWrites: Int { lock.withLock { writesHeld } }

    func stop() { bus.stop() }

    private static func paths(_ list: [String]) -> OpaquePointer? {
        var items: [OpaquePointer?] = list.map { g_variant_new_object_path($0) }
        return g_variant_new_array(g_variant_type_new("o"), &items, gsize(items.count))
    }

    private static func property(_ name: String) -> OpaquePointer? {
        switch name {
        case "Collections": return paths([collection])
        case "Items": return paths([])
        case "Label": return g_variant_new_string("Login")
        case "Locked": return g_variant_new_boolean(0)
        case "Created", "Modified": return g_variant_new_uint64(1_700_000_000)
        default: return nil
        }
    }

    private func answer(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        var values: [OpaquePointer?]
        switch method {
        case "OpenSession":
            let algorithm = String(cString: g_variant_get_string(g_variant_get_child_value(parameters, 0), nil))
            guard algorithm == "plain" else {
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.NotSupported", "plain only")
                return
            }
            values = [g_variant_new_variant(g_variant_new_string("")), g_variant_new_object_path("/org/freedesktop/secrets/session/s1")]
        case "ReadAlias":
            values = [g_variant_new_object_path(noDefault ? "/" : Self.collection)]
        case "SearchItems":
            let server = g_variant_lookup_value(g_variant_get_child_value(parameters, 0), "server", g_variant_type_new("s"))
            if let server, String(cString: g_variant_get_string(server, nil)) == holding {
                // Never answered: the invocation is kept (never returned nor freed).
                lock.withLock { heldCount += 1 }
                return
            }
            // Nothing saved: the service answers (unlocked, locked), a collection its items.
            values = invocationIsCollection(invocation) ? [Self.paths([])] : [Self.paths([]), Self.paths([])]
        case "CreateItem" where holdingWrites:
            lock.withLock { writesHeld += 1 }
            return
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method)
            return
        }
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&values, gsize(values.count)))
    }

    private func invocationIsCollection(_ invocation: OpaquePointer?) -> Bool {
        String(cString: g_dbus_method_invocation_get_interface_name(invocation)) == "org.freedesktop.Secret.Collection"
    }
}
