import CGtk
import CapacitorContract
import Foundation
import HostCore
import ShellKit

extension CapacitorCommand {
    /// `replay`: instead of showing the app, replay these calls of a Capacitor bridge log once
    /// its page shows (`CapacitorReplayRun`), on a throw-away profile with the file secret store
    /// — a replay never changes the person's stored entries, token or website data, and each
    /// starts from the same empty state — headless when there is no display, and exit with its
    /// verdict.
    /// `plugins`: Capacitor's own and the app's, as the executable registers them.
    package static func run(_ arguments: [String], plugins: CapacitorPluginSet, replay: (calls: [CapacitorReplayCall], verbose: Bool, permissions: [CapacitorReplayPermission])? = nil) throws(UsageError) -> Int32 {
        if arguments.contains("--uninstall-links") {
            guard arguments == ["--uninstall-links"], replay == nil else { throw UsageError("--uninstall-links takes no other arguments") }
            return MainActor.assumeIsolated { CapacitorDesktopLinks.uninstallAll() }
        }
        guard var options = try parse(arguments) else {
            printOut(usage)
            return ExitCode.success
        }
        var launch = try launch(options, plugins: plugins)
        // A person's run with a link of the app's while the app runs (the desktop entry's Exec):
        // the running app takes the link.
        if replay == nil, options.control == nil, !options.check, let link = options.openURL,
           let scheme = CapacitorURL.scheme(of: link), launch.linkSchemes.contains(scheme),
           let code = try CapacitorInstance.forward(link) {
            return code
        }
        let throwAway = replay.map { _ in NSTemporaryDirectory() + "hostshell-replay-\(UUID().uuidString)" }
        defer { if let throwAway { try? FileManager.default.removeItem(atPath: throwAway) } }
        if replay != nil {
            launch.profileRoot = throwAway
            options.credentialStore = "file"
        }
        let notes = try MainActor.assumeIsolated { () -> Result<[String], UsageError> in
            do throws(UsageError) {
                var notes: [String] = []
                for prepare in launch.plugins.prepare {
                    do { notes.append(try prepare(options.credentialStore)) } catch let error as UsageError { throw error } catch {
                        throw UsageError("\(error)")
                    }
                }
                return .success(notes)
            } catch { return .failure(error) }
        }.get()
        printError("hostshell: \(TerminalText.escaped(launch.displayName)) (\(launch.appId)) from \(TerminalText.escaped(launch.source)), at \(launch.startURL)")
        for note in notes { printError("hostshell: \(note)") }
        if let throwAway { printError("hostshell replay: on a throw-away profile (\(throwAway)), removed at the end") }
        let hasDisplay = !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
            || !(ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        // Without a session bus, nothing here (nor WebKit's processes) may start one, and a keyring with it.
        NoSessionBus.keepAbsent()
        // Headless (no display) for a check, a replay or a run driven over --control: on a screen
        // of the device's size, at its scale.
        let display = (options.check || replay != nil || options.control != nil) && !hasDisplay
            ? try HeadlessDisplay.start(for: options.deviceChoice) : nil
        defer { display?.stop() }
        let ownDisplay = display != nil
        let attended = display == nil && replay == nil  // a replay asks no one
        let rendering = try MainLoop.startGTK(noDisplay: "no display to open a window on: run it in a desktop session, or use --check to run headless")
        return try MainActor.assumeIsolated { () -> Result<Int32, UsageError> in
            let loop = g_main_loop_new(nil, 0)
            // SIGTERM and Ctrl+C end the loop; a main thread that does not answer is ended anyway.
            StopSignals.install { g_main_loop_quit(loop) }
            var log: LogFile?
            if let bridgeLog = options.bridgeLog {
                do throws(UsageError) { log = try LogFile(path: bridgeLog, option: "--bridge-log") } catch { return .failure(error) }
            }
            defer { log?.close() }
            // The app's services, made here once; automation is allowed before the page is built.
            var environment = AppEnvironment(rendering: rendering, bridgeLog: log, automation: options.automation ? AutomationHost.enable() : nil)
            environment.attended = attended && options.kiosk == nil  // a kiosk asks no one
            environment.device = DeviceHost(options.deviceChoice, ownDisplay: ownDisplay)
            do throws(UsageError) {
                try environment.deviceControls.launch(locale: options.deviceLaunch.locale, timeZone: options.deviceLaunch.timeZone,
                                              rootFiles: options.deviceLaunch.rootCertificates)
            } catch { return .failure(error) }
            let scheme: CapacitorScheme?
            do throws(UsageError) {
                scheme = try CapacitorScheme.serve(launch)
            } catch { return .failure(error) }
            let app = CapacitorApp(launch: launch, scheme: scheme, environment: environment, inspector: options.inspector, kiosk: options.kiosk)
            for (change, kinds) in options.privacy.changes { environment.simulator.setPrivacy(change, kinds, app: app) }
            var server: ControlServer?
            if let control = options.control {
                let handler = ControlHandler(app: app, allowEval: options.allowEval)
                do throws(UsageError) {
                    server = try ControlServer(path: control, events: environment.events) { request, answer in handler.handle(request, answer: answer) }
                } catch {
                    return .failure(error)
                }
            }
            environment.automation?.serve(view: { [weak app] in app?.page.view }, close: { g_main_loop_quit(loop) })
            // A replay (or a check) is not the app the desktop's links should reach.
            let instances = replay == nil ? CapacitorInstance.serve(app) : []
            if replay == nil && !options.check { app.desktopEntry = CapacitorDesktopLinks.install(launch, command: desktopCommand(options, launch)) }
            defer {
                server?.stop()
                for instance in instances { instance.stop() }
            }
            var exitCode = ExitCode.success
            var replaying: CapacitorReplayRun?
            var booting: CapacitorBootWatch?
            if let replay {
                let run = CapacitorReplayRun(calls: replay.calls, verbose: replay.verbose, permissions: replay.permissions, app: app) { code in
                    exitCode = code
                    g_main_loop_quit(loop)
                }
                run.start(timeout: options.timeout)
                replaying = run
            } else if options.check {
                // Reported once the app has booted (`CapacitorBootCheck`), with what it did.
                booting = CapacitorBootWatch(app, timeoutSeconds: options.timeout) { code in
                    exitCode = code
                    g_main_loop_quit(loop)
                }
            } else {
                onSignal(raw(app.window.window), "destroy") { g_main_loop_quit(loop) }
            }
            // The launch URL is the plugin's before the page asks for it.
            if let link = options.openURL { app.openURL(link, launch: true) }
            app.start()
            withExtendedLifetime((replaying, booting)) { g_main_loop_run(loop) }
            environment.deviceControls.finish()
            StopSignals.finishing()
            app.close()
            return .success(exitCode)
        }.get()
    }

    /// The arguments that run this same app again (for its desktop entry's `Exec`).
    static func desktopCommand(_ options: Options, _ launch: CapacitorLaunch) -> [String] {
        let here = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : here + "/" + path }
        // No project, web directory or dev server given: the current directory is the project.
        let project = options.project.map(absolute) ?? (options.webDir == nil && options.url == nil ? here : nil)
        return CapacitorDesktopEntry.arguments(project: project, webDir: options.webDir.map(absolute), url: options.url, appId: launch.appId,
                                               appName: options.appName, schemes: launch.linkSchemes, apnsEnvironment: options.apns.rawValue,
                                               credentialStore: options.credentialStore, device: options.deviceChoice.word)
    }
}
