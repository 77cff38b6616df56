import CGtk
import HostCore

// Typed connectors for GTK's and GObject's signals, one per callback shape (the web view's are in
// `Web/WebViewSignals.swift`): each boxes its closure as a `Callback` GLib releases, runs it on
// the main actor, and returns the `SignalConnection` to disconnect it with.

/// Connects a signal whose handler takes no arguments (C shape `(instance, user_data)`:
/// "clicked", "destroy", …) to a Swift closure.
@MainActor @discardableResult
package func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
    SignalConnection(instance, cgtk_connect_void(instance, signal, { _, data in
        let body = Callback<@MainActor () -> Void>.body(data)
        MainActor.assumeIsolated { body() }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// Runs `body` whenever the object's `property` changes ("notify::PROPERTY").
@MainActor @discardableResult
package func onNotify(_ instance: UnsafeMutableRawPointer, _ property: String, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
    SignalConnection(instance, cgtk_connect_notify(instance, property, { _, _, data in
        let body = Callback<@MainActor () -> Void>.body(data)
        MainActor.assumeIsolated { body() }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A window's "close-request": `body` true keeps the window open.
@MainActor @discardableResult
package func onCloseRequest(_ window: WidgetPointer, _ body: @escaping @MainActor () -> Bool) -> SignalConnection {
    SignalConnection(raw(window), cgtk_connect_close_request(window, { _, data in
        let body = Callback<@MainActor () -> Bool>.body(data)
        return MainActor.assumeIsolated { body() } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// An `AdwMessageDialog`'s "response", with the response's id (nil if it had none).
@MainActor @discardableResult
package func onAlertResponse(_ dialog: WidgetPointer, _ body: @escaping @MainActor (String?) -> Void) -> SignalConnection {
    SignalConnection(raw(dialog), cgtk_connect_alert_response(dialog, { _, response, data in
        let body = Callback<@MainActor (String?) -> Void>.body(data)
        let id = response.map { String(cString: $0) }
        MainActor.assumeIsolated { body(id) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkFileChooserNative`'s "response", with the `GtkResponseType` as a number.
@MainActor @discardableResult
package func onDialogResponse(_ chooser: OpaquePointer, _ body: @escaping @MainActor (Int32) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(chooser), cgtk_connect_response(chooser, { _, response, data in
        let body = Callback<@MainActor (Int32) -> Void>.body(data)
        MainActor.assumeIsolated { body(response) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkOverlay`'s "get-child-position": `body` gives the child's place, or nil to leave it to GTK.
@MainActor @discardableResult
package func onChildPosition(_ overlay: WidgetPointer, _ body: @escaping @MainActor (WidgetPointer) -> GdkRectangle?) -> SignalConnection {
    SignalConnection(raw(overlay), cgtk_connect_child_position(overlay, { _, child, allocation, data in
        guard let child, let allocation else { return 0 }
        let body = Callback<@MainActor (WidgetPointer) -> GdkRectangle?>.body(data)
        guard let place = MainActor.assumeIsolated({ body(child) }) else { return 0 }
        allocation.pointee = place
        return 1
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkGestureClick`'s "pressed", with the gesture and where it was pressed.
@MainActor @discardableResult
package func onPressed(_ gesture: OpaquePointer, _ body: @escaping @MainActor (_ gesture: OpaquePointer, _ x: Double, _ y: Double) -> Void)
    -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(gesture), cgtk_connect_pressed(gesture, { gesture, _, x, y, data in
        let body = Callback<@MainActor (OpaquePointer, Double, Double) -> Void>.body(data)
        MainActor.assumeIsolated { body(gesture!, x, y) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkGestureLongPress`'s "pressed": held long enough without moving, with the gesture and where.
@MainActor @discardableResult
package func onLongPressed(_ gesture: OpaquePointer, _ body: @escaping @MainActor (_ gesture: OpaquePointer, _ x: Double, _ y: Double) -> Void)
    -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(gesture), cgtk_connect_long_pressed(gesture, { gesture, x, y, data in
        let body = Callback<@MainActor (OpaquePointer, Double, Double) -> Void>.body(data)
        MainActor.assumeIsolated { body(gesture!, x, y) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkEventControllerMotion`'s "motion".
@MainActor @discardableResult
package func onMotion(_ controller: OpaquePointer, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(controller), cgtk_connect_motion(controller, { _, _, _, data in
        let body = Callback<@MainActor () -> Void>.body(data)
        MainActor.assumeIsolated { body() }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkEventControllerLegacy`'s "event", with the event's type; the event always goes on.
@MainActor @discardableResult
package func onInputEvent(_ controller: OpaquePointer, _ body: @escaping @MainActor (GdkEventType) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(controller), cgtk_connect_legacy_event(controller, { _, event, data in
        let body = Callback<@MainActor (GdkEventType) -> Void>.body(data)
        if let event { MainActor.assumeIsolated { body(gdk_event_get_event_type(event)) } }
        return 0
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GtkEventControllerLegacy`'s "event" read as a long press's input on `widget` (a finger, or
/// the primary button, going down, moving and lifting, in the widget's coordinates); the event
/// always goes on, to the page.
@MainActor @discardableResult
package func onPressInput(_ controller: OpaquePointer, in widget: WidgetPointer, _ body: @escaping @MainActor (LongPress.Event) -> Void)
    -> SignalConnection {
    let read: @MainActor (OpaquePointer) -> LongPress.Event? = { event in
        var x = 0.0, y = 0.0
        let placed = cgtk_event_point(event, widget, &x, &y) != 0
        switch gdk_event_get_event_type(event) {
        case GDK_BUTTON_PRESS where gdk_button_event_get_button(event) == 1: return placed ? .down(x: x, y: y) : nil
        case GDK_TOUCH_BEGIN: return placed ? .down(x: x, y: y) : nil
        case GDK_MOTION_NOTIFY, GDK_TOUCH_UPDATE: return placed ? .moved(x: x, y: y) : nil
        case GDK_BUTTON_RELEASE, GDK_TOUCH_END, GDK_TOUCH_CANCEL, GDK_GRAB_BROKEN: return .up
        default: return nil
        }
    }
    return SignalConnection(UnsafeMutableRawPointer(controller), cgtk_connect_legacy_event(controller, { _, event, data in
        let body = Callback<@MainActor (OpaquePointer) -> Void>.body(data)
        if let event { MainActor.assumeIsolated { body(event) } }
        return 0
    }, Callback.retained({ (event: OpaquePointer) in if let input = read(event) { body(input) } } as @MainActor (OpaquePointer) -> Void),
       CallbackRelease.closureNotify))
}

/// A `GtkListBox`'s "row-activated", with the row.
@MainActor @discardableResult
package func onRowActivated(_ list: WidgetPointer, _ body: @escaping @MainActor (UnsafeMutableRawPointer) -> Void) -> SignalConnection {
    SignalConnection(raw(list), cgtk_connect_row_activated(list, { _, row, data in
        guard let row else { return }
        let body = Callback<@MainActor (UnsafeMutableRawPointer) -> Void>.body(data)
        MainActor.assumeIsolated { body(UnsafeMutableRawPointer(row)) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A `GSimpleAction`'s "activate", with its parameter (nil for an action without one).
@MainActor @discardableResult
package func onActivate(_ action: OpaquePointer, _ body: @escaping @MainActor (OpaquePointer?) -> Void) -> SignalConnection {
    SignalConnection(UnsafeMutableRawPointer(action), cgtk_connect_activate(action, { _, parameter, data in
        let body = Callback<@MainActor (OpaquePointer?) -> Void>.body(data)
        MainActor.assumeIsolated { body(parameter) }
    }, Callback.retained(body), CallbackRelease.closureNotify))
}

/// A shortcut's action that runs `body` (true: handled, the key goes no further); the action
/// holds the closure and releases it when it goes.
@MainActor
package func shortcutAction(_ body: @escaping @MainActor () -> Bool) -> OpaquePointer {
    gtk_callback_action_new({ _, _, data in
        let body = Callback<@MainActor () -> Bool>.body(data)
        return MainActor.assumeIsolated { body() } ? 1 : 0
    }, Callback.retained(body), CallbackRelease.destroyNotify)
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
