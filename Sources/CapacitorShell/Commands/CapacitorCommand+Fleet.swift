import CGtk
import CapacitorContract
import HostCore
import ShellKit

extension CapacitorCommand {
    /// A Capacitor app in a fleet (`hostshell fleet`): read from the arguments `capacitor`
    /// takes, with the fleet's control socket, on its own profile (`hostshell/apps/ID`) or a
    /// throw-away one under the fleet's root. What it gets is what a run of its own gives: its
    /// environment (event stream, downloads, simulator controls), its network session, web
    /// process, window and control socket, and its secrets in its own store — the owner-only
    /// file in a throw-away profile, since the keyring's entries are per app id, not per profile.
    @MainActor package static func fleetLaunch(_ arguments: [String], _ opening: FleetOpening, plugins: CapacitorPluginSet) throws(UsageError) -> FleetLaunch {
        guard var options = try parse(arguments + ["--control", opening.control]) else {
            throw UsageError("hostshell capacitor --help lists the app's options")
        }
        var launch = try launch(options, plugins: plugins)
        if let root = opening.profileRoot {
            guard options.credentialStore != "secret-service" else {
                throw UsageError("a throw-away profile keeps its secrets in its own file: the Secret Service's entries are the app id's, shared with every profile of it")
            }
            launch.profileRoot = root
            options.credentialStore = "file"
        }
        let chosen = (options, launch)
        return FleetLaunch(name: launch.displayName, profile: launch.dataDirectory) { () throws(UsageError) -> FleetMember in
            try start(chosen.0, chosen.1, opening)
        }
    }

    @MainActor private static func start(_ options: Options, _ launch: CapacitorLaunch, _ opening: FleetOpening) throws(UsageError) -> FleetMember {
        for prepare in launch.plugins.prepare {
            do { printError("hostshell: \(try prepare(options.credentialStore, launch.dataDirectory))") } catch let error as UsageError { throw error } catch {
                throw UsageError("\(error)")
            }
        }
        printError("hostshell: \(TerminalText.escaped(launch.displayName)) (\(launch.appId)) from \(TerminalText.escaped(launch.source)), at \(launch.startURL)")
        let log = try options.bridgeLog.map { path throws(UsageError) in try LogFile(path: path, option: "--bridge-log") }
        var environment = AppEnvironment(rendering: opening.rendering, bridgeLog: log)
        environment.attended = !opening.ownDisplay
        environment.device = DeviceHost(options.deviceChoice, ownDisplay: opening.ownDisplay)
        let scheme: CapacitorScheme?
        do throws(UsageError) { scheme = try CapacitorScheme.serve(launch) } catch {
            log?.close()
            throw error
        }
        // A throw-away app runs on a prewarmed slot of the fleet's pool when one is ready: its
        // session and web process are there already, only its page is left to load.
        let prewarmed = opening.profileRoot != nil ? opening.takeSlot() : nil
        let app = CapacitorApp(launch: launch, scheme: scheme, environment: environment, inspector: options.inspector, prewarmed: prewarmed)
        for (change, kinds) in options.privacy.changes { environment.simulator.setPrivacy(change, kinds, app: app) }
        let control: ControlServer
        do throws(UsageError) { control = try opening.serve(app, allowEval: options.allowEval) } catch {
            app.close()
            scheme?.release()
            log?.close()
            gtk_window_destroy(cast(app.window.window))
            throw error
        }
        if let link = options.openURL { app.openURL(link, launch: true) }
        app.start()
        return FleetMember(app: app, control: control) {
            environment.deviceControls.finish()
            app.close()
            scheme?.release()
            log?.close()
            // Hidden first, so nothing GTK scheduled for the window runs against a surface that is gone.
            gtk_widget_set_visible(app.window.window, 0)
            MainLoop.after(milliseconds: 100) { [app] in gtk_window_destroy(cast(app.window.window)) }
        }
    }
}
