import CGtk
import ShellKit
import StudioContract

/// The phone's bottom tab bar: up to four primary destinations, then More with the rest in a
/// popover. Built only from the catalog; a tap goes to `onTap` and the selection follows
/// whatever the page session says.
@MainActor
package final class TabBar {
    let widget: WidgetPointer
    var onTap: (String) -> Void = { _ in }
    private var buttons: [(id: String, button: WidgetPointer)] = []
    private var moreButton: WidgetPointer?
    private var moreIds: Set<String> = []

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_widget_add_css_class(widget, "toolbar")
        gtk_widget_add_css_class(widget, "hostshell-tabbar")
        gtk_box_set_homogeneous(cast(widget), 1)
    }

    func show(tabs: [Destination], more: [Destination], selected: String?) {
        while let child = gtk_widget_get_first_child(widget) { gtk_box_remove(cast(widget), child) }
        buttons = []
        for destination in tabs {
            let button = Self.tabButton(title: destination.title, icon: IconTokens.symbolicName(for: destination.icon))
            let id = destination.id
            onSignal(raw(button), "clicked") { [weak self] in self?.onTap(id) }
            gtk_box_append(cast(widget), button)
            buttons.append((id, button))
        }
        moreIds = Set(more.map(\.id))
        moreButton = nil
        if !more.isEmpty {
            let button = gtk_menu_button_new()!
            gtk_menu_button_set_child(cast(button), Self.tabContent(title: "More", icon: "view-more-symbolic"))
            gtk_widget_add_css_class(button, "flat")
            gtk_menu_button_set_popover(cast(button), morePopover(more))
            gtk_box_append(cast(widget), button)
            moreButton = button
        }
        select(selected)
    }

    func select(_ id: String?) {
        for (tabId, button) in buttons {
            if tabId == id { gtk_widget_add_css_class(button, "hostshell-selected") } else { gtk_widget_remove_css_class(button, "hostshell-selected") }
        }
        if let moreButton {
            if let id, moreIds.contains(id) { gtk_widget_add_css_class(moreButton, "hostshell-selected") }
            else { gtk_widget_remove_css_class(moreButton, "hostshell-selected") }
        }
    }

    private func morePopover(_ more: [Destination]) -> WidgetPointer {
        let popover = gtk_popover_new()!
        PopoverFitting.keepInside(popover)
        let list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        for destination in more {
            let button = gtk_button_new()!
            gtk_button_set_child(cast(button), destinationRow(destination))
            gtk_widget_add_css_class(button, "flat")
            let id = destination.id
            onSignal(raw(button), "clicked") { [weak self] in
                gtk_popover_popdown(cast(popover))
                self?.onTap(id)
            }
            gtk_box_append(cast(list), button)
        }
        gtk_popover_set_child(cast(popover), list)
        return popover
    }

    private static func tabContent(title: String, icon: String) -> WidgetPointer {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_box_append(cast(box), gtk_image_new_from_icon_name(icon))
        let label = gtk_label_new(title)!
        gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(label, "caption")
        gtk_box_append(cast(box), label)
        return box
    }

    private static func tabButton(title: String, icon: String) -> WidgetPointer {
        let button = gtk_button_new()!
        gtk_button_set_child(cast(button), tabContent(title: title, icon: icon))
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_set_tooltip_text(button, title)
        return button
    }
}
