import CGtk
import Glibc

/// What the app asks of the session bus itself (`doctor`, and the desktop notifications of
/// downloads and of Capacitor apps): who owns a name, which names it can start, and a
/// `GApplication` registered under an app id to send notifications through.
@MainActor
package enum SessionBus {
    /// Whether a process owns `name` on `bus`.
    package static func nameHasOwner(_ bus: OpaquePointer, _ name: String) -> Bool {
        call(bus, "NameHasOwner", name) { reply in
            let value = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(value) }
            return g_variant_get_boolean(value) != 0
        } ?? false
    }

    /// Whether the bus would start a service for `name` on first use (gnome-keyring is).
    package static func activatable(_ bus: OpaquePointer, _ name: String) -> Bool {
        call(bus, "ListActivatableNames", nil) { reply in
            let list = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(list) }
            var length = 0
            guard let names = g_variant_get_strv(list, &length) else { return false }
            defer { g_free(UnsafeMutableRawPointer(mutating: names)) }
            return (0..<length).contains { names[$0].map { String(cString: $0) == name } ?? false }
        } ?? false
    }

    /// Nil when a notification server owns `org.freedesktop.Notifications`; otherwise why not.
    static func notificationServerProblem() -> String? {
        // No address and no bus at the usual place: say so rather than let GLib launch one.
        let runtimeBus = String(cString: g_get_user_runtime_dir()) + "/bus"
        guard !NoSessionBus.isAbsent, g_getenv("DBUS_SESSION_BUS_ADDRESS") != nil || access(runtimeBus, F_OK) == 0 else { return "no session bus" }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return "no session bus"
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        return nameHasOwner(bus, "org.freedesktop.Notifications") ? nil : "no notification server on the session bus"
    }

    /// A `GApplication` under `appId` (not unique: several hosts may run) with the actions
    /// `addActions` gives it, registered on the session bus to send notifications through — or
    /// why there is none: no notification server, an id the desktop refuses, no bus.
    package static func notifyingApplication(_ appId: String, addActions: (UnsafeMutablePointer<GApplication>) -> Void)
        -> (application: UnsafeMutablePointer<GApplication>?, problem: String?) {
        if let problem = notificationServerProblem() { return (nil, problem) }
        guard g_application_id_is_valid(appId) != 0 else { return (nil, "\(appId) is not a valid application id for the desktop") }
        let application = g_application_new(appId, G_APPLICATION_NON_UNIQUE)!
        addActions(application)
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(application, nil, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            g_clear_error(&error)
            g_object_unref(UnsafeMutableRawPointer(application))
            return (nil, "the app could not register on the session bus (\(reason))")
        }
        return (application, nil)
    }

    /// Calls a method of the bus itself; the reply (unreferenced after the body) or nil.
    private static func call<T>(_ bus: OpaquePointer, _ method: String, _ argument: String?, _ body: (OpaquePointer) -> T) -> T? {
        var error: UnsafeMutablePointer<GError>?
        var arguments: [OpaquePointer?] = argument.map { [g_variant_new_string($0)] } ?? []
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5_000, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        return body(reply)
    }
}
