import BridgeRuntime
import CGtk

/// A window hosting one Studio page with the native chrome its catalog describes: a back bar
/// above the page, and a bottom tab bar (phone) or a sidebar (tablet, desktop). When there is no
/// native navigation, only the page shows and Studio draws its own.
@MainActor
final class StudioWindow {
    let window: WidgetPointer
    let page: StudioPage
    private let tabBar = TabBar()
    private let sidebar = Sidebar()
    private let backBar = BackBarView()
    private var layout: NavigationLayout = .none

    init(page: StudioPage, title: String) {
        self.page = page
        Style.install()
        window = gtk_window_new()!
        gtk_window_set_title(cast(window), title)
        let size = page.session.profile.windowSize
        gtk_window_set_default_size(cast(window), Int32(size.width), Int32(size.height))

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(content), backBar.widget)
        let web = cgtk_widget(UnsafeMutableRawPointer(page.view))!
        gtk_widget_set_vexpand(web, 1)
        gtk_widget_set_hexpand(web, 1)
        gtk_box_append(cast(content), web)
        gtk_box_append(cast(content), tabBar.widget)

        let root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(cast(root), sidebar.widget)
        gtk_box_append(cast(root), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        gtk_box_append(cast(root), content)
        gtk_window_set_child(cast(window), root)

        tabBar.onTap = { [weak page] id in page?.tap(destination: id) }
        sidebar.onTap = { [weak page] id in page?.tap(destination: id) }
        backBar.onBack = { [weak page] in page?.tapBack() }
        page.onChromeChanged = { [weak self] chrome in self?.show(chrome) }
        show(page.session.nativeChrome)
        installShortcuts()
    }

    func present() { gtk_window_present(cast(window)) }

    private func show(_ chrome: NativeChrome) {
        if chrome.layout != layout {
            layout = chrome.layout
            switch chrome.layout {
            case .none:
                break
            case .tabs(let tabs, let more):
                tabBar.show(tabs: tabs, more: more, selected: chrome.selectedDestinationId)
            case .sidebar(let groups):
                sidebar.show(groups: groups, selected: chrome.selectedDestinationId)
            }
        }
        let tabs: Bool, side: Bool
        switch chrome.layout {
        case .none: (tabs, side) = (false, false)
        case .tabs: (tabs, side) = (true, false)
        case .sidebar: (tabs, side) = (false, true)
        }
        gtk_widget_set_visible(tabBar.widget, tabs ? 1 : 0)
        gtk_widget_set_visible(sidebar.widget, side ? 1 : 0)
        if let separator = gtk_widget_get_next_sibling(sidebar.widget) { gtk_widget_set_visible(separator, side ? 1 : 0) }
        tabBar.select(chrome.selectedDestinationId)
        sidebar.select(chrome.selectedDestinationId)
        backBar.show(chrome.backBar)
    }

    /// Alt+Left goes back when the back bar is shown, as in every GNOME app.
    private func installShortcuts() {
        let controller = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
        let trigger = gtk_shortcut_trigger_parse_string("<Alt>Left")
        let action = gtk_callback_action_new({ _, _, data in
            let window = Unmanaged<StudioWindow>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard window.page.session.nativeChrome.backBar != nil else { return 0 }
                window.page.tapBack()
                return 1
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(trigger, action))
        gtk_widget_add_controller(window, controller)
    }
}

/// The few style rules the chrome needs beyond Adwaita's: the selected tab takes the accent
/// colour, in light and dark alike.
@MainActor
enum Style {
    private static var installed = false

    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = gtk_css_provider_new()!
        let css = """
        .hostshell-tabbar { border-top: 1px solid alpha(currentColor, 0.15); padding: 2px; }
        .hostshell-tabbar button { padding: 4px 2px; }
        .hostshell-tabbar .hostshell-selected { color: @accent_color; }
        .hostshell-backbar { border-bottom: 1px solid alpha(currentColor, 0.15); padding: 4px; }
        """
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
