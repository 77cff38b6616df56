import BridgeRuntime
import CGtk

/// Studio's action menus over the web view: each registered trigger becomes an invisible native
/// button over its rect (normalized to the view), which opens the menu anchored there; a context
/// click (right button, or a long press) opens the armed menu at the pointer. The menu is a
/// popover with the groups as sections, disabled items greyed, destructive items in red, and
/// the keyboard works as in any GTK menu.
@MainActor
final class ActionMenuLayer {
    /// The overlay holding the web view and the trigger buttons.
    let widget: WidgetPointer
    private var triggers: [(id: String, rect: NormalizedRect, button: WidgetPointer)] = []
    private var armed: ActionMenu?
    /// Each trigger's menu as last sent (a trigger sent again may carry a changed menu).
    private var menus: [String: ActionMenu] = [:]
    private var popover: WidgetPointer?
    private var openMenu: ActionMenu?
    private var chosen = false
    var onChoose: ((String, String) -> Void)?
    var onDismiss: ((String) -> Void)?

    init(web: WidgetPointer) {
        widget = gtk_overlay_new()!
        gtk_overlay_set_child(cast(widget), web)
        cgtk_connect_child_position(widget, { overlay, child, allocation, data in
            let layer = Unmanaged<ActionMenuLayer>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard let child, let allocation, let entry = layer.triggers.first(where: { $0.button == child }) else { return 0 }
                let width = Double(gtk_widget_get_width(layer.widget)), height = Double(gtk_widget_get_height(layer.widget))
                allocation.pointee = GdkRectangle(x: Int32(entry.rect.x * width), y: Int32(entry.rect.y * height),
                                                  width: max(1, Int32(entry.rect.width * width)), height: max(1, Int32(entry.rect.height * height)))
                return 1
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        // A context click opens the armed menu at the pointer, before WebKit's own menu.
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 3)
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        cgtk_connect_pressed(click, { gesture, _, x, y, data in
            let layer = Unmanaged<ActionMenuLayer>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                guard let menu = layer.armed else { return }
                gtk_gesture_set_state(gesture, GTK_EVENT_SEQUENCE_CLAIMED)
                layer.open(menu, at: GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1))
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_widget_add_controller(widget, click)
    }

    /// Shows the page's menus as they are now; a menu that went away closes without a report.
    func update(armed: ActionMenu?, triggers current: [String: ActionMenuTrigger]) {
        self.armed = armed
        menus = current.mapValues(\.menu)
        // The same triggers in the same places (Studio sent them again): nothing to rebuild, and
        // an open menu stays as it is.
        let placed = current.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value.rect) }
        if placed.count == triggers.count && zip(placed, triggers).allSatisfy({ $0.0 == $1.id && $0.1 == $1.rect }) {
            if let open = openMenu, armed?.menuId != open.menuId, current[open.menuId] == nil { close(report: false) }
            return
        }
        for entry in triggers { gtk_overlay_remove_overlay(cast(widget), entry.button) }
        triggers = []
        for (id, trigger) in current.sorted(by: { $0.key < $1.key }) {
            let button = gtk_button_new()!
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_add_css_class(button, "hostshell-menu-trigger")
            gtk_widget_set_tooltip_text(button, trigger.menu.label)
            onSignal(raw(button), "clicked") { [weak self] in
                guard let self, let entry = self.triggers.first(where: { $0.id == id }), let menu = self.menus[id] else { return }
                let width = Double(gtk_widget_get_width(self.widget)), height = Double(gtk_widget_get_height(self.widget))
                self.open(menu, at: GdkRectangle(x: Int32(entry.rect.x * width), y: Int32(entry.rect.y * height),
                                                 width: Int32(entry.rect.width * width), height: Int32(entry.rect.height * height)))
            }
            gtk_overlay_add_overlay(cast(widget), button)
            triggers.append((id, trigger.rect, button))
        }
        if let open = openMenu, armed?.menuId != open.menuId, current[open.menuId] == nil { close(report: false) }
    }

    /// The menu opened (shown or about to be), until it closes.
    var openMenuId: String? { openMenu?.menuId }
    /// The open menu once GTK has mapped its popover: what a person could see and choose from
    /// (the state's `menus.open`, which the control interface's choices need).
    var shownMenuId: String? {
        guard let popover, gtk_widget_get_mapped(popover) != 0 else { return nil }
        return openMenu?.menuId
    }
    var armedMenuId: String? { armed?.menuId }
    var triggerIds: [String] { triggers.map(\.id) }

    /// Opens `menu` pointing at `rect` (in the overlay's coordinates). False when GTK could not
    /// show it: a menu grabs the pointer and keyboard, and while another application holds them
    /// GTK takes the popover down at once. Nobody saw it, so Studio hears nothing of it.
    @discardableResult
    func open(_ menu: ActionMenu, at rect: GdkRectangle) -> Bool {
        close(report: true)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        for (index, group) in menu.groups.enumerated() {
            if index > 0 { gtk_box_append(cast(box), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)) }
            for item in group.items {
                let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
                if let icon = item.icon { gtk_box_append(cast(row), gtk_image_new_from_icon_name(IconTokens.symbolicName(for: icon))) }
                let label = gtk_label_new(item.label)!
                gtk_label_set_xalign(cast(label), 0)
                gtk_box_append(cast(row), label)
                let button = gtk_button_new()!
                gtk_button_set_child(cast(button), row)
                gtk_widget_add_css_class(button, "flat")
                if item.role == .destructive { gtk_widget_add_css_class(label, "error") }
                gtk_widget_set_sensitive(button, item.disabled ? 0 : 1)
                let id = item.id
                onSignal(raw(button), "clicked") { [weak self] in self?.choose(id) }
                gtk_box_append(cast(box), button)
            }
        }
        let popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), box)
        gtk_widget_set_parent(popover, widget)
        var anchor = rect
        gtk_popover_set_pointing_to(cast(popover), &anchor)
        onSignal(raw(popover), "closed") { [weak self] in
            // Closed by the person (Escape, a click outside): dismissed, unless an item was chosen.
            guard let self, self.popover == popover else { return }
            MainLoop.after(milliseconds: 0) { [weak self] in
                guard let self, self.popover == popover else { return }
                self.close(report: true)
            }
        }
        self.popover = popover
        openMenu = menu
        chosen = false
        gtk_popover_popup(cast(popover))
        // Shown, GTK maps it during the popup; a failed grab hides it again before that.
        guard gtk_widget_get_mapped(popover) != 0 else {
            close(report: false)
            return false
        }
        return true
    }

    /// The control interface's choice, as a click on that item.
    func choose(_ actionId: String) {
        guard let menu = openMenu, menu.items.contains(where: { $0.id == actionId && !$0.disabled }) else { return }
        chosen = true
        onChoose?(menu.menuId, actionId)
        close(report: false)
    }

    /// Closes the open menu; without a choice made, reports it dismissed when `report`.
    func close(report: Bool) {
        guard let popover, let menu = openMenu else { return }
        self.popover = nil  // before popdown, so its "closed" is not taken for the person's
        openMenu = nil
        gtk_popover_popdown(cast(popover))
        // Let go of it once GTK is done with its surface (pointer and focus updates after the
        // popdown still look at it during this turn of the loop).
        g_object_ref(raw(popover))  // its parent may be gone by then
        MainLoop.after(milliseconds: 250) {
            if gtk_widget_get_parent(popover) != nil { gtk_widget_unparent(popover) }
            g_object_unref(raw(popover))
        }
        if report && !chosen { onDismiss?(menu.menuId) }
    }

    func item(_ actionId: String) -> ActionMenuItem? { openMenu?.items.first { $0.id == actionId } }
}
