import CGtk
import CapacitorContract
import Glibc
import HostCore
import Push
import PushShell
import ShellKit

/// PushNotifications' glue, for one app profile: the remembered permission and the token's
/// record (`push.json`) in the app's data directory, the permission question (asked through
/// the page's `PermissionCenter`, in turn with WebKit's: a native dialog parented to the app's
/// window, an answer `ctl permission` gave ahead, or — with no one to ask — a wait for it), tokens
/// from the system's random source, and the desktop's notifications. `deliverPush` and
/// `activateNotification` are the push side's entry points (issue 14).
@MainActor
package final class PushNotificationsGlue: CapacitorPluginGlue {
    let context: CapacitorGlueContext
    /// The question's answer, waiting (for the dialog or `ctl permission`).
    private var question: (@MainActor (HostOutcome) -> Void)?
    /// Where the question is asked: the page's center (its own when the context has none).
    private(set) lazy var permissions = context.permissions ?? PermissionCenter.of(profileData: nil, attended: context.attended)
    /// Set while the app's page is alive; the push side finds the glue of an app here.
    private static var running: [ObjectIdentifier: Weak] = [:]
    private struct Weak { weak var glue: PushNotificationsGlue? }
    /// Where pushes for the app's token arrive while it runs (`PushNotificationsGlue+Phone`).
    var listener: PhoneListener?
    private var madeNotifications: DesktopNotifications?
    /// The app's desktop notifications (or their record, with no notification server), made on
    /// first use: their session-bus round trips stay out of the app's start.
    var notifications: DesktopNotifications {
        if let made = madeNotifications { return made }
        let made = DesktopNotifications(appId: context.app.appId ?? "hostshell.app")
        made.onActivate = { [weak self] item in self?.activateNotification(item.payload, id: item.id) }
        madeNotifications = made
        return made
    }

    init(_ context: CapacitorGlueContext) {
        self.context = context
        Self.running[ObjectIdentifier(self)] = Weak(glue: self)
        startPhone()
    }

    var recordPath: String { context.dataDirectory + "/" + PushRecord.fileName }
    var permissionPath: String { context.dataDirectory + "/" + PushNotificationsPlugin.permissionFileName }

    /// The running app whose bundle id is `appId` (any running app when nil), for the push side.
    static func glue(forApp appId: String?) -> PushNotificationsGlue? {
        running.values.compactMap(\.glue).first { appId == nil || $0.context.app.appId == appId }
    }

    // MARK: entry points for the push side

    /// A push for this app arrived (`payload`: the whole APNs payload, `aps` included). In the
    /// foreground the page's listeners get `pushNotificationReceived`; in the background it is
    /// shown on the desktop.
    func deliverPush(_ payload: JSONObject, id: String? = nil) {
        context.post(PushNotificationsPlugin.delivered(id: id ?? Self.newId(), payload: payload))
    }

    /// A person acted on one of this app's notifications (`tap`: opened it); the page gets
    /// `pushNotificationActionPerformed` with the whole payload, kept until it listens — through
    /// the app's lifecycle, which brings a backgrounded app forward around it.
    func activateNotification(_ payload: JSONObject, id: String? = nil, actionId: String = "tap", inputValue: String? = nil) {
        let response = PushNotificationsPlugin.activated(id: id ?? Self.newId(), payload: payload, actionId: actionId, inputValue: inputValue)
        if let opened = context.notificationOpened { opened(response) } else { context.post(response) }
    }

    // MARK: the plugin's requests

    package func perform(_ request: HostRequest, answer: @escaping @MainActor (HostOutcome) -> Void) {
        switch request.action {
        case "push.load":
            let record = load(recordFile, damage: PushRecord.fileProblem, instead: "a new token will be made")
            let permission = load(permissionFile, damage: PushNotificationsPlugin.permissionFileProblem, instead: "the app will ask again")
            answer(.success(["record": record.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null,
                             "permission": .string(PushNotificationsPlugin.permission(fileText: permission.map { String(decoding: $0, as: UTF8.self) }).rawValue)]))
        case "permission.ask":
            ask(appName: request.arguments["appName"]?.stringValue, answer: answer)
        case "permission.store":
            // `ctl privacy`: the device's setting for the app, kept as the app's own answer.
            let permission = PushNotifications.Permission(rawValue: request.arguments["receive"]?.stringValue ?? "") ?? .prompt
            do throws(UsageError) {
                if let kept = try permissionFile.write(Array(PushNotificationsPlugin.permissionFile(permission).utf8),
                                                       damage: PushNotificationsPlugin.permissionFileProblem) {
                    tellKeptAside(permissionFile, kept, instead: "the new answer is saved")
                }
                answer(.success([:]))
            } catch {
                answer(.failure(HostFailure(error.message)))
            }
        case "token.make":
            var source = SystemRandomNumberGenerator()
            answer(.success(["token": .string(PushToken.random(using: &source).hex)]))
        case "record.save":
            let text = request.arguments["text"]?.stringValue ?? ""
            do throws(UsageError) {
                if let kept = try recordFile.write(Array(text.utf8), damage: PushRecord.fileProblem) {
                    tellKeptAside(recordFile, kept, instead: "the new registration is saved")
                }
                if let record = PushRecord(fileText: text) { listen(for: record) }
                answer(.success([:]))
            } catch {
                answer(.failure(HostFailure(error.message)))
            }
        case "notification.show":
            answer(.success(["shown": .bool(show(request.arguments))]))
        case "notification.withdraw":
            notifications.withdraw((request.arguments["ids"]?.arrayValue ?? []).compactMap(\.stringValue))
            answer(.success([:]))
        default:
            answer(.failure(HostFailure("PushNotifications' glue does not know \(request.action)")))
        }
    }

    package func close() {
        question = nil
        Self.running[ObjectIdentifier(self)] = nil
        listener?.stop()
        listener = nil
        madeNotifications?.close()
    }

    /// Asks through the page's permission center (one question at a time: the plugin asks
    /// once for all its waiting calls).
    private func ask(appName: String?, answer: @escaping @MainActor (HostOutcome) -> Void) {
        let first = question == nil
        question = answer
        guard first else { return }
        let words = PushNotificationsPlugin.permissionPrompt(appName: appName)
        permissions.askForApp([.notifications], heading: words.heading, body: words.body, from: context.page()) { [weak self] allow in
            self?.settle(allow)
        }
    }

    /// Remembers the answer for the app and answers the open question, if any.
    private func settle(_ granted: Bool) {
        do throws(UsageError) {
            if let kept = try permissionFile.write(Array(PushNotificationsPlugin.permissionFile(granted: granted).utf8),
                                                   damage: PushNotificationsPlugin.permissionFileProblem) {
                tellKeptAside(permissionFile, kept, instead: "the new answer is saved")
            }
        } catch {
            context.environment.tell("\(error.message); the answer holds until the app ends", source: "profile-file", path: permissionPath)
        }
        let waiting = question
        question = nil
        waiting?(.success(["receive": .string(granted ? "granted" : "denied")]))
    }

    /// Shows a notification through the app's own GApplication; false when only the state
    /// records it (no notification server).
    private func show(_ notification: JSONObject) -> Bool {
        guard let id = notification["id"]?.stringValue else { return false }
        let title = notification["title"]?.stringValue ?? ""
        let body = [notification["subtitle"]?.stringValue ?? "", notification["body"]?.stringValue ?? ""].filter { !$0.isEmpty }
        return notifications.show(id: id, title: title.isEmpty ? (context.app.appName ?? "") : title, body: body.joined(separator: "\n"),
                                  payload: notification["data"]?.objectValue ?? [:], collapseID: notification["collapseId"]?.stringValue)
    }

    private static func newId() -> String {
        var source = SystemRandomNumberGenerator()
        return String(source.next(), radix: 16, uppercase: true)
    }

    var recordFile: ProfileFile { ProfileFile(recordPath, what: "the push registration", limit: PushRecord.maxFileBytes) }
    var permissionFile: ProfileFile { ProfileFile(permissionPath, what: "the notification permission", limit: 4096) }

    /// The file's bytes when they are what the app keeps there; nil when there is none, when it
    /// is refused (a FIFO, a link to nothing: left as it is) or damaged (kept aside first) —
    /// the person is told either way.
    func load(_ file: ProfileFile, damage: ([UInt8]) -> String?, instead: String) -> [UInt8]? {
        let problem: String
        do throws(UsageError) {
            switch try file.read() {
            case .absent: return nil
            case .bytes(let bytes):
                guard let found = damage(bytes) else { return bytes }
                problem = found
            case .damaged(let found): problem = found
            }
            tellKeptAside(file, try file.keepAside(problem), instead: instead)
        } catch {
            context.environment.tell(error.message, source: "profile-file", path: file.path)
        }
        return nil
    }

    func tellKeptAside(_ file: ProfileFile, _ kept: ProfileFile.KeptAside, instead: String) {
        context.environment.tell(ProfileFileRules.keptAside(path: file.path, what: file.what, problem: kept.problem, aside: kept.path, instead: instead),
                                 source: "profile-file", path: file.path)
    }
}
