import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// `hostshell push [APP-ID|TOKEN] FILE.apns`: what `xcrun simctl push` does for a simulator,
/// for an app on this machine — the payload file handed to the app holding the token, with no
/// server and no provider token: a running app gets it at once (foreground or background), an
/// app that is not running finds it at its next start.
package enum PushCommand {
    package static let usage = """
        usage: hostshell push [APP-ID | DEVICE-TOKEN] FILE.apns
        Delivers the payload in FILE.apns (the files `xcrun simctl push` takes: a JSON object with "aps",
        at most 4096 bytes, optionally naming the app in "Simulator Target Bundle") to an app on this
        machine, as if APNs had: a running app gets it now — its page's pushNotificationReceived in the
        foreground, a notification in the background — and an app that is not running gets it as a
        notification at its next start. No server or provider token is involved.
          APP-ID        the app's id (its bundle id, e.g. com.example.homesec). Default: the file's
                        "Simulator Target Bundle", else the only app that holds a push token
          DEVICE-TOKEN  a token an app registered (64 hex digits), instead of the app's id
        The app must have registered for push once (its page called PushNotifications.register()).
        Example: hostshell push com.example.homesec fixtures/capacitor/push/motion.apns
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") { printOut(usage); return ExitCode.success }
        if let flag = arguments.first(where: { $0.hasPrefix("-") }) {
            throw UsageError("push takes no option \(flag); run \"hostshell push --help\"")
        }
        guard (1...2).contains(arguments.count), let file = arguments.last else {
            throw UsageError("push takes [APP-ID|TOKEN] and a payload file; run \"hostshell push --help\"")
        }
        let bytes = try FileReading.bytes(file, limit: 1 << 20)
        let payload: SimulatorPushFile
        do throws(SimulatorPushFile.Problem) { payload = try SimulatorPushFile(bytes: bytes, name: file) } catch { throw UsageError(error.message) }
        return try MainActor.assumeIsolated { () -> Result<Int32, UsageError> in
            let target: Target
            do throws(UsageError) { target = try resolve(arguments.count == 2 ? arguments[0] : payload.targetBundle) } catch { return .failure(error) }
            // An apns-id as the stand-in makes one, so the page sees the same kind of id either way.
            let id = APNsStandIn.uuid((0..<16).map { _ in UInt8.random(in: .min ... .max) })
            let push = PhonePush(id: id, token: target.token, topic: target.topic, environment: target.environment, payload: payload.payload)
            MainLoop.installDispatchBridge()
            let loop = g_main_loop_new(nil, 0)
            var outcome: PhoneAck??
            PhoneDelivery().send(push) { ack in
                outcome = .some(ack)
                g_main_loop_quit(loop)
            }
            if outcome == nil { g_main_loop_run(loop) }
            g_main_loop_unref(loop)
            let name = TerminalText.escaped(target.appId)
            switch outcome ?? nil {
            case .foreground: printOut("delivered to \(name) in the foreground: its page got pushNotificationReceived")
            case .background: printOut("delivered to \(name) in the background: shown as a notification")
            case .delivered: printOut("delivered to \(name)")
            case .kept: printOut("\(name) is not running: the push is kept and shown as a notification at its next start")
            case .refused(let why):
                printError("hostshell: \(name) did not take the push: \(why)")
                return .success(ExitCode.failure)
            case nil:
                printError("hostshell: no app here holds the token \(target.token) any more; start the app and let it register" + lookedIn)
                return .success(ExitCode.failure)
            }
            return .success(ExitCode.success)
        }.get()
    }

    package struct Target {
        let appId: String
        let token: String
        let topic: String
        let environment: APNsEnvironment
    }

    /// The app a push goes to: by token, by app id (running first, then its profile), or the only one.
    @MainActor
    static func resolve(_ word: String?) throws(UsageError) -> Target {
        let running = PhoneDelivery.entries()
        let profiles = AppProfiles.all()
        func target(_ entry: PhoneEntry) -> Target { Target(appId: entry.appId, token: entry.token, topic: entry.topic, environment: entry.environment) }
        func target(_ profile: AppProfiles.Profile) -> Target {
            Target(appId: profile.appId, token: profile.record.token.hex.lowercased(), topic: profile.record.bundleId ?? profile.appId,
                   environment: profile.record.environment)
        }
        guard let word else {
            let apps = Set(running.map(\.appId) + profiles.map(\.appId))
            guard apps.count == 1, let only = apps.first else {
                throw UsageError(apps.isEmpty ? "no app here has registered for push yet; start it (hostshell capacitor …) and let its page call PushNotifications.register()" + lookedIn
                                              : "more than one app holds a push token (\(apps.sorted().joined(separator: ", "))); name one: hostshell push APP-ID FILE")
            }
            return try resolve(only)
        }
        if APNsDeviceToken.isWellFormed(word) {
            if let entry = running.first(where: { $0.token == word.lowercased() }) { return target(entry) }
            if let profile = profiles.first(where: { $0.record.token.hex.lowercased() == word.lowercased() }) { return target(profile) }
            throw UsageError("no app here holds the device token \(word); hostshell push APP-ID FILE names the app instead" + lookedIn)
        }
        if let entry = running.first(where: { $0.appId == word }) { return target(entry) }
        if let profile = AppProfiles.profile(word) { return target(profile) }
        let known = Set(running.map(\.appId) + profiles.map(\.appId)).sorted()
        throw UsageError("no app \(TerminalText.escaped(word)) holds a push token here"
                         + (known.isEmpty ? "; start it (hostshell capacitor …) and let its page call PushNotifications.register()" + lookedIn
                                          : " (apps that do: \(known.joined(separator: ", ")))"))
    }

    /// Where running apps were looked for: an app started with another XDG_RUNTIME_DIR (or,
    /// without one, another XDG_CACHE_HOME) is not found, and the message says so.
    @MainActor static var lookedIn: String {
        " (running apps were looked for in \(TerminalText.escaped(PhoneListener.directory)), profiles in "
            + "\(TerminalText.escaped(AppProfiles.root)): start the app with the same XDG_RUNTIME_DIR and XDG_DATA_HOME)"
    }
}
