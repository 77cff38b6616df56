import CGtk
import HostCore
import ShellKit
import StudioContract

/// One Studio page with the native chrome its catalog describes: a back bar above the page, and
/// a bottom tab bar (phone) or a sidebar (tablet, desktop), or the loading mark and failure
/// screens in its place. When there is no native navigation, only the page shows and Studio
/// draws its own. The loading and failure screens are the host core's `ScreenView`. A
/// `StudioWindow` shows one at a time.
@MainActor
package final class StudioView {
    /// The view's root widget: an overlay (where phone sheets rise) over a stack of the status
    /// page and the content.
    let widget: WidgetPointer
    /// The loading and failure screens in place of the content (the host core's `ScreenView`).
    private let screens: ScreenView
    package let page: StudioPage
    private let tabBar = TabBar()
    private let sidebar = Sidebar()
    private let backBar = BackBarView()
    /// Upload progress while a media intake runs.
    let uploads = UploadPanel()
    /// Studio's action menus over the web view.
    let menus: ActionMenuLayer
    private var layout: NavigationLayout = .none
    /// Called when the person presses Retry on a failure screen.
    var onRetry: (() -> Void)? {
        get { screens.onRetry }
        set { screens.onRetry = newValue }
    }
    private var pulseGeneration = 0

    init(page: StudioPage) {
        self.page = page
        Style.install()
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(content), backBar.widget)
        let web = cgtk_widget(UnsafeMutableRawPointer(page.view))!
        gtk_widget_set_vexpand(web, 1)
        gtk_widget_set_hexpand(web, 1)
        menus = ActionMenuLayer(web: web)
        gtk_box_append(cast(content), menus.widget)
        gtk_box_append(cast(content), uploads.widget)
        gtk_box_append(cast(content), tabBar.widget)

        let root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(cast(root), sidebar.widget)
        gtk_box_append(cast(root), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        gtk_box_append(cast(root), content)

        screens = ScreenView(content: root)
        widget = gtk_overlay_new()!
        gtk_overlay_set_child(cast(widget), screens.widget)

        tabBar.onTap = { [weak page] id in page?.tap(destination: id) }
        sidebar.onTap = { [weak page] id in page?.tap(destination: id) }
        backBar.onBack = { [weak page] in page?.tapBack() }
        show(page.session.nativeChrome)
        installShortcuts()
    }

    /// Shows `screen` (decided by the session's `LoadingMachine`): the loading mark, a failure
    /// screen with Retry, or the page and its chrome.
    func show(_ screen: Screen) {
        self.screen = screen
        screens.show(screen)
        applySelection()
    }
    /// The screen shown and the page's chrome: an error screen selects nothing.
    private var screen: Screen = .page
    private var chrome = NativeChrome()

    private func applySelection() {
        let shown = chrome.shown(over: screen)
        tabBar.select(shown.selectedDestinationId)
        sidebar.select(shown.selectedDestinationId)
        backBar.show(shown.backBar)
    }

    /// Makes a haptic feedback visible: a short ring around the content, distinct per kind
    /// (there is no vibration motor on a desktop). Several in a row restart the pulse.
    func pulse(_ feedback: HapticFeedback) {
        let style = "hostshell-haptic-" + feedback.rawValue
        for kind in HapticFeedback.allCases { gtk_widget_remove_css_class(widget, "hostshell-haptic-" + kind.rawValue) }
        gtk_widget_add_css_class(widget, style)
        pulseGeneration += 1
        let generation = pulseGeneration
        MainLoop.after(milliseconds: feedback == .error ? 320 : 180) { [weak self] in
            guard let self, self.pulseGeneration == generation else { return }
            gtk_widget_remove_css_class(self.widget, style)
        }
    }

    func show(_ chrome: NativeChrome) {
        self.chrome = chrome
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
        applySelection()
    }

    /// Alt+Left goes back when the back bar is shown, as in every GNOME app. The shortcut is
    /// global to whichever window shows this view.
    private func installShortcuts() {
        let controller = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
        let trigger = gtk_shortcut_trigger_parse_string("<Alt>Left")
        let action = shortcutAction { [weak self] in
            guard let page = self?.page, page.session.nativeChrome.backBar != nil else { return false }
            page.tapBack()
            return true
        }
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(trigger, action))
        gtk_widget_add_controller(widget, controller)
    }
}
