import CGtk
import HostCore

/// The Keyboard Shortcuts window (Ctrl+?), as every GNOME app has one: a `GtkShortcutsWindow`
/// built from `AppAction`'s table, so it lists exactly the keys the window answers to.
@MainActor
package enum ShortcutsWindow {
    /// The window, transient for `parent`; the caller presents it.
    package static func make(parent: WidgetPointer) -> WidgetPointer? {
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
        g_object_ref(object)  // the builder's reference goes with it
        gtk_window_set_transient_for(cgtk_window(raw(window)), cgtk_window(raw(parent)))
        gtk_window_set_modal(cgtk_window(raw(window)), 1)
        return window
    }

    /// GtkBuilder's description of the window: one section, a group per `AppAction.section`.
    static var xml: String {
        var text = #"<interface><object class="GtkShortcutsWindow" id="shortcuts"><child><object class="GtkShortcutsSection"><property name="section-name">main</property>"#
        for section in AppAction.shortcutSections {
            text += #"<child><object class="GtkShortcutsGroup"><property name="title">\#(section.title)</property>"#
            for action in section.actions {
                let keys = action.accelerators.map { $0.replacingAngleBrackets() }.joined(separator: " ")
                text += #"<child><object class="GtkShortcutsShortcut"><property name="title">\#(action.title)</property><property name="accelerator">\#(keys)</property></object></child>"#
            }
            text += "</object></child>"
        }
        return text + "</object></child></object></interface>"
    }
}

private extension String {
    /// `<Control>r` as XML text (`&lt;Control&gt;r`).
    func replacingAngleBrackets() -> String {
        var out = ""
        for character in self {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.append(character)
            }
        }
        return out
    }
}
