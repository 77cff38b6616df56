import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// One app's desktop notifications: a `GApplication` whose id is the app's bundle id (so the
/// desktop names the app), `GNotification`s sent through it, and the `NotificationShelf` of
/// what is shown. When no notification server owns `org.freedesktop.Notifications` on the
/// session bus (or there is no bus, as in CI) nothing reaches a desktop and the shelf alone
/// records them (`ctl state`'s `notifications`); `ctl notification activate|dismiss ID` acts
/// on them as a person would.
@MainActor
package final class DesktopNotifications {
    package let appId: String
    private var application: UnsafeMutablePointer<GApplication>?
    /// Why nothing reaches the desktop, or nil when it does.
    private(set) var unavailable: String?
    private(set) var shelf = NotificationShelf()
    /// A person opened a notification (on the desktop or through `ctl`).
    var onActivate: ((NotificationShelf.Item) -> Void)?

    init(appId: String) {
        self.appId = appId
        let made = SessionBus.notifyingApplication(appId) { application in
            let open = g_simple_action_new("push-open", g_variant_type_new("s"))!
            ShellKit.onActivate(open) { [weak self] parameter in
                guard let parameter else { return }
                _ = self?.activate(String(cString: g_variant_get_string(parameter, nil)))
            }
            g_action_map_add_action(OpaquePointer(application), open)
            g_object_unref(UnsafeMutableRawPointer(open))
        }
        application = made.application
        unavailable = made.problem
    }

    /// Shows one; true when it reached the desktop (else only the shelf records it). One shown
    /// with the same collapse id is replaced: taken off the desktop and the shelf.
    @discardableResult
    func show(id: String, title: String, body: String, payload: JSONObject, collapseID: String? = nil) -> Bool {
        let onDesktop = application != nil
        if let application {
            let notification = g_notification_new(title.isEmpty ? appId : title)!
            if !body.isEmpty { g_notification_set_body(notification, body) }
            g_notification_set_default_action_and_target_value(notification, "app.push-open", g_variant_new_string(id))
            g_application_send_notification(application, Self.desktopId(id), notification)
            g_object_unref(UnsafeMutableRawPointer(notification))
        }
        let replaced = shelf.show(NotificationShelf.Item(id: id, title: title, body: body, payload: payload, onDesktop: onDesktop, collapseID: collapseID))
        if let application { for old in replaced { g_application_withdraw_notification(application, Self.desktopId(old)) } }
        return onDesktop
    }

    func withdraw(_ ids: [String]) {
        if let application { for id in ids { g_application_withdraw_notification(application, Self.desktopId(id)) } }
        shelf.withdraw(ids)
    }

    /// A person opened `id`: the shelf lets it go and `onActivate` gets it. False when none is shown by that id.
    func activate(_ id: String) -> Bool {
        guard let item = shelf.activate(id) else { return false }
        if let application { g_application_withdraw_notification(application, Self.desktopId(id)) }
        onActivate?(item)
        return true
    }

    func dismiss(_ id: String) -> Bool {
        guard shelf.dismiss(id) != nil else { return false }
        if let application { g_application_withdraw_notification(application, Self.desktopId(id)) }
        return true
    }

    package func close() {
        if let application { g_object_unref(UnsafeMutableRawPointer(application)) }
        application = nil
    }

    var json: JSONObject {
        var object = shelf.json
        object["appId"] = .string(appId)
        object["desktop"] = .bool(application != nil)
        object["unavailable"] = unavailable.map(JSONValue.string) ?? .null
        return object
    }

    private static func desktopId(_ id: String) -> String { "push-" + id }
}
