import BridgeRuntime
import CGtk

/// One Studio page with the native chrome its catalog describes: a back bar above the page, and
/// a bottom tab bar (phone) or a sidebar (tablet, desktop), or the loading mark and failure
/// screens in its place. When there is no native navigation, only the page shows and Studio
/// draws its own. A `StudioWindow` shows one at a time.
@MainActor
final class StudioView {
    /// The view's root widget: an overlay (where phone sheets rise) over a stack of the status
    /// page and the content.
    let widget: WidgetPointer
    private let stack: WidgetPointer
    let page: StudioPage
    private let tabBar = TabBar()
    private let sidebar = Sidebar()
    private let backBar = BackBarView()
    /// Upload progress while a media intake runs.
    let uploads = UploadPanel()
    /// Studio's action menus over the web view.
    let menus: ActionMenuLayer
    private var layout: NavigationLayout = .none
    private let statusTitle: WidgetPointer
    private let statusDetail: WidgetPointer
    private let statusIcon: WidgetPointer
    private let spinner: WidgetPointer
    private let retryButton: WidgetPointer
    /// Called when the person presses Retry on a failure screen.
    var onRetry: (() -> Void)?
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

        // Loading and failure share one status page: the loading mark (a spinner, which GTK
        // shows still when animations are off) or an icon, a title, a detail and Retry.
        let status = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_valign(status, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(status, 32)
        gtk_widget_set_margin_end(status, 32)
        spinner = gtk_spinner_new()!
        gtk_widget_set_size_request(spinner, 48, 48)
        statusIcon = gtk_image_new_from_icon_name("network-offline-symbolic")!
        gtk_image_set_pixel_size(cast(statusIcon), 64)
        gtk_widget_add_css_class(statusIcon, "dim-label")
        statusTitle = gtk_label_new("")!
        gtk_widget_add_css_class(statusTitle, "title-2")
        gtk_label_set_wrap(cast(statusTitle), 1)
        gtk_label_set_justify(cast(statusTitle), GTK_JUSTIFY_CENTER)
        statusDetail = gtk_label_new("")!
        gtk_label_set_wrap(cast(statusDetail), 1)
        gtk_label_set_justify(cast(statusDetail), GTK_JUSTIFY_CENTER)
        gtk_label_set_selectable(cast(statusDetail), 1)
        retryButton = gtk_button_new_with_mnemonic("_Retry")!
        gtk_widget_add_css_class(retryButton, "pill")
        gtk_widget_add_css_class(retryButton, "suggested-action")
        gtk_widget_set_halign(retryButton, GTK_ALIGN_CENTER)
        for widget in [spinner, statusIcon, statusTitle, statusDetail, retryButton] { gtk_box_append(cast(status), widget) }

        stack = gtk_stack_new()!
        gtk_stack_set_transition_type(cast(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_add_named(cast(stack), status, "status")
        gtk_stack_add_named(cast(stack), root, "content")
        gtk_stack_set_visible_child_name(cast(stack), "content")
        widget = gtk_overlay_new()!
        gtk_overlay_set_child(cast(widget), stack)
        onSignal(raw(retryButton), "clicked") { [weak self] in self?.onRetry?() }

        tabBar.onTap = { [weak page] id in page?.tap(destination: id) }
        sidebar.onTap = { [weak page] id in page?.tap(destination: id) }
        backBar.onBack = { [weak page] in page?.tapBack() }
        show(page.session.nativeChrome)
        installShortcuts()
    }

    /// Shows `screen` (decided by the session's `LoadingMachine`; this only draws it): the loading
    /// mark with what is happening, a failure screen with Retry, or the page and its chrome.
    func show(_ screen: Screen) {
        switch screen {
        case .page:
            gtk_spinner_stop(cast(spinner))
            gtk_stack_set_visible_child_name(cast(stack), "content")
        case .loading(let text):
            gtk_spinner_start(cast(spinner))
            gtk_widget_set_visible(spinner, 1)
            gtk_widget_set_visible(statusIcon, 0)
            gtk_widget_set_visible(retryButton, 0)
            gtk_label_set_text(cast(statusTitle), text)
            gtk_label_set_text(cast(statusDetail), "")
            gtk_stack_set_visible_child_name(cast(stack), "status")
        case .error(let error):
            gtk_spinner_stop(cast(spinner))
            gtk_widget_set_visible(spinner, 0)
            gtk_image_set_from_icon_name(cast(statusIcon), error.icon)
            gtk_widget_set_visible(statusIcon, 1)
            gtk_label_set_text(cast(statusTitle), error.title)
            gtk_label_set_text(cast(statusDetail), error.detail)
            gtk_widget_set_visible(retryButton, 1)
            gtk_stack_set_visible_child_name(cast(stack), "status")
            gtk_widget_grab_focus(retryButton)
        }
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

    /// Alt+Left goes back when the back bar is shown, as in every GNOME app. The shortcut is
    /// global to whichever window shows this view.
    private func installShortcuts() {
        let controller = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
        let trigger = gtk_shortcut_trigger_parse_string("<Alt>Left")
        let action = gtk_callback_action_new({ _, _, data in
            let view = Unmanaged<StudioView>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                guard view.page.session.nativeChrome.backBar != nil else { return 0 }
                view.page.tapBack()
                return 1
            }
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(trigger, action))
        gtk_widget_add_controller(widget, controller)
    }
}
