import CGtk
import ShellKit
import StudioContract

/// The native back bar of a drill-in page: a back button labelled with Studio's `back.label`
/// and the page title. Hidden on top-level pages. Alt+Left also goes back.
@MainActor
package final class BackBarView {
    let widget: WidgetPointer
    var onBack: () -> Void = {}
    private let button: WidgetPointer
    private let buttonLabel: WidgetPointer
    private let title: WidgetPointer

    init() {
        widget = gtk_center_box_new()!
        gtk_widget_add_css_class(widget, "toolbar")
        gtk_widget_add_css_class(widget, "hostshell-backbar")
        button = gtk_button_new()!
        let content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_box_append(cast(content), gtk_image_new_from_icon_name("go-previous-symbolic"))
        buttonLabel = gtk_label_new("")!
        gtk_box_append(cast(content), buttonLabel)
        gtk_button_set_child(cast(button), content)
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_set_tooltip_text(button, "Back (Alt+Left)")
        title = gtk_label_new("")!
        gtk_widget_add_css_class(title, "heading")
        gtk_label_set_ellipsize(cast(title), PANGO_ELLIPSIZE_END)
        gtk_center_box_set_start_widget(cast(widget), button)
        gtk_center_box_set_center_widget(cast(widget), title)
        onSignal(raw(button), "clicked") { [weak self] in self?.onBack() }
        gtk_widget_set_visible(widget, 0)
    }

    func show(_ bar: BackBar?) {
        guard let bar else { gtk_widget_set_visible(widget, 0); return }
        gtk_label_set_text(cast(buttonLabel), bar.backLabel)
        gtk_label_set_text(cast(title), bar.title ?? "")
        gtk_widget_set_visible(widget, 1)
    }
}
