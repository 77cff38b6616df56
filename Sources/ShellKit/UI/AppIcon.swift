import CGtk

/// HostShell's own icon (`data/icons/hicolor/scalable/apps/hostshell.svg`): installed, the icon
/// theme has it; run from a checkout's build tree, the shipped `data/icons` joins the theme's
/// search path (GTK looks for each theme's folders in every search path), so About and the
/// windows show it instead of a broken image.
@MainActor
package enum AppIcon {
    package static let name = "hostshell"

    /// Makes the icon findable by name on the default display, and the windows' default icon.
    package static func findable() {
        gtk_window_set_default_icon_name(name)
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display),
              gtk_icon_theme_has_icon(theme, name) == 0,
              let icons = locateBundled("data/icons", marker: "hicolor/scalable/apps/\(name).svg") else { return }
        gtk_icon_theme_add_search_path(theme, icons)
    }

    /// The icon theme finds the icon (`ctl state`'s `desktop.appIcon`).
    package static var found: Bool {
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) else { return false }
        return gtk_icon_theme_has_icon(theme, name) != 0
    }
}
