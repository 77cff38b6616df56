import Glibc

/// A run with no session bus keeps it that way. Asked for the session bus with no address in
/// the environment and none at `$XDG_RUNTIME_DIR/bus`, GLib runs `dbus-launch --autolaunch`,
/// which starts a bus, and the bus starts the keyring on first use — as a side effect of
/// whatever asked (WebKit's network process reading its proxy settings through dconf does, at
/// once). `keepAbsent` gives this process and its children an address that cannot connect, so
/// each asker hears "no bus" at once and nothing is started (issue 32 item 1).
package enum NoSessionBus {
    /// Unconnectable on purpose: a path that exists (WebKit's sandbox binds the bus's path, and
    /// fails on one that does not) but is no socket, so a connection is refused at once.
    package static let address = "unix:path=/dev/null"

    /// Called before GTK starts (before any thread reads the environment).
    package static func keepAbsent() {
        if let given = getenv("DBUS_SESSION_BUS_ADDRESS"), given.pointee != 0 { return }
        if let runtime = getenv("XDG_RUNTIME_DIR"), access(String(cString: runtime) + "/bus", F_OK) == 0 { return }
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
    }

    /// Whether `keepAbsent` found no bus.
    package static var isAbsent: Bool {
        guard let given = getenv("DBUS_SESSION_BUS_ADDRESS") else { return false }
        return String(cString: given) == address
    }
}
