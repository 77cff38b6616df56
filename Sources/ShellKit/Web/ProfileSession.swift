import CGtk

/// A server profile's WebKit network session: website data and cache in its own directories,
/// and cookies persisted to SQLite (WebKit keeps them in memory only unless told otherwise), so
/// a server's sign-in survives restarts and no two servers share cookies or storage.
package enum ProfileSession {
    package static func make(data: String, cache: String) -> NetworkSessionPointer {
        g_mkdir_with_parents(data, 0o700)
        g_mkdir_with_parents(cache, 0o700)
        let session = webkit_network_session_new(data, cache)!
        webkit_cookie_manager_set_persistent_storage(webkit_network_session_get_cookie_manager(session),
                                                     data + "/cookies.sqlite", WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
        return session
    }
}
