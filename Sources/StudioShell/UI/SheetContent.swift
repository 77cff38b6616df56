import CGtk
import ShellKit
import StudioContract

/// What a presentation's sheet shows (see `InWindowSheet`): a header with Studio's title and subtitle,
/// a leading Close or Back button, up to four actions and an overflow menu; below it the sheet
/// page, covered by the loading mark until Studio has painted. The page stays mapped under the
/// cover so it can paint (a hidden page gets no animation frames). The same content serves
/// every presentation of its page (`reset` between them); a page that failed while shown is
/// covered by a failed state with Retry.
@MainActor
package final class SheetContent {
    /// The header bar: a window's title bar, or the top of an in-window sheet.
    let header: WidgetPointer
    /// The page under its loading cover.
    let body: WidgetPointer
    package let web: WidgetPointer
    /// The sheet page's action menus, over its web view.
    let menus: ActionMenuLayer
    private let cover: WidgetPointer
    private let spinner: WidgetPointer
    /// The failed state: what went wrong, and Retry.
    private let failure: WidgetPointer
    private let title: OpaquePointer
    private let closeButton: WidgetPointer
    private let actions: WidgetPointer
    private let menuButton: WidgetPointer
    private(set) var dismissible = true
    /// The person asked to dismiss (Escape, the dimmed page); pressed the leading button; pressed
    /// an action or chose a menu item. What each does is the presentation life cycle's call.
    var onDismiss: (() -> Void)?
    var onNavigation: (() -> Void)?
    var onAction: ((String) -> Void)?
    /// The person pressed Retry on the failed state.
    var onRetry: (() -> Void)?

    init(page: StudioPage) {
        header = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(cast(header), 0)
        title = OpaquePointer(adw_window_title_new("", ""))
        gtk_header_bar_set_title_widget(cast(header), cgtk_widget(UnsafeMutableRawPointer(title)))
        closeButton = gtk_button_new_with_mnemonic("_Close")!
        gtk_header_bar_pack_start(cast(header), closeButton)
        menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(menuButton), "view-more-symbolic")
        gtk_widget_set_visible(menuButton, 0)
        gtk_header_bar_pack_end(cast(header), menuButton)
        actions = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_header_bar_pack_end(cast(header), actions)

        web = cgtk_widget(UnsafeMutableRawPointer(page.view))!
        gtk_widget_set_vexpand(web, 1)
        gtk_widget_set_hexpand(web, 1)
        if gtk_widget_get_parent(web) != nil { gtk_widget_unparent(web) }
        menus = ActionMenuLayer(web: web)
        body = gtk_overlay_new()!
        gtk_overlay_set_child(cast(body), menus.widget)
        cover = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(cover, "hostshell-sheet-cover")
        gtk_widget_add_css_class(cover, "view")
        spinner = gtk_spinner_new()!
        gtk_spinner_start(cast(spinner))
        gtk_widget_set_size_request(spinner, 32, 32)
        gtk_widget_set_vexpand(spinner, 1)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        gtk_box_append(cast(cover), spinner)
        failure = adw_status_page_new()!
        adw_status_page_set_icon_name(cast(failure), "dialog-warning-symbolic")
        adw_status_page_set_title(cast(failure), "This Sheet Could Not Be Shown")
        let retry = gtk_button_new_with_mnemonic("_Retry")!
        gtk_widget_add_css_class(retry, "pill")
        gtk_widget_add_css_class(retry, "suggested-action")
        gtk_widget_set_halign(retry, GTK_ALIGN_CENTER)
        adw_status_page_set_child(cast(failure), retry)
        gtk_widget_set_vexpand(failure, 1)
        gtk_widget_set_visible(failure, 0)
        gtk_box_append(cast(cover), failure)
        gtk_overlay_add_overlay(cast(body), cover)
        onSignal(raw(closeButton), "clicked") { [weak self] in self?.onNavigation?() }
        onSignal(raw(retry), "clicked") { [weak self] in self?.onRetry?() }
    }

    /// Back to how a sheet starts (the loading mark, no header of Studio's): its page waits,
    /// hidden, for the next presentation.
    func reset() {
        menus.hide()
        gtk_widget_set_visible(failure, 0)
        gtk_widget_set_visible(spinner, 1)
        gtk_widget_set_visible(cover, 1)
        adw_window_title_set_title(title, "")
        adw_window_title_set_subtitle(title, "")
        while let child = gtk_widget_get_first_child(actions) { gtk_box_remove(cast(actions), child) }
        gtk_widget_set_visible(menuButton, 0)
        gtk_menu_button_set_popover(cast(menuButton), nil)
    }

    /// The sheet's page failed while it showed: say so over it, with Retry; Close stays.
    func showFailure(_ message: String) {
        menus.hide()
        adw_status_page_set_description(cast(failure), message)
        gtk_widget_set_visible(spinner, 0)
        gtk_widget_set_visible(failure, 1)
        gtk_widget_set_visible(cover, 1)
        while let child = gtk_widget_get_first_child(actions) { gtk_box_remove(cast(actions), child) }
        gtk_widget_set_visible(menuButton, 0)
        apply(dismissible: true)
        apply(navigation: .close, label: nil)
    }

    /// Studio has painted the presentation: take the loading mark away.
    func reveal() {
        gtk_widget_set_visible(cover, 0)
        gtk_widget_grab_focus(web)
    }

    package func apply(dismissible: Bool) { self.dismissible = dismissible }

    /// The leading button: Close (a label), Back (an arrow, `label` as its tooltip), or none.
    package func apply(navigation: HeaderNavigation?, label: String?) {
        gtk_widget_set_visible(closeButton, navigation == nil ? 0 : 1)
        switch navigation {
        case .back:
            gtk_button_set_icon_name(cast(closeButton), "go-previous-symbolic")
            gtk_widget_set_tooltip_text(closeButton, label ?? "Back")
        case .close, nil:
            if let label { gtk_button_set_label(cast(closeButton), label) } else { gtk_button_set_label(cast(closeButton), "_Close") }
            gtk_button_set_use_underline(cast(closeButton), 1)
            gtk_widget_set_tooltip_text(closeButton, nil)
        }
    }

    /// The title `presentation/open` gives, before Studio describes the header.
    package func apply(title text: String, subtitle: String?) {
        adw_window_title_set_title(title, text)
        adw_window_title_set_subtitle(title, subtitle ?? "")
    }

    /// The header Studio describes: title, subtitle, actions and menu (the leading button is
    /// `apply(navigation:label:)`).
    package func apply(header update: PresentationHeader) {
        adw_window_title_set_title(title, update.title)
        adw_window_title_set_subtitle(title, update.subtitle ?? "")
        while let child = gtk_widget_get_first_child(actions) { gtk_box_remove(cast(actions), child) }
        for action in update.actions {
            let button = gtk_button_new_from_icon_name(IconTokens.symbolicName(for: action.icon))!
            gtk_widget_set_tooltip_text(button, action.label)
            let id = action.id
            onSignal(raw(button), "clicked") { [weak self] in self?.onAction?(id) }
            gtk_box_append(cast(actions), button)
        }
        gtk_widget_set_visible(menuButton, update.menu.isEmpty ? 0 : 1)
        gtk_widget_set_tooltip_text(menuButton, update.menuLabel ?? "More")
        gtk_menu_button_set_popover(cast(menuButton), update.menu.isEmpty ? nil : menuPopover(update.menu))
    }

    private func menuPopover(_ items: [HeaderMenuItem]) -> WidgetPointer {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let popover = gtk_popover_new()!
        PopoverFitting.keepInside(popover)
        for item in items {
            let button = gtk_button_new()!
            let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
            if let icon = item.icon { gtk_box_append(cast(row), gtk_image_new_from_icon_name(IconTokens.symbolicName(for: icon))) }
            let label = gtk_label_new(item.label)!
            gtk_label_set_xalign(cast(label), 0)
            gtk_box_append(cast(row), label)
            gtk_button_set_child(cast(button), row)
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_set_sensitive(button, item.disabled ? 0 : 1)
            let id = item.id
            onSignal(raw(button), "clicked") { [weak self] in
                gtk_popover_popdown(cast(popover))
                self?.onAction?(id)
            }
            gtk_box_append(cast(box), button)
        }
        gtk_popover_set_child(cast(popover), box)
        return popover
    }
}
