import CGtk
import HostCore

/// The About window (libadwaita 1.2's `AdwAboutWindow`): name, icon, version, licence, and
/// links to the documentation shipped beside the binary and to the project.
@MainActor
package enum AboutWindow {
    package static func make(parent: WidgetPointer) -> WidgetPointer {
        let window = adw_about_window_new()!
        let about = OpaquePointer(window)
        adw_about_window_set_application_name(about, "HostShell")
        adw_about_window_set_application_icon(about, AppIcon.name)
        adw_about_window_set_version(about, HostShellVersion.current)
        adw_about_window_set_developer_name(about, "The HostShell developers")
        adw_about_window_set_comments(about, "Runs a self-hosted server's Studio on Linux as its phone app runs it: a WebKitGTK view per server with the native bridge.")
        // Apache-2.0, as LICENSE at the root says; About links the licence's text.
        adw_about_window_set_license_type(about, GTK_LICENSE_APACHE_2_0)
        if let readme = documentation {
            adw_about_window_set_website(about, readme)
            adw_about_window_add_link(about, "_Documentation", readme)
        }
        gtk_window_set_transient_for(cgtk_window(raw(window)), cgtk_window(raw(parent)))
        return window
    }

    /// The README shipped with this binary (a checkout, or an installed prefix), as a file URL.
    static var documentation: String? {
        guard let studio = locateBundled("fixtures/studio", marker: "index.html") else { return nil }
        let root = String(studio.dropLast("/fixtures/studio".count))
        for candidate in [root + "/README.md", root + "/share/hostshell/README.md"] where access(candidate, R_OK) == 0 {
            return "file://" + candidate
        }
        return nil
    }
}
