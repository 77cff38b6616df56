import CGtk
import CapacitorContract
import HostCore
import Push
import PushShell
import ShellKit

/// The app as a phone holding its token: while it runs it listens for pushes on a
/// `PhoneListener` (opened for the profile's token at start and again whenever the plugin
/// saves a new one); pushes kept while it did not run are shown at start, as the system shows
/// what arrived meanwhile (a notification each, opened with `ctl notification activate`).
extension PushNotificationsGlue {
    /// At start: listen for the profile's token, if it has one, and show what was kept.
    func startPhone() {
        // Only a sound record is listened for; push.load keeps a damaged one aside and says so.
        if case .bytes(let bytes)? = try? recordFile.read(),
           let record = PushRecord(fileText: String(decoding: bytes, as: UTF8.self)) {
            listen(for: record)
        }
        let directory = context.dataDirectory
        // After the page's bridge is wired (the glue is made while the page is built).
        MainLoop.whenIdle { [weak self] in
            guard let self else { return }
            for push in PhoneInboxFile.take(directory) { self.arrived(push, foreground: false) }
        }
    }

    /// Listens for `record`'s token (replacing the listener of an earlier token).
    func listen(for record: PushRecord) {
        if listener?.entry.token == record.token.hex.lowercased() { return }
        listener?.stop()
        listener = nil
        let appId = context.app.appId ?? "hostshell.app"
        do throws(UsageError) {
            listener = try PhoneListener(token: record.token.hex, appId: appId, topic: record.bundleId ?? appId,
                                         environment: record.environment) { [weak self] push, ack in
                guard let self else { return ack(.refused("the app is closing")) }
                let foreground = self.context.inForeground() ?? true
                self.arrived(push, foreground: foreground)
                ack(foreground ? .foreground : .background)
            }
        } catch {
            printError("hostshell: pushes cannot reach this app while it runs: \(error.message)")
        }
    }

    /// A push for this app: to the plugin, which gives the page `pushNotificationReceived` in
    /// the foreground and shows a notification in the background.
    func arrived(_ push: PhonePush, foreground: Bool) {
        context.post(PushNotificationsPlugin.delivered(id: push.id, payload: push.payload, foreground: foreground, collapseID: push.collapseID))
    }
}

