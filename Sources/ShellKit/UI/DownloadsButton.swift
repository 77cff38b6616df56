import CGtk
import HostCore

/// The header's downloads button (shown once there is a download): a popover listing each
/// download with its progress, or how it ended, and Open and Show in Folder when it is done.
@MainActor
package final class DownloadsButton {
    package let widget: WidgetPointer
    private let rows: WidgetPointer
    /// The person chose Open (`open`) or Show in Folder (`show`) for a download.
    package var onChoose: ((Int, String) -> Void)?

    package init() {
        widget = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(widget), "folder-download-symbolic")
        gtk_widget_set_tooltip_text(widget, "Downloads")
        rows = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10)!
        gtk_widget_set_margin_start(rows, 6)
        gtk_widget_set_margin_end(rows, 6)
        let popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), rows)
        gtk_menu_button_set_popover(cast(widget), popover)
        PopoverFitting.keepInside(popover)
        gtk_widget_set_visible(widget, 0)
    }

    /// Shows the downloads as they are now.
    package func show(_ list: DownloadList) {
        while let row = gtk_widget_get_first_child(rows) { gtk_box_remove(cast(rows), row) }
        for item in list.items.reversed() {
            let row = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
            let name = item.file.split(separator: "/").last.map(String.init) ?? "download"
            let title = gtk_label_new(TerminalText.escaped(name))!
            gtk_label_set_xalign(cast(title), 0)
            gtk_label_set_ellipsize(cast(title), PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_max_width_chars(cast(title), 32)
            gtk_box_append(cast(row), title)
            switch item.state {
            case .running:
                let bar = gtk_progress_bar_new()!
                if item.total > 0 { gtk_progress_bar_set_fraction(cast(bar), Double(item.received) / Double(item.total)) }
                gtk_box_append(cast(row), bar)
            case .finished:
                let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
                for (label, choice) in [("_Open", "open"), ("_Show in Folder", "show")] {
                    let button = gtk_button_new_with_mnemonic(label)!
                    let id = item.id
                    onSignal(raw(button), "clicked") { [weak self] in
                        gtk_menu_button_popdown(cast(self?.widget ?? button))
                        self?.onChoose?(id, choice)
                    }
                    gtk_box_append(cast(buttons), button)
                }
                gtk_box_append(cast(row), buttons)
            case .failed, .cancelled:
                let why = gtk_label_new(TerminalText.escaped(DownloadList.notice(item)))!
                gtk_label_set_xalign(cast(why), 0)
                gtk_label_set_wrap(cast(why), 1)
                gtk_widget_add_css_class(why, "dim-label")
                gtk_box_append(cast(row), why)
            }
            gtk_box_append(cast(rows), row)
        }
        gtk_widget_set_visible(widget, list.items.isEmpty ? 0 : 1)
    }
}
