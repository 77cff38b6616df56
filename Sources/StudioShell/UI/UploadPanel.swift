import CGtk
import ShellKit
import StudioContract

/// The upload progress shown under the page while a media intake runs: which file of how many,
/// its progress and the whole batch's, and Cancel. Announced to screen readers by its label.
@MainActor
package final class UploadPanel {
    let widget: WidgetPointer
    private let label: WidgetPointer
    private let fileBar: WidgetPointer
    private let totalBar: WidgetPointer
    var onCancel: (() -> Void)?
    /// How the last intake ended (for state dumps).
    private(set) var last: UploadSummary?

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(widget, "hostshell-uploads")
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_widget_set_hexpand(texts, 1)
        label = gtk_label_new("")!
        gtk_label_set_xalign(cast(label), 0)
        gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_MIDDLE)
        fileBar = gtk_progress_bar_new()!
        totalBar = gtk_progress_bar_new()!
        gtk_widget_add_css_class(totalBar, "osd")
        for child in [label, fileBar, totalBar] { gtk_box_append(cast(texts), child) }
        let cancel = gtk_button_new_with_mnemonic("_Cancel")!
        gtk_widget_set_valign(cancel, GTK_ALIGN_CENTER)
        gtk_box_append(cast(widget), texts)
        gtk_box_append(cast(widget), cancel)
        gtk_widget_set_visible(widget, 0)
        onSignal(raw(cancel), "clicked") { [weak self] in self?.onCancel?() }
    }

    func show(_ text: String) {
        gtk_label_set_text(cast(label), text)
        gtk_progress_bar_set_fraction(cast(fileBar), 0)
        gtk_progress_bar_set_fraction(cast(totalBar), 0)
        gtk_widget_set_visible(widget, 1)
    }

    func update(_ progress: UploadProgress) {
        gtk_label_set_text(cast(label), progress.label)
        gtk_progress_bar_set_fraction(cast(fileBar), progress.fileFraction)
        gtk_progress_bar_set_fraction(cast(totalBar), progress.totalFraction)
    }

    /// The intake ended: the panel goes, and remembers how it ended.
    func finish(_ summary: UploadSummary) {
        last = summary
        gtk_widget_set_visible(widget, 0)
    }

    var isShown: Bool { gtk_widget_get_visible(widget) != 0 }
    var text: String { String(cString: gtk_label_get_text(cast(label))) }
}
