import CGtk
import ShellKit
import StudioContract

/// A destination as a list row: its symbolic icon (generic for unknown tokens) and its title.
@MainActor
package func destinationRow(_ destination: Destination) -> WidgetPointer {
    let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
    gtk_box_append(cast(box), gtk_image_new_from_icon_name(IconTokens.symbolicName(for: destination.icon)))
    let label = gtk_label_new(destination.title)!
    gtk_label_set_xalign(cast(label), 0)
    gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
    gtk_box_append(cast(box), label)
    return box
}
