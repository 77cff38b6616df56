import CGtk

/// The few style rules the chrome needs beyond Adwaita's: the selected tab takes the accent
/// colour, in light and dark alike.
@MainActor
package enum Style {
    private static var installed = false

    package static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()!
        let css = """
        .hostshell-tabbar { border-top: 1px solid alpha(currentColor, 0.15); padding: 2px; }
        .hostshell-tabbar button { padding: 4px 2px; }
        .hostshell-tabbar .hostshell-selected { color: @accent_color; }
        .hostshell-backbar { border-bottom: 1px solid alpha(currentColor, 0.15); padding: 4px; }
        .hostshell-uploads { border-top: 1px solid alpha(currentColor, 0.15); padding: 8px 12px; }
        .hostshell-haptic-selection { box-shadow: inset 0 0 0 2px alpha(@accent_color, 0.6); }
        .hostshell-haptic-success { box-shadow: inset 0 0 0 4px alpha(@success_color, 0.8); }
        .hostshell-haptic-warning { box-shadow: inset 0 0 0 4px alpha(@warning_color, 0.8); }
        .hostshell-haptic-error { box-shadow: inset 0 0 0 6px alpha(@error_color, 0.8); }
        .hostshell-haptic-start { box-shadow: inset 0 0 0 3px alpha(@accent_color, 0.8); }
        .hostshell-haptic-stop { box-shadow: inset 0 0 0 1px alpha(currentColor, 0.5); }
        .hostshell-scrim { background-color: alpha(black, 0.4); }
        .hostshell-sheet { border-radius: 12px 12px 0 0; box-shadow: 0 -2px 8px alpha(black, 0.3); }
        .hostshell-panel { border-radius: 12px; box-shadow: 0 4px 16px alpha(black, 0.35); }
        .hostshell-map-panel { box-shadow: -2px 0 10px alpha(black, 0.25); }
        """
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
