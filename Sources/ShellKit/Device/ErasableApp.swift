import CGtk
import HostCore

/// What `ctl erase` needs from a hosted app beyond the core's: where its website data is, its
/// secrets, and how it starts again at its start page. An app that is not one refuses erase.
@MainActor
package protocol ErasableApp: HostedApp {
    /// The network sessions holding its website data (the server's or the app's profile).
    var erasableSessions: [NetworkSessionPointer] { get }
    /// Removes its secrets (a server's sign-in credential, a Capacitor app's secret stores) and
    /// names what went, for the `erased` event.
    func eraseSecrets() -> [String]
    /// Loads its start page in a new web process, as at launch.
    func restartAtStartPage()
}

/// Website data removal: everything WebKit keeps for a network session.
@MainActor
enum WebsiteDataEraser {
    static func clear(_ sessions: [NetworkSessionPointer], done: @escaping @MainActor () -> Void) {
        var left = sessions.count
        guard left > 0 else { return done() }
        for session in sessions {
            let manager = webkit_network_session_get_website_data_manager(session)
            webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, AsyncReply.callback, AsyncReply.data { source, result in
                var error: UnsafeMutablePointer<GError>?
                _ = webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error)
                g_clear_error(&error)
                left -= 1
                if left == 0 { done() }
            })
        }
    }
}
