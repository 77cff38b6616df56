import CGtk
import ShellKit

/// The server's cookies in its own website data (its network session): the Studio session
/// cookie a sign-in or renewal brought is put there, and a sign-out deletes them all — nothing
/// of another server is touched, since each has its own session.
@MainActor
package enum StudioCookies {
    /// Puts `cookie` (owned: freed here) into the session's cookie manager, then calls `then`.
    static func put(_ cookie: OpaquePointer, into session: NetworkSessionPointer, then: @escaping @MainActor () -> Void) {
        let manager = webkit_network_session_get_cookie_manager(session)
        webkit_cookie_manager_add_cookie(manager, cookie, nil, AsyncReply.callback, AsyncReply.data { source, result in
            var error: UnsafeMutablePointer<GError>?
            _ = webkit_cookie_manager_add_cookie_finish(OpaquePointer(source), result, &error)
            g_clear_error(&error)
            then()
        })
        soup_cookie_free(cookie)
    }

    /// Deletes every cookie of the session, then calls `then`.
    static func deleteAll(in session: NetworkSessionPointer, then: @escaping @MainActor () -> Void) {
        let manager = webkit_network_session_get_website_data_manager(session)
        webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_COOKIES, 0, nil, AsyncReply.callback, AsyncReply.data { source, result in
            var error: UnsafeMutablePointer<GError>?
            _ = webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error)
            g_clear_error(&error)
            then()
        })
    }
}
