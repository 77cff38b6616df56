import CGtk
import HostCore

/// The app's own desktop notifications for downloads that ended while no window of the app was
/// active (`DownloadNotification` decides): a `GApplication` of HostShell's own (made on the
/// first one, when a notification server owns `org.freedesktop.Notifications` on the session
/// bus), with the actions `app.download-open(N)` and `app.download-show(N)` that open the file
/// or show it in its folder. Every one is recorded for `ctl state` (`downloads.notifications`),
/// with `desktop: false` when there is no server (CI). `ctl lifecycle blur|focus` overrides
/// the windows' focus (a display with no window manager gives none that can be relied on).
@MainActor
package final class DownloadNotifier {
    /// The desktop entry is installed under this name (scripts/install), so the desktop can name the app.
    package static let appId = "org.hostshell.HostShell"
    private var application: UnsafeMutablePointer<GApplication>?
    /// Why nothing reaches the desktop (nil: it does, or not asked yet).
    private(set) var unavailable: String?
    private var checked = false
    /// The window focus `ctl lifecycle blur|focus` set (nil: the windows say).
    var focusOverride: Bool?
    private(set) var notifications: [DownloadNotification] = []
    /// Whose downloads its actions open.
    private let downloads: DownloadCenter

    /// One per app (`AppEnvironment`).
    init(downloads: DownloadCenter) { self.downloads = downloads }

    /// `item` ended; `windowActive` is whether one of the app's windows is the active one.
    package func ended(_ item: DownloadList.Item, windowActive: Bool) {
        let active = DownloadNotification.appActive(windowActive: windowActive, override: focusOverride)
        if !active { prepare() }
        guard let notification = DownloadNotification.forEnded(item, appActive: active, server: application != nil) else { return }
        if let application { send(notification, through: application) }
        notifications = KeptList.appending(notification, to: notifications, keeping: DownloadNotification.kept)
    }

    /// Makes and registers the application once, if a notification server is there.
    private func prepare() {
        guard !checked else { return }
        checked = true
        let made = SessionBus.notifyingApplication(Self.appId) { [downloads] application in
            for name in [DownloadNotification.openAction, DownloadNotification.showAction] {
                let action = g_simple_action_new(name, g_variant_type_new("i"))!
                onActivate(action) { [weak downloads] parameter in
                    guard let parameter, let choice = DownloadNotification.choice(forAction: name) else { return }
                    _ = downloads?.open(Int(g_variant_get_int32(parameter)), choice: choice)
                }
                g_action_map_add_action(OpaquePointer(application), action)
                g_object_unref(UnsafeMutableRawPointer(action))
            }
        }
        application = made.application
        unavailable = made.problem
    }

    private func send(_ notification: DownloadNotification, through application: UnsafeMutablePointer<GApplication>) {
        let note = g_notification_new(notification.title)!
        g_notification_set_body(note, notification.body)
        if notification.actions {
            let id = Int32(clamping: notification.downloadId)
            g_notification_set_default_action_and_target_value(note, "app.\(DownloadNotification.openAction)", g_variant_new_int32(id))
            g_notification_add_button_with_target_value(note, "Show in Folder", "app.\(DownloadNotification.showAction)", g_variant_new_int32(id))
        }
        g_application_send_notification(application, notification.id, note)
        g_object_unref(UnsafeMutableRawPointer(note))
    }

    /// `ctl lifecycle blur|focus` on a Studio: the windows count as inactive or active from now on.
    package func simulate(_ change: ControlCommand.LifecycleChange) -> String? {
        switch change {
        case .blur: focusOverride = false
        case .focus: focusOverride = true
        case .background, .foreground:
            return "a Studio takes lifecycle blur or focus (the window's focus, for download notifications); background and foreground are a Capacitor app's"
        }
        return nil
    }

    package var json: JSONValue { .array(notifications.map(\.json)) }
}
