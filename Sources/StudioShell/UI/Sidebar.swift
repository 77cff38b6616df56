import CGtk
import ShellKit
import StudioContract

/// The tablet and desktop sidebar: the catalog's groups in order, each with its title when it
/// has one, as a keyboard-navigable list. Rows carry destination ids; activation (a click, or
/// Enter on the focused row) goes to `onTap`. The highlighted row is the host's selection only:
/// focus or cursor moves never navigate, and never leave a different row highlighted.
@MainActor
package final class Sidebar {
    let widget: WidgetPointer
    var onTap: (String) -> Void = { _ in }
    private let list: WidgetPointer
    /// The destination rows, each with a reference of ours: GTK frees rows before the list
    /// stops reporting selection changes when its window is torn down.
    private var rows: [(id: String, row: WidgetPointer)] = [] {
        didSet {
            for entry in rows { g_object_ref(raw(entry.row)) }
            for entry in oldValue { g_object_unref(raw(entry.row)) }
        }
    }
    private var updatingSelection = false
    private var selectedId: String?

    init() {
        list = gtk_list_box_new()!
        gtk_widget_add_css_class(list, "navigation-sidebar")
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_SINGLE)
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(cast(widget), list)
        gtk_widget_set_size_request(widget, 220, -1)
        gtk_widget_add_css_class(widget, "hostshell-sidebar")
        onSignal(raw(list), "selected-rows-changed") { [weak self] in self?.selectionChanged() }
        onRowActivated(list) { [weak self] row in
            guard let self, let id = self.rows.first(where: { raw($0.row) == row })?.id else { return }
            self.onTap(id)
        }
    }

    func show(groups: [DestinationGroup], selected: String?) {
        updatingSelection = true
        while let child = gtk_widget_get_first_child(list) { gtk_list_box_remove(cast(list), child) }
        var made: [(id: String, row: WidgetPointer)] = []
        for group in groups {
            if let title = group.title {
                let header = gtk_label_new(title)!
                gtk_label_set_xalign(cast(header), 0)
                gtk_widget_add_css_class(header, "heading")
                gtk_widget_add_css_class(header, "dim-label")
                gtk_widget_set_margin_top(header, 12)
                gtk_widget_set_margin_start(header, 8)
                let headerRow = gtk_list_box_row_new()!
                gtk_list_box_row_set_child(cast(headerRow), header)
                gtk_list_box_row_set_selectable(cast(headerRow), 0)
                gtk_list_box_row_set_activatable(cast(headerRow), 0)
                gtk_list_box_append(cast(list), headerRow)
            }
            for destination in group.items {
                let row = gtk_list_box_row_new()!
                gtk_list_box_row_set_child(cast(row), destinationRow(destination))
                gtk_list_box_append(cast(list), row)
                made.append((destination.id, row))
            }
        }
        rows = made
        updatingSelection = false
        select(selected)
    }

    isolated deinit {
        for entry in rows { g_object_unref(raw(entry.row)) }
    }

    func select(_ id: String?) {
        selectedId = id
        updatingSelection = true
        if let row = rows.first(where: { $0.id == id })?.row, gtk_widget_get_parent(row) == list {
            gtk_list_box_select_row(cast(list), cast(row))
        } else {
            gtk_list_box_unselect_all(cast(list))
        }
        updatingSelection = false
    }

    /// GTK moved the selection (focus entered the list, the cursor moved): put the host's back.
    private func selectionChanged() {
        // The list also reports changes while it is torn down with its window: leave it be then.
        guard !updatingSelection, gtk_widget_in_destruction(list) == 0 else { return }
        select(selectedId)
    }
}
