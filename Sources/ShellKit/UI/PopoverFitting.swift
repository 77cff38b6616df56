import CGtk
import HostCore

/// Keeps a popover inside its window each time it shows (`PopoverFit` decides where): moved
/// sideways off the window's edge, and opened above what it points at near the bottom. Every
/// menu and popover of the app's windows goes through it.
@MainActor
package enum PopoverFitting {
    /// Fits `popover` each time it shows, from then on.
    package static func keepInside(_ popover: WidgetPointer) {
        onSignal(UnsafeMutableRawPointer(popover), "show") { fit(popover) }
    }

    /// Places `popover` now, from where it points and its natural size.
    package static func fit(_ popover: WidgetPointer) {
        guard let parent = gtk_widget_get_parent(popover), let root = gtk_widget_get_root(parent) else { return }
        let window = cgtk_widget(UnsafeMutableRawPointer(root))!
        var rect = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(parent), height: gtk_widget_get_height(parent))
        var pointing = GdkRectangle()
        if gtk_popover_get_pointing_to(cast(popover), &pointing) != 0 { rect = pointing }
        var from = graphene_point_t(x: Float(rect.x), y: Float(rect.y)), to = graphene_point_t()
        guard gtk_widget_compute_point(parent, window, &from, &to) != 0 else { return }
        var least: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        gtk_widget_measure(popover, GTK_ORIENTATION_HORIZONTAL, -1, &least, &width, nil, nil)
        gtk_widget_measure(popover, GTK_ORIENTATION_VERTICAL, width, &least, &height, nil, nil)
        let placed = PopoverFit.place(anchor: (Int(to.x.rounded()), Int(to.y.rounded()), Int(rect.width), Int(rect.height)),
                                      size: (Int(width), Int(height)),
                                      window: (Int(gtk_widget_get_width(window)), Int(gtk_widget_get_height(window))))
        gtk_popover_set_position(cast(popover), placed.side == .below ? GTK_POS_BOTTOM : GTK_POS_TOP)
        gtk_popover_set_offset(cast(popover), Int32(placed.offsetX), 0)
    }
}
