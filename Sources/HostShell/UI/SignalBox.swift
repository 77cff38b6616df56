import BridgeRuntime
import CGtk

/// Connects a GTK signal whose handler takes no arguments (C shape `(instance, user_data)`:
/// "clicked", "destroy", …) to a Swift closure. The closure box is
/// retained by the connection and released when the widget is destroyed.
@MainActor
func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void) {
    cgtk_connect_void(instance, signal, { _, data in
        let box = Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { box.body() }
    }, Unmanaged.passRetained(ClosureBox(body)).toOpaque(), { data, _ in
        Unmanaged<ClosureBox>.fromOpaque(data!).release()
    })
}

/// Runs `body` whenever the object's `property` changes ("notify::PROPERTY").
@MainActor
func onNotify(_ instance: UnsafeMutableRawPointer, _ property: String, _ body: @escaping @MainActor () -> Void) {
    cgtk_connect_notify(instance, property, { _, _, data in
        let box = Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { box.body() }
    }, Unmanaged.passRetained(ClosureBox(body)).toOpaque(), { data, _ in
        Unmanaged<ClosureBox>.fromOpaque(data!).release()
    })
}

/// A widget pointer as the untyped pointer GObject calls take.
typealias WidgetPointer = UnsafeMutablePointer<GtkWidget>

func raw(_ widget: WidgetPointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(widget) }

/// GTK's typed upcasts: a widget pointer as the pointer type a `gtk_*` function takes, which is a
/// typed pointer for complete structs (GtkBox, GtkButton, …) and opaque for the others.
func cast<T>(_ widget: WidgetPointer) -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self) }
func cast(_ widget: WidgetPointer) -> OpaquePointer { OpaquePointer(widget) }

/// The window `widget` is shown in, as the parent for dialogs, or nil while it is not in one.
@MainActor
func windowOf(_ widget: WidgetPointer) -> WidgetPointer? {
    gtk_widget_get_root(widget).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
}

/// Takes the window's keyboard focus out of `widget` (and its descendants) before it leaves the
/// window: GTK 4.8 keeps a widget taken out of the window as the window's focus, alive only by
/// that reference, and frees it in the middle of the next focus change, which then reads it
/// (a GtkLabel taking focus checks whether the old focus is inside it: a critical on a freed
/// widget). `to` takes the focus instead when it can; otherwise nothing has it.
@MainActor
func releaseFocus(from widget: WidgetPointer, to successor: WidgetPointer? = nil) {
    guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return }
    let focused = UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GtkWidget.self)
    guard focused == widget || gtk_widget_is_ancestor(focused, widget) != 0 else { return }
    if let successor, gtk_widget_grab_focus(successor) != 0, gtk_root_get_focus(root) != focus { return }
    gtk_root_set_focus(root, nil)
}

/// A window widget as the `GtkWindow` pointer dialogs take for their parent.
func asWindow(_ widget: WidgetPointer?) -> UnsafeMutablePointer<GtkWindow>? {
    widget.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
}

/// A destination as a list row: its symbolic icon (generic for unknown tokens) and its title.
@MainActor
func destinationRow(_ destination: Destination) -> WidgetPointer {
    let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
    gtk_box_append(cast(box), gtk_image_new_from_icon_name(IconTokens.symbolicName(for: destination.icon)))
    let label = gtk_label_new(destination.title)!
    gtk_label_set_xalign(cast(label), 0)
    gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
    gtk_box_append(cast(box), label)
    return box
}
