import CGtk
import HostCore

/// A window's app actions (`AppAction`, decided in BridgeRuntime) carried out: a `GSimpleAction`
/// each in the window's "app" group, their keys (a shortcut controller on the window), and the
/// header's primary menu. `perform` does the work; the window it came from is the one a
/// person (or `ctl action`) used.
@MainActor
package final class AppActions {
    package let window: WidgetPointer
    private let group: OpaquePointer
    /// The header's primary menu button ("open-menu-symbolic"), nil in a kiosk.
    package let menuButton: WidgetPointer?
    private let perform: (AppAction) -> Void
    /// The window's shortcut controller for the app's keys.
    private let keys: OpaquePointer
    /// The actions this window offers (none in a kiosk).
    private let available: [AppAction]

    package init(window: WidgetPointer, kiosk: Bool, perform: @escaping (AppAction) -> Void) {
        self.window = window
        self.perform = perform
        group = OpaquePointer(g_simple_action_group_new()!)
        menuButton = kiosk ? nil : Self.primaryMenu()
        let controller = gtk_shortcut_controller_new()!
        keys = controller
        let actions = AppAction.available(kiosk: kiosk)
        available = actions
        for action in actions {
            let simple = g_simple_action_new(action.rawValue, nil)!
            onActivate(simple) { [weak self] _ in self?.perform(action) }
            g_action_map_add_action(group, simple)
            g_object_unref(UnsafeMutableRawPointer(simple))
        }
        gtk_widget_insert_action_group(window, "app", group)
        // The keys: global to the window, whatever has the focus (the web view included).
        gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
        for action in actions where action != .back && action != .switchServer {  // those two have their own
            for accelerator in action.accelerators {
                guard let trigger = gtk_shortcut_trigger_parse_string(accelerator) else { continue }
                gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(trigger, gtk_named_action_new("app." + action.rawValue)))
            }
        }
        gtk_widget_add_controller(window, controller)
    }

    /// The primary menu: New Window; Keyboard Shortcuts, About HostShell.
    private static func primaryMenu() -> WidgetPointer {
        let menu = g_menu_new()!
        for section in AppAction.primaryMenu {
            let part = g_menu_new()!
            for action in section {
                let item = g_menu_item_new(action.title, "app." + action.rawValue)!
                if let key = action.accelerators.first { g_menu_item_set_attribute_value(item, "accel", g_variant_new_string(key)) }
                g_menu_append_item(part, item)
                g_object_unref(UnsafeMutableRawPointer(item))
            }
            g_menu_append_section(menu, nil, model(part))
            g_object_unref(UnsafeMutableRawPointer(part))
        }
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(cast(button), model(menu))
        gtk_widget_set_tooltip_text(button, "Main Menu")
        if let popover = gtk_menu_button_get_popover(cast(button)) { PopoverFitting.keepInside(cgtk_widget(UnsafeMutableRawPointer(popover))!) }
        g_object_unref(UnsafeMutableRawPointer(menu))
        return button
    }

    /// A `GMenu` as the `GMenuModel` it is (its parent class).
    private static func model(_ menu: OpaquePointer) -> UnsafeMutablePointer<GMenuModel> {
        UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
    }

    /// The keys the window answers to, read back from its shortcut controller: each trigger
    /// (GTK's own spelling) with the action it activates.
    package var boundKeys: [(key: String, action: String)] {
        let model = keys
        var bound: [(String, String)] = []
        for index in 0..<g_list_model_get_n_items(model) {
            guard let item = g_list_model_get_item(model, index) else { continue }
            defer { g_object_unref(item) }
            let shortcut = OpaquePointer(item)
            guard let trigger = gtk_shortcut_get_trigger(shortcut), let action = gtk_shortcut_get_action(shortcut),
                  let name = gtk_named_action_get_action_name(action) else { continue }
            bound.append((takeGString(gtk_shortcut_trigger_to_string(trigger)) ?? "", String(cString: name)))
        }
        // The two with keys of their own, as the Keyboard Shortcuts window lists them: Alt+Left
        // (the view's controller, only while the back bar shows, so the page keeps it otherwise)
        // and F10 (GTK's key for the header's primary menu button, the switcher).
        for action in [AppAction.back, .switchServer] where available.contains(action) {
            for accelerator in action.accelerators { bound.append((accelerator, "app." + action.rawValue)) }
        }
        return bound
    }

    /// Triggers `action` as its menu item or key would (for `ctl action`); false when this
    /// window does not offer it.
    package func activate(_ action: AppAction) -> Bool {
        guard g_action_map_lookup_action(group, action.rawValue) != nil else { return false }
        g_action_group_activate_action(group, action.rawValue, nil)
        return true
    }
}
