import CGtk
import CapacitorContract
import HostCore
import ShellKit

/// A running Capacitor app's socket for links (`hostshell open-url homesec://…`): one per link
/// scheme the app handles and configuration home, owner-only in the user's runtime directory,
/// the way Studio's `InstanceSocket` takes `tilecast-ios:` links. It accepts `open-url` only.
package enum CapacitorInstance {
    package static func path(forScheme scheme: String) -> String {
        // Named by a hash of both: a socket's path must stay short (108 bytes at most).
        let key = String(cString: g_get_user_config_dir()) + "\u{0}" + scheme
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(cString: g_get_user_runtime_dir()) + "/hostshell/cap-" + String(hash, radix: 36) + ".sock"
    }

    /// Serves the sockets of `app`'s link schemes; a scheme another app already serves is noted
    /// and skipped.
    @MainActor
    package static func serve(_ app: CapacitorApp) -> [ControlServer] {
        var servers: [ControlServer] = []
        for scheme in app.launch.linkSchemes {
            let path = path(forScheme: scheme)
            g_mkdir_with_parents(takeGString(g_path_get_dirname(path)) ?? "/tmp", 0o700)
            do throws(UsageError) {
                servers.append(try ControlServer(path: path, events: app.environment.events) { [weak app] request, answer in
                    guard case .openURL(let url) = request.command, CapacitorURL.scheme(of: url) == scheme else {
                        return answer(ControlResponse.failure(request.id, ControlError("this socket only opens \(scheme): links")))
                    }
                    guard let app else { return answer(ControlResponse.failure(request.id, ControlError("the app is closing"))) }
                    app.openURL(url, launch: false)
                    answer(ControlResponse.ok(request.id, ["message": .string("Opened in \(app.launch.displayName).")]))
                })
            } catch {
                printError("hostshell: note: \(scheme): links go to the other app already running (\(error.message))")
            }
        }
        return servers
    }

    /// `hostshell open-url LINK` for a link of a scheme a running Capacitor app handles: the
    /// exit status, or nil when no app handles it here.
    package static func forward(_ url: String) throws(UsageError) -> Int32? {
        guard let scheme = CapacitorURL.scheme(of: url), scheme != "tilecast-ios",
              let socket = try UnixSocket.connectIfListening(path(forScheme: scheme), app: "the running Capacitor app for \(TerminalText.escaped(scheme)): links")
        else { return nil }
        return try LinkHandoff.hand(url, to: socket)
    }
}
