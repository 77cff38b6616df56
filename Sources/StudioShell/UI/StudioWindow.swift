import CGtk
import HostCore
import ShellKit
import StudioContract

/// The Studio app's window: the host core's `HostWindow` naming the server, with Studio's server
/// switcher (when more than one is saved) and account menu in its header, above one
/// `StudioView` at a time. Sized for the device profile.
@MainActor
package final class StudioWindow {
    /// A saved server as the switcher lists it.
    package struct ServerEntry {
        var id: String
        var name: String
        var address: String
    }

    package let host: HostWindow
    package var window: WidgetPointer { host.window }
    package private(set) var view: StudioView
    private let accountButton: WidgetPointer
    private let accountLabel: WidgetPointer
    private let signInButton: WidgetPointer
    private let signOutButton: WidgetPointer
    /// The account menu's actions.
    var onSignIn: (() -> Void)?
    var onSignOut: (() -> Void)?
    private let switcher: WidgetPointer
    private let serverList: WidgetPointer
    /// Called with the id of the server the user chose in the switcher.
    var onChooseServer: ((String) -> Void)?

    /// The downloads button (hidden until there is a download).
    let downloads = DownloadsButton()
    /// The app's actions in this window: its keys and the primary menu (none in a kiosk).
    private(set) var actions: AppActions!
    /// Called with an action a person (or `ctl action`) triggered in this window.
    var onAction: ((AppAction) -> Void)?

    package convenience init(page: StudioPage, title: String, subtitle: String = "") {
        self.init(view: StudioView(page: page), title: title, subtitle: subtitle)
    }

    init(view: StudioView, title: String, subtitle: String = "", size: (width: Int, height: Int)? = nil, kiosk: Bool = false,
         device: DeviceHost? = nil) {
        self.view = view
        let size = size ?? view.page.session.profile.windowSize
        host = HostWindow(content: view.widget, title: title, subtitle: subtitle, size: (size.width, size.height), device: device)
        // The switcher: a menu button (F10 opens it) with the saved servers, the shown one ticked.
        switcher = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(switcher), "network-server-symbolic")
        gtk_menu_button_set_primary(cast(switcher), 1)
        gtk_widget_set_tooltip_text(switcher, "Switch Server (F10)")
        serverList = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        let popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), serverList)
        gtk_menu_button_set_popover(cast(switcher), popover)
        PopoverFitting.keepInside(popover)
        gtk_widget_set_visible(switcher, 0)
        host.packStart(switcher)
        // The primary menu goes rightmost: its place is packed first at the end.
        let menuSlot = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        host.packEnd(menuSlot)
        host.packEnd(downloads.widget)
        // The account menu: who is signed in, Sign In… and Sign Out.
        accountButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(accountButton), "avatar-default-symbolic")
        gtk_widget_set_tooltip_text(accountButton, "Account")
        let account = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        accountLabel = gtk_label_new("")!
        gtk_label_set_wrap(cast(accountLabel), 1)
        gtk_label_set_max_width_chars(cast(accountLabel), 36)
        signInButton = gtk_button_new_with_mnemonic("_Sign In…")!
        signOutButton = gtk_button_new_with_mnemonic("Sign _Out")!
        gtk_widget_add_css_class(signOutButton, "destructive-action")
        for child in [accountLabel, signInButton, signOutButton] { gtk_box_append(cast(account), child) }
        let accountPopover = gtk_popover_new()!
        gtk_popover_set_child(cast(accountPopover), account)
        gtk_menu_button_set_popover(cast(accountButton), accountPopover)
        PopoverFitting.keepInside(accountPopover)
        host.packEnd(accountButton)
        onSignal(raw(signInButton), "clicked") { [weak self] in
            guard let self else { return }
            gtk_menu_button_popdown(cast(self.accountButton))
            self.onSignIn?()
        }
        onSignal(raw(signOutButton), "clicked") { [weak self] in
            guard let self else { return }
            gtk_menu_button_popdown(cast(self.accountButton))
            self.onSignOut?()
        }
        setAccount("", signedIn: false)
        actions = AppActions(window: host.window, kiosk: kiosk) { [weak self] action in self?.onAction?(action) }
        if let menu = actions.menuButton { gtk_box_append(cast(menuSlot), menu) }
    }

    /// What the account menu says and offers.
    func setAccount(_ text: String, signedIn: Bool) {
        gtk_label_set_text(cast(accountLabel), text)
        gtk_widget_set_visible(signInButton, signedIn ? 0 : 1)
        gtk_widget_set_visible(signOutButton, signedIn ? 1 : 0)
        gtk_widget_set_visible(accountButton, text.isEmpty ? 0 : 1)
    }

    /// Opens the server switcher (F10), when more than one server is saved; closes it when it
    /// is open, as F10 does.
    func openSwitcher() -> Bool {
        guard gtk_widget_get_visible(switcher) != 0 else { return false }
        if let popover = gtk_menu_button_get_popover(cast(switcher)), gtk_widget_get_visible(cgtk_widget(UnsafeMutableRawPointer(popover))) != 0 {
            gtk_menu_button_popdown(cast(switcher))
        } else {
            gtk_menu_button_popup(cast(switcher))
        }
        return true
    }

    /// A short notice over the page.
    func toast(_ text: String) { host.toast(text) }

    package func present() { host.present() }

    /// Shows another Studio view in this window (the previous one is removed from it).
    func show(_ view: StudioView, title: String, subtitle: String) {
        self.view = view
        host.show(view.widget, title: title, subtitle: subtitle)
    }

    /// The servers the switcher offers; hidden when there is only one.
    func setServers(_ servers: [ServerEntry], current: String) {
        while let row = gtk_widget_get_first_child(serverList) { gtk_box_remove(cast(serverList), row) }
        for server in servers {
            let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
            let labels = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
            let name = gtk_label_new(server.name)!
            gtk_label_set_xalign(cast(name), 0)
            let address = gtk_label_new(server.address)!
            gtk_label_set_xalign(cast(address), 0)
            gtk_widget_add_css_class(address, "dim-label")
            gtk_widget_add_css_class(address, "caption")
            gtk_box_append(cast(labels), name)
            gtk_box_append(cast(labels), address)
            gtk_widget_set_hexpand(labels, 1)
            gtk_box_append(cast(box), labels)
            let tick = gtk_image_new_from_icon_name("object-select-symbolic")!
            gtk_widget_set_opacity(tick, server.id == current ? 1 : 0)
            gtk_box_append(cast(box), tick)
            let button = gtk_button_new()!
            gtk_widget_add_css_class(button, "flat")
            gtk_button_set_child(cast(button), box)
            let id = server.id
            onSignal(raw(button), "clicked") { [weak self] in
                guard let self else { return }
                gtk_menu_button_popdown(cast(self.switcher))
                if id != current { self.onChooseServer?(id) }
            }
            gtk_box_append(cast(serverList), button)
        }
        gtk_widget_set_visible(switcher, servers.count > 1 ? 1 : 0)
    }
}
