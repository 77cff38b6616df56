import CGtk

/// A `GtkSignalListItemFactory`'s "setup" or "bind" (`signal`), with the list item.
@MainActor @discardableResult
package func onListItem(_ factory: OpaquePointer, _ signal: String,
                        _ body: @escaping @MainActor (OpaquePointer) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(factory), cgtk_connect_list_item(factory, signal, { _, item, data in
        guard let item else { return }
        let body = Callback<@MainActor (OpaquePointer) -> Void>.body(data)
        MainActor.assumeIsolated { body(item) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkListView`'s "activate" (Enter, or a click on an activatable row), with the position.
@MainActor @discardableResult
package func onListActivate(_ view: WidgetPointer, _ body: @escaping @MainActor (UInt32) -> Void) -> SignalConnection {
    SignalConnection(raw(view), cgtk_connect_list_activate(view, { _, position, data in
        let body = Callback<@MainActor (UInt32) -> Void>.body(data)
        MainActor.assumeIsolated { body(position) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}
