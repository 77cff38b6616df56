import CGtk
import CapacitorContract
import HostCore
import Push

/// A Capacitor app's own control commands (the core keeps state, wait, events, snapshot, eval,
/// resize and memory pressure): the window's lifecycle as the system would change it, a link
/// opened, and the plugins' host events (`permission`, `push-token`) passed to whichever plugin
/// takes them. A command with no meaning here says so.
extension CapacitorApp {
    package func handle(_ command: ControlCommand, ok: @escaping @MainActor (JSONValue) -> Void, fail: @escaping @MainActor (String) -> Void) {
        switch command {
        case .lifecycle(let change):
            // From now on the control interface drives the lifecycle, not the window's focus
            // (another window on a shared display must not change what a test set).
            lifecycleEvent(.control(change))
            ok(["message": .string("lifecycle \(change.rawValue)"), "app": page.bridge.plugin(named: AppPlugin.name).map { .object($0.state) } ?? .null])
        case .openURL(let url):
            guard CapacitorURL.scheme(of: url) != nil else {
                return fail("open-url takes a link with a scheme, e.g. homesec://live/front-door; \(TerminalText.escaped(url)) has none")
            }
            openURL(url, launch: false)
            ok(["message": .string("opened \(url)")])
        case .permission(let grant):
            if page.post(.permission(grant: grant)) { return ok(["message": .string(grant ? "granted" : "denied")]) }
            ok(["message": .string(page.web.permissions.controlAnswer(grant))])
        case .app(let request):
            do throws(ControlError) { handle(try PushControl.decode(request), ok: ok, fail: fail) } catch { fail(error.message) }
        case .reload:
            webkit_web_view_reload(page.view)
            ok(["message": "reloading"])
        case .back:
            guard webkit_web_view_can_go_back(page.view) != 0 else { return fail("the page has nothing to go back to") }
            webkit_web_view_go_back(page.view)
            ok(["message": "went back"])
        case .eval(_, true):
            fail("a Capacitor app has no sheets: eval runs in its page (leave out --sheet)")
        case .action, .download:
            fail("a Capacitor app has no app actions or downloads of its own")
        case .state, .wait, .events, .snapshot, .eval, .resize, .memoryPressure, .rotate, .statusBar, .simulator, .device:
            fail("the host answers this command itself")  // never sent here
        }
    }

    /// The push side's commands, for the app's PushNotifications plugin.
    private func handle(_ command: PushControlCommand, ok: @escaping @MainActor (JSONValue) -> Void, fail: @escaping @MainActor (String) -> Void) {
        switch command {
        case .rotatePushToken:
            guard page.post(.rotatePushToken) else {
                return fail("this app has no push token to rotate: none of its plugins keeps one")
            }
            ok(["message": "the push token was rotated"])
        case .push(let tap, let payload):
            guard let push = PushNotificationsGlue.glue(forApp: launch.appId) else { return fail("this app has no push notifications") }
            if tap { push.activateNotification(payload) } else { push.deliverPush(payload) }
            ok(["message": .string(tap ? "the notification was opened" : "the push was delivered")])
        case .notification(let activate, let id):
            guard let push = PushNotificationsGlue.glue(forApp: launch.appId) else { return fail("this app has no push notifications") }
            let done = activate ? push.notifications.activate(id) : push.notifications.dismiss(id)
            guard done else { return fail("no notification \(TerminalText.escaped(id)) is shown; ctl state lists them under capacitor.notifications.shown") }
            ok(["message": .string(activate ? "the notification was opened" : "the notification was dismissed")])
        }
    }

    /// `ctl privacy … notifications`: the app's own notification answer (PushNotifications')
    /// becomes the device's setting, as iOS's Settings would change it.
    package func privacyChanged(_ kinds: [PrivacyKind], answer: Bool?) {
        guard kinds.contains(.notifications) else { return }
        let word = switch answer { case true?: "granted"; case false?: "denied"; case nil: "prompt" }
        page.post(.custom(PushNotificationsPlugin.privacyEvent, ["notifications": .string(word)]))
    }

    /// The push side's commands on the control socket, besides the core's.
    package var controlVocabularies: [any ControlVocabulary.Type] { [PushControl.self] }
}
