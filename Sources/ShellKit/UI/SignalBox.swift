import CGtk

/// Connects a GTK signal whose handler takes no arguments (C shape `(instance, user_data)`:
/// "clicked", "destroy", …) to a Swift closure. The closure box is
/// retained by the connection and released when the widget is destroyed.
@MainActor
package func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void) {
    cgtk_connect_void(instance, signal, { _, data in
        let box = Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { box.body() }
    }, Unmanaged.passRetained(ClosureBox(body)).toOpaque(), { data, _ in
        Unmanaged<ClosureBox>.fromOpaque(data!).release()
    })
}

/// Runs `body` whenever the object's `property` changes ("notify::PROPERTY").
@MainActor
package func onNotify(_ instance: UnsafeMutableRawPointer, _ property: String, _ body: @escaping @MainActor () -> Void) {
    cgtk_connect_notify(instance, property, { _, _, data in
        let box = Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { box.body() }
    }, Unmanaged.passRetained(ClosureBox(body)).toOpaque(), { data, _ in
        Unmanaged<ClosureBox>.fromOpaque(data!).release()
    })
}

/// A widget pointer as the untyped pointer GObject calls take.
package typealias WidgetPointer = UnsafeMutablePointer<GtkWidget>

package func raw(_ widget: WidgetPointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(widget) }

/// GTK's typed upcasts: a widget pointer as the pointer type a `gtk_*` function takes, which is a
/// typed pointer for complete structs (GtkBox, GtkButton, …) and opaque for the others.
package func cast<T>(_ widget: WidgetPointer) -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self) }
package func cast(_ widget: WidgetPointer) -> OpaquePointer { OpaquePointer(widget) }

/// The window `widget` is shown in, as the parent for dialogs, or nil while it is not in one.
@MainActor
package func windowOf(_ widget: WidgetPointer) -> WidgetPointer? {
    gtk_widget_get_root(widget).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
}

/// Takes the window's keyboard focus out of `widget` (and its descendants) before it leaves the
/// window: GTK 4.8 keeps a widget taken out of the window as the window's focus, alive only by
/// that reference, and frees it in the middle of the next focus change, which then reads it
/// (a GtkLabel taking focus checks whether the old focus is inside it: a critical on a freed
/// widget). `to` takes the focus instead when it can; otherwise nothing has it.
@MainActor
package func releaseFocus(from widget: WidgetPointer, to successor: WidgetPointer? = nil) {
    guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return }
    let focused = UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GtkWidget.self)
    guard focused == widget || gtk_widget_is_ancestor(focused, widget) != 0 else { return }
    if let successor, gtk_widget_grab_focus(successor) != 0, gtk_root_get_focus(root) != focus { return }
    gtk_root_set_focus(root, nil)
}

/// A window widget as the `GtkWindow` pointer dialogs take for their parent.
package func asWindow(_ widget: WidgetPointer?) -> UnsafeMutablePointer<GtkWindow>? {
    widget.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
}
