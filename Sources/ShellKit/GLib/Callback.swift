import CGtk

/// A Swift closure handed to C as `user_data`: the one way HostShell gives GLib, GTK, WebKit or
/// libsoup a callback (`../shared/design/ARCHITECTURE.md`, "C interop"). The C side holds a
/// retained box and gives its reference back through its destroy notify (`Callback.closureNotify`
/// for a signal, `Callback.destroyNotify` for a source, an action or a handler), or, for a
/// one-shot callback with no notify (`GAsyncReadyCallback`, see `AsyncReply`), the callback
/// takes it back when it runs. A closure captures its owner weakly when the owner holds the
/// emitter, so no connection keeps a page, window or server alive.
///
/// The typed connectors (`onSignal`, `onLoadChanged`, `onAlertResponse`, `MainLoop.watch`, …)
/// are built on it, one per callback shape; a C trampoline names its `Callback<Body>` type,
/// since a C function pointer cannot capture a generic parameter.
package final class Callback<Body> {
    package let body: Body
    private init(_ body: Body) { self.body = body }

    /// `body` as user_data: one reference, the C side's to give back.
    package static func retained(_ body: Body) -> UnsafeMutableRawPointer { Unmanaged.passRetained(Callback(body)).toOpaque() }

    /// The closure behind user_data, which stays the C side's.
    package static func body(_ data: UnsafeMutableRawPointer?) -> Body {
        Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue().body
    }

    /// The closure behind user_data, its reference taken back (a one-shot callback's).
    package static func take(_ data: UnsafeMutableRawPointer?) -> Body {
        Unmanaged<Callback>.fromOpaque(data!).takeRetainedValue().body
    }
}

/// The destroy notifies that give a `Callback`'s reference back, whatever its body's type.
package enum CallbackRelease {
    /// A signal handler's (`g_signal_connect_data`): when the handler is disconnected or its
    /// object finalized.
    package static var closureNotify: GClosureNotify { { data, _ in Unmanaged<AnyObject>.fromOpaque(data!).release() } }
    /// A source's, a callback action's or a server handler's (`GDestroyNotify`).
    package static var destroyNotify: GDestroyNotify { { data in Unmanaged<AnyObject>.fromOpaque(data!).release() } }
}

/// One handler of ours on a GObject's signal. GLib owns the closure's box and releases it when
/// the handler goes: disconnected here, or with its object.
package struct SignalConnection {
    package let instance: UnsafeMutableRawPointer
    package let id: gulong

    package init(_ instance: UnsafeMutableRawPointer, _ id: gulong) {
        self.instance = instance
        self.id = id
    }

    /// Stops the handler (GLib releases its box); nothing when it is gone already. The object
    /// must still be alive.
    @MainActor
    package func disconnect() {
        guard id != 0, g_signal_handler_is_connected(instance, id) != 0 else { return }
        g_signal_handler_disconnect(instance, id)
    }
}

extension Array where Element == SignalConnection {
    /// Stops every handler in the list.
    @MainActor
    package func disconnect() { for connection in self { connection.disconnect() } }
}

/// A `GAsyncReadyCallback` and its user_data: `body` runs once, on the main thread, with the
/// source object and the result to finish the call with; its box is released then (GIO's
/// asynchronous calls take no destroy notify, and call back exactly once).
@MainActor
package enum AsyncReply {
    package typealias Body = @MainActor (_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) -> Void

    /// The user_data for `callback`.
    package static func data(_ body: @escaping Body) -> UnsafeMutableRawPointer { Callback.retained(body) }

    package static var callback: GAsyncReadyCallback {
        { source, result, data in
            let body = Callback<Body>.take(data)
            MainActor.assumeIsolated { body(source, result) }
        }
    }
}

/// A completion that runs the first time it fires, whichever of several sources (a signal, a
/// reply, a time limit) comes first; later fires do nothing.
@MainActor
package final class FireOnce<Value> {
    private var done: (@MainActor (Value) -> Void)?
    package init(_ done: @escaping @MainActor (Value) -> Void) { self.done = done }
    package func fire(_ value: Value) {
        let body = done
        done = nil
        body?(value)
    }
}
