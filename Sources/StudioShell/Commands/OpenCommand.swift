import CGtk
import Foundation
import HostCore
import ShellKit
import StudioContract

/// `hostshell open [SERVER] [--device D] [--inspector] [--control SOCKET [--allow-eval]] [--check]`:
/// opens a saved server's Studio in the app window. `--control` serves the control interface on
/// a Unix socket (`hostshell ctl`). `--check` waits until the page is revealed or a failure
/// screen shows, prints what the window shows as JSON and exits (0 when revealed) — headless if
/// need be. `--automation` lets a WebDriver session (WebKitWebDriver, `browserName` "hostshell")
/// drive the app's Studio page; see `AutomationHost`.
package enum OpenCommand {
    package static let usage = "usage: hostshell open [SERVER-ID] [--device NAME [--orientation portrait|landscape]] [--inspector] [--control SOCKET [--allow-eval]] [--credential-store auto|secret-service|file] [--open-url LINK] [--bridge-log FILE] [--grant|--revoke KIND]… [--no-prewarm] [--automation] [--check [--timeout SECONDS]]"

    /// `replay`: instead of showing the app, replay these bridge log records once Studio is ready
    /// and exit with the result (see `ReplayCommand`).
    /// `kiosk`: run full screen and unattended (see `KioskCommand`).
    package static func run(_ arguments: [String], replay: (records: [ReplayRecord], verbose: Bool)? = nil,
                    kiosk: KioskOptions? = nil) throws(UsageError) -> Int32 {
        var id: String?
        var choice = DeviceChoice.desktop
        var orientation: String?
        var deviceAsked = false
        var inspector = false
        var check = false
        var control: String?
        var allowEval = false
        var automation = false
        var credentialStore = "auto"
        var openURL: String?
        var bridgeLog: String?
        var prewarmSheets = true
        var timeout = 30.0
        var privacy = PrivacyLaunch()
        var deviceLaunch = DeviceLaunchOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--device":
                guard let value = rest.popFirst() else { throw UsageError(DeviceChoice.unknown("")) }
                choice = try DeviceChoice.parse(value).get()
                deviceAsked = true
            case "--orientation":
                guard let value = rest.popFirst() else { throw UsageError("--orientation takes portrait or landscape") }
                orientation = value
            case "--inspector": inspector = true
            case _ where DeviceLaunchOptions.owns(argument): try deviceLaunch.take(argument, rest.popFirst())
            case "--check": check = true
            case "--control":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError("--control takes the path of the Unix socket to serve, e.g. $XDG_RUNTIME_DIR/hostshell.sock")
                }
                control = value
            case "--allow-eval": allowEval = true
            case "--grant", "--revoke": try privacy.take(argument, rest.popFirst())
            case "--no-prewarm": prewarmSheets = false
            case "--automation": automation = true
            case "--bridge-log":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError("--bridge-log takes the file to append the bridge's messages to")
                }
                bridgeLog = value
            case "--open-url":
                guard let value = rest.popFirst(), !value.hasPrefix("-") else { throw UsageError("--open-url takes a tilecast-ios:// link") }
                openURL = value
            case "--credential-store":
                guard let value = rest.popFirst(), ["auto", "secret-service", "file"].contains(value) else {
                    throw UsageError("--credential-store takes auto, secret-service or file")
                }
                credentialStore = value
            case "--timeout":
                guard let value = rest.popFirst().flatMap({ CommandLineRules.seconds($0, in: 0.001...600) }) else {
                    throw UsageError("--timeout takes a number of seconds between 0 and 600")
                }
                timeout = value
            default:
                guard !argument.hasPrefix("-"), id == nil else { throw UsageError(usage) }
                id = argument
            }
        }
        if let orientation { choice.orientation = try DeviceChoice.parseOrientation(orientation).get() }
        choice = try choice.checked(orientationGiven: orientation != nil).get()
        let device = choice.profile
        if allowEval && control == nil { throw UsageError("--allow-eval only applies with --control SOCKET") }
        if kiosk != nil && (check || inspector) { throw UsageError("kiosk runs unattended: --check and --inspector do not apply") }
        if automation && check { throw UsageError("--automation waits for a WebDriver session; it cannot be combined with --check") }
        let records: [ServerRecord], record: ServerRecord
        do throws(UsageError) { (records, record) = try chosen(id: id, openURL: openURL) } catch {
            // A WebDriver client would otherwise wait for good on an app that never came up.
            if automation { return MainActor.assumeIsolated { AutomationHost.refuseSessions(because: error.message) } }
            throw error
        }
        let hasDisplay = !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
            || !(ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        // Without a session bus, nothing here (nor WebKit's processes) may start one, and a keyring with it.
        NoSessionBus.keepAbsent()
        // Headless (no display) for a check, a replay or a run driven over --control: on a screen
        // of the device's size, at its scale.
        let display = (check || replay != nil || control != nil) && !hasDisplay ? try HeadlessDisplay.start(for: choice) : nil
        defer { display?.stop() }
        let ownDisplay = display != nil
        let attended = display == nil
        let rendering = try MainLoop.startGTK(noDisplay: "no display to open a window on: run it in a desktop session, or use --check to run headless")
        return try MainActor.assumeIsolated { () -> Result<Int32, UsageError> in
            let loop = g_main_loop_new(nil, 0)
            // SIGTERM and Ctrl+C end the loop, so the socket file is removed on the way out; a
            // main thread that does not answer (blocked, e.g. in a keyring call) is ended anyway.
            StopSignals.install { g_main_loop_quit(loop) }
            var log: LogFile?
            if let bridgeLog {
                do throws(UsageError) { log = try LogFile(path: bridgeLog, option: "--bridge-log") } catch { return .failure(error) }
            }
            defer { log?.close() }
            let credentials: CredentialStore
            do throws(UsageError) { credentials = try CredentialStore.choose(credentialStore) } catch { return .failure(error) }
            printError("hostshell: sign-in credentials are kept \(credentials.reason)")
            // The app's services, made here once; automation is allowed before the app builds its page.
            var environment = AppEnvironment(rendering: rendering, bridgeLog: log, automation: automation ? AutomationHost.enable() : nil)
            environment.attended = attended
            environment.device = DeviceHost(choice, ownDisplay: ownDisplay)
            do throws(UsageError) {
                try environment.deviceControls.launch(locale: deviceLaunch.locale, timeZone: deviceLaunch.timeZone, rootFiles: deviceLaunch.rootCertificates)
            } catch { return .failure(error) }
            let app = ShellApp(records: records, opening: record, device: device, inspector: inspector, credentials: credentials,
                               environment: environment, prewarmSheets: prewarmSheets, kiosk: kiosk,
                               deviceAsked: deviceAsked)
            for (change, kinds) in privacy.changes { environment.simulator.setPrivacy(change, kinds, app: app) }
            var server: ControlServer?
            if let control {
                let handler = ControlHandler(app: app, allowEval: allowEval)
                do throws(UsageError) {
                    server = try ControlServer(path: control, events: environment.events) { request, answer in handler.handle(request, answer: answer) }
                } catch {
                    return .failure(error)
                }
            }
            environment.automation?.serve(view: { [weak app] in app?.session.page.view },
                                          close: { g_main_loop_quit(loop) })
            let instance = InstanceSocket.serve(app)
            defer { server?.stop(); instance?.stop() }
            var exitCode = ExitCode.success
            var replaying: BridgeReplay?
            if let replay {
                replaying = BridgeReplay(records: replay.records, app: app, verbose: replay.verbose) { code in
                    exitCode = code
                    g_main_loop_quit(loop)
                }
            } else if check {
                let startCheck = StartCheck(app, timeoutSeconds: timeout) { code in
                    exitCode = code
                    g_main_loop_quit(loop)
                }
                app.onScreenChanged = { startCheck.screenChanged() }
            } else {
                onSignal(raw(app.window.window), "destroy") { g_main_loop_quit(loop) }
            }
            app.onExit = { g_main_loop_quit(loop) }
            // The store it follows has no server left to show.
            app.onQuit = { _ in
                exitCode = ExitCode.failure
                g_main_loop_quit(loop)
            }
            app.start()
            replaying?.start(timeout: timeout)
            if let openURL {
                let result = app.openURL(openURL)
                if !result.opened { printError("hostshell: \(result.message)") }
            }
            g_main_loop_run(loop)
            environment.deviceControls.finish()
            StopSignals.finishing()
            app.removeForgottenProfiles()
            return .success(exitCode)
        }.get()
    }

    /// The saved server to open: the link's, the one named, or the only one.
    private static func chosen(id: String?, openURL: String?) throws(UsageError) -> ([ServerRecord], ServerRecord) {
        let records = try ServerStoreFile.standard.load()
        let record: ServerRecord
        if let openURL {
            // The link names its server; a link that is refused starts nothing, however many
            // servers are saved.
            switch DeepLinkRoute.startingServer(for: openURL, named: id, records: records) {
            case .success(let linked): record = linked
            case .failure(let refusal): throw UsageError(refusal.message)
            }
        } else if let id {
            guard let found = records.first(where: { $0.id == id }) else {
                throw UsageError("no saved server \"\(TerminalText.escaped(id))\"; hostshell server list shows them")
            }
            record = found
        } else if records.count == 1 {
            record = records[0]
        } else if records.isEmpty {
            throw UsageError("no servers saved yet: add one with hostshell server add URL (or try hostshell demo)")
        } else {
            throw UsageError("several servers are saved; name one: \(records.map(\.id).joined(separator: ", "))")
        }
        return (records, record)
    }
}
