import CGtk

/// HostShell's own icon (`data/icons/hicolor/scalable/apps/hostshell.svg`): installed, the icon
/// theme has it; run from a checkout's build tree, the shipped `data/icons` joins the theme's
/// search path (GTK looks for each theme's folders in every search path), so About and the
/// windows show it instead of a broken image.
@MainActor
package enum AppIcon {
    package static let name = "hostshell"

    /// Makes the icon findable by name on the default display, and the windows' default icon.
    /// The shipped folder joins the search path whenever there is one (installed, it holds the
    /// same icon the theme has): asking the theme whether it has the icon would load the whole
    /// theme, about 25 ms of start-up spent before the page's process could start.
    package static func findable() {
        gtk_window_set_default_icon_name(name)
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display),
              let icons = locateBundled("data/icons", marker: "hicolor/scalable/apps/\(name).svg") else { return }
        gtk_icon_theme_add_search_path(theme, icons)
    }

    /// The icon theme finds the icon (`ctl state`'s `desktop.appIcon`).
    package static var found: Bool {
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) else { return false }
        return gtk_icon_theme_has_icon(theme, name) != 0
    }
}
