import CGtk

// Typed connectors for GIO's signals and libsoup's handlers (see `Callback`).

/// A `GSocketService`'s "incoming": `body` true when it took the connection.
@MainActor @discardableResult
package func onIncoming(_ service: UnsafeMutablePointer<GSocketService>,
                        _ body: @escaping @MainActor (UnsafeMutablePointer<GSocketConnection>) -> Bool) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(service), cgtk_connect_incoming(service, { _, connection, _, data in
        guard let connection else { return 0 }
        let body = Callback<@MainActor (UnsafeMutablePointer<GSocketConnection>) -> Bool>.body(data)
        return MainActor.assumeIsolated { body(connection) } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GMemoryMonitor`'s "low-memory-warning" (any level).
@MainActor @discardableResult
package func onLowMemory(_ monitor: OpaquePointer, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(monitor), cgtk_connect_low_memory(monitor, { _, _, data in
        let body = Callback<@MainActor () -> Void>.body(data)
        MainActor.assumeIsolated { body() }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

extension SoupServing {
    /// Handles every request to `server` with `body` (the message and its path); the server
    /// holds the closure and releases it when it goes.
    @MainActor
    package static func handle(_ server: UnsafeMutablePointer<SoupServer>, _ body: @escaping @MainActor (_ message: OpaquePointer, _ path: String) -> Void) {
        cgtk_soup_server_add_handler(server, nil, { _, message, path, _, data in
            guard let message else { return }
            let body = Callback<@MainActor (OpaquePointer, String) -> Void>.body(data)
            let route = path.map { String(cString: $0) } ?? "/"
            MainActor.assumeIsolated { body(message, route) }
        }, Callback.retained(body), CallbackRelease.destroyNotify)
    }

    /// Every request header, in order (read while `soup_message_headers_foreach` runs: the
    /// list it appends to outlives the call).
    package static func headers(_ message: OpaquePointer) -> [(name: String, value: String)] {
        var list: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &list) { pointer in
            soup_message_headers_foreach(soup_server_message_get_request_headers(message), { name, value, data in
                data!.assumingMemoryBound(to: [(name: String, value: String)].self).pointee.append((String(cString: name!), String(cString: value!)))
            }, pointer)
        }
        return list
    }
}
