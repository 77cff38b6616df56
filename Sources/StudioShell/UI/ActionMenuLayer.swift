import CGtk
import HostCore
import ShellKit
import StudioContract

/// Studio's action menus over the web view: each registered trigger becomes an invisible native
/// button over its rect (normalized to the view), which opens the menu anchored there; a context
/// click (right button, or a long press) opens the armed menu at the pointer. The menu is a
/// popover with the groups as sections, disabled items greyed, destructive items in red, and
/// the keyboard works as in any GTK menu. Which menus exist, which one is open and what a
/// choice reports are the page session's: this only draws them and passes the person's clicks on.
@MainActor
package final class ActionMenuLayer {
    /// The overlay holding the web view and the trigger buttons.
    let widget: WidgetPointer
    private var triggers: [(id: String, rect: NormalizedRect, button: WidgetPointer)] = []
    /// The armed menu's id: a context click opens it (and so is claimed before WebKit's menu).
    private var armedId: String?
    private var popover: WidgetPointer?
    private var shownMenuId: String?
    /// The items' buttons of the menu shown, by action id.
    private var itemButtons: [String: WidgetPointer] = [:]
    /// Where the next menu shown points: the trigger or pointer that asked for it.
    private var anchor = GdkRectangle(x: 0, y: 0, width: 1, height: 1)
    /// A press on the page held long enough opens the armed menu (`LongPress`'s rule).
    private let hold = MachineLoop(LongPress())
    private var holdTimers: TimerBank<LongPress.TimerName>!
    /// The person asked for a menu, chose an item, or closed the open menu without a choice.
    var onOpen: ((String, MenuSource) -> Void)?
    var onChoose: ((String, String) -> Void)?
    var onDismiss: ((String) -> Void)?

    init(web: WidgetPointer) {
        widget = gtk_overlay_new()!
        gtk_overlay_set_child(cast(widget), web)
        onChildPosition(widget) { [weak self] child in
            guard let self, let entry = self.triggers.first(where: { $0.button == child }) else { return nil }
            let width = Double(gtk_widget_get_width(self.widget)), height = Double(gtk_widget_get_height(self.widget))
            return GdkRectangle(x: Int32(entry.rect.x * width), y: Int32(entry.rect.y * height),
                                width: max(1, Int32(entry.rect.width * width)), height: max(1, Int32(entry.rect.height * height)))
        }
        // A context click opens the armed menu at the pointer, before WebKit's own menu; so does
        // a long press (§6), a finger's on a touch screen or a held mouse button.
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 3)
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        onPressed(click) { [weak self] gesture, x, y in self?.openArmed(claiming: gesture, x: x, y: y) }
        gtk_widget_add_controller(widget, click)
        // Read from the raw events: WebKit claims every press on the page, which would cancel a
        // gesture of GTK's here before it could fire.
        let input = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(input, GTK_PHASE_CAPTURE)
        onPressInput(input, in: widget) { [weak self] event in self?.longPress(event) }
        gtk_widget_add_controller(widget, input)
        holdTimers = TimerBank { [weak self] name in self?.longPress(.timerFired(name)) }
    }

    private func longPress(_ event: LongPress.Event) {
        hold.send(event) { [weak self] effect in
            switch effect {
            case .timer(let command): self?.holdTimers.perform(command)
            case .recognized(let x, let y): self?.openArmed(claiming: nil, x: x, y: y)
            }
        }
    }

    /// A context click or long press at (x, y): the armed menu opens there, and the gesture is
    /// the menu's (WebKit's own context menu does not follow). Without an armed menu the page
    /// has the gesture, as on the phone.
    private func openArmed(claiming gesture: OpaquePointer?, x: Double, y: Double) {
        guard let armed = armedId else { return }
        if let gesture { gtk_gesture_set_state(gesture, GTK_EVENT_SEQUENCE_CLAIMED) }
        anchor = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        onOpen?(armed, .armed)
    }

    /// Shows the page's trigger controls as they are now: a trigger kept keeps its button (and
    /// its keyboard focus), moved to its new box; a new one gets a button; a gone one loses it.
    func update(armed: ActionMenu?, triggers current: [String: ActionMenuTrigger]) {
        armedId = armed?.menuId
        for entry in triggers where current[entry.id] == nil { gtk_overlay_remove_overlay(cast(widget), entry.button) }
        triggers.removeAll { current[$0.id] == nil }
        var moved = false
        for (id, trigger) in current.sorted(by: { $0.key < $1.key }) {
            if let index = triggers.firstIndex(where: { $0.id == id }) {
                if triggers[index].rect != trigger.rect { triggers[index].rect = trigger.rect; moved = true }
                gtk_widget_set_tooltip_text(triggers[index].button, trigger.menu.label)
                continue
            }
            let button = gtk_button_new()!
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_add_css_class(button, "hostshell-menu-trigger")
            // The menu's label names the button for a keyboard or screen-reader user.
            gtk_widget_set_tooltip_text(button, trigger.menu.label)
            gtk_widget_set_focusable(button, 1)
            onSignal(raw(button), "clicked") { [weak self] in self?.requestOpen(id, from: .trigger) }
            gtk_overlay_add_overlay(cast(widget), button)
            triggers.append((id, trigger.rect, button))
        }
        // Studio registered a box again (the page scrolled or resized): place the buttons anew.
        if moved { gtk_widget_queue_allocate(widget) }
    }

    /// Where the trigger `menuId`'s native button is now, in the layer's coordinates (state dumps).
    func triggerBounds(_ menuId: String) -> GdkRectangle? {
        guard let entry = triggers.first(where: { $0.id == menuId }), gtk_widget_get_mapped(entry.button) != 0 else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(entry.button, widget, &bounds) != 0 else { return nil }
        return GdkRectangle(x: Int32(bounds.origin.x.rounded()), y: Int32(bounds.origin.y.rounded()),
                            width: Int32(bounds.size.width.rounded()), height: Int32(bounds.size.height.rounded()))
    }

    /// Clicks the trigger `menuId`'s native button, as a person would (the control interface's
    /// `trigger`); false when there is no such button or it cannot be clicked. Its click handler
    /// runs now, as on a person's release: `gtk_widget_activate` would emit "clicked" 250 ms
    /// later, after the caller has looked for the menu (and a retry would open it twice).
    func clickTrigger(_ menuId: String) -> Bool {
        guard let entry = triggers.first(where: { $0.id == menuId }), gtk_widget_is_sensitive(entry.button) != 0 else { return false }
        requestOpen(menuId, from: .trigger)
        return true
    }

    /// Asks for the menu `menuId` from `source`, pointing at its trigger (or the middle, for the
    /// armed menu), as a click on the trigger or a long press does (the control interface's
    /// `menu-open`).
    func requestOpen(_ menuId: String, from source: MenuSource) {
        let width = Double(gtk_widget_get_width(widget)), height = Double(gtk_widget_get_height(widget))
        if source == .trigger, let entry = triggers.first(where: { $0.id == menuId }) {
            anchor = GdkRectangle(x: Int32(entry.rect.x * width), y: Int32(entry.rect.y * height),
                                  width: max(1, Int32(entry.rect.width * width)), height: max(1, Int32(entry.rect.height * height)))
        } else {
            anchor = GdkRectangle(x: Int32(width / 2), y: Int32(height / 2), width: 1, height: 1)
        }
        onOpen?(menuId, source)
    }

    /// Shows `menu` at the anchor of the request, in place of any menu shown. False when GTK
    /// could not show it: a menu grabs the pointer and keyboard, and while another application
    /// holds them GTK takes the popover down at once.
    func show(_ menu: ActionMenu) -> Bool {
        hide()
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
                let menuId = menu.menuId
                onSignal(raw(button), "clicked") { [weak self] in self?.onChoose?(menuId, id) }
                gtk_box_append(cast(box), button)
                itemButtons[id] = button
            }
        }
        let popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), box)
        gtk_widget_set_parent(popover, widget)
        var pointing = anchor
        gtk_popover_set_pointing_to(cast(popover), &pointing)
        PopoverFitting.keepInside(popover)
        let menuId = menu.menuId
        onSignal(raw(popover), "closed") { [weak self] in
            // Closed by the person (Escape, a click outside): reported on the next turn, once a
            // click on an item (which closes the popover too) has been handled first.
            guard let self, self.popover == popover else { return }
            MainLoop.after(milliseconds: 0) { [weak self] in
                guard let self, self.popover == popover else { return }
                self.onDismiss?(menuId)
            }
        }
        self.popover = popover
        shownMenuId = menuId
        gtk_popover_popup(cast(popover))
        // Shown, GTK maps it during the popup; a failed grab hides it again before that.
        guard gtk_widget_get_mapped(popover) != 0 else {
            hide()
            return false
        }
        return true
    }

    /// The menu on screen — mapped by GTK, so a person could see it and choose from it (the
    /// session's `openMenu` says which menu is open; this, whether it is showing yet).
    var shownId: String? {
        guard let popover, gtk_widget_get_mapped(popover) != 0 else { return nil }
        return shownMenuId
    }

    /// The layer's box (the web view's viewport, which triggers' rects are fractions of).
    var size: GdkRectangle { GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(widget), height: gtk_widget_get_height(widget)) }

    /// Clicks the item `actionId` of the menu on screen, as a person would; false when it is not
    /// there or greyed out. The click's own handler runs now: `gtk_widget_activate` would only
    /// press the button and emit "clicked" 250 ms later, and drops it when the menu is taken
    /// down (unmapped) in between.
    func choose(_ actionId: String) -> Bool {
        guard let menuId = shownId, let button = itemButtons[actionId], gtk_widget_get_sensitive(button) != 0 else { return false }
        onChoose?(menuId, actionId)
        return true
    }

    /// Takes the menu shown away (no report: the session decided).
    func hide() {
        itemButtons = [:]
        guard let popover else { return }
        self.popover = nil  // before popdown, so its "closed" is not taken for the person's
        shownMenuId = nil
        gtk_popover_popdown(cast(popover))
        // Let go of it once GTK is done with its surface (pointer and focus updates after the
        // popdown still look at it during this turn of the loop).
        g_object_ref(raw(popover))  // its parent may be gone by then
        MainLoop.after(milliseconds: 250) {
            if gtk_widget_get_parent(popover) != nil { gtk_widget_unparent(popover) }
            g_object_unref(raw(popover))
        }
    }
}

extension ActionMenuLayer {
    /// Passes the person's clicks on this layer to `page`'s session.
    func attach(to page: StudioPage) {
        onOpen = { [weak page] menuId, source in page?.apply(.menuOpenRequested(menuId: menuId, source: source)) }
        onChoose = { [weak page] menuId, actionId in page?.menuChosen(menuId, actionId: actionId) }
        onDismiss = { [weak page] menuId in page?.menuDismissed(menuId) }
    }

    /// Carries out a menu effect of `page`'s session (the armed menu or triggers changed, show or
    /// hide a menu); false for any other effect.
    func perform(_ effect: PageEffect, for page: StudioPage) -> Bool {
        switch effect {
        case .menusChanged: update(armed: page.session.armedMenu, triggers: page.session.triggers)
        case .showMenu(let menu):
            if !show(menu) { page.apply(.menuNotShown(menuId: menu.menuId)) }
        case .hideMenu: hide()
        default: return false
        }
        return true
    }
}
