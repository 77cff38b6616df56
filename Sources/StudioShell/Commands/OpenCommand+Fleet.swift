import CGtk
import HostCore
import ShellKit
import StudioContract

extension OpenCommand {
    /// A saved server's Studio in a fleet (`hostshell fleet`): read from the arguments `open`
    /// takes, with the fleet's control socket, on the server's own profile — what a run of its
    /// own gives: its environment, network session, web processes, window, control socket and
    /// sign-in credential. Closing its window or quitting it (`ctl action quit`) ends this app
    /// only. With a throw-away profile (`--throw-away`) the server's profile directories are made
    /// under the fleet's root for this app (`AppEnvironment.profileRoot`), its credential in
    /// that profile's owner-only file, and go with it.
    @MainActor package static func fleetLaunch(_ arguments: [String], _ opening: FleetOpening) throws(UsageError) -> FleetLaunch {
        let options = try parse(arguments + ["--control", opening.control])
        let (records, record) = try chosen(id: options.id, openURL: options.openURL)
        if let root = opening.profileRoot {
            // Refused before anything is made: the keyring's entries are the server's.
            _ = try CredentialStore.forThrowAwayProfile(root, preference: options.credentialStore)
        }
        return FleetLaunch(name: ShellApp.title(record), profile: ServerStoreFile.profileDirectories(for: record.id, root: opening.profileRoot).data) { () throws(UsageError) -> FleetMember in
            try start(options, records: records, record: record, opening)
        }
    }

    @MainActor private static func start(_ options: Options, records: [ServerRecord], record: ServerRecord, _ opening: FleetOpening) throws(UsageError) -> FleetMember {
        let credentials: CredentialStore
        if let root = opening.profileRoot {
            credentials = try CredentialStore.forThrowAwayProfile(root, preference: options.credentialStore)
        } else {
            credentials = try CredentialStore.choose(options.credentialStore)
        }
        printError("hostshell: \(TerminalText.escaped(record.name)): sign-in credentials are kept \(credentials.reason)")
        let log = try options.bridgeLog.map { path throws(UsageError) in try LogFile(path: path, option: "--bridge-log") }
        var environment = AppEnvironment(rendering: opening.rendering, bridgeLog: log)
        environment.attended = !opening.ownDisplay
        environment.profileRoot = opening.profileRoot
        environment.device = DeviceHost(options.choice, ownDisplay: opening.ownDisplay)
        let app = ShellApp(records: records, opening: record, device: options.choice.profile, inspector: options.inspector, credentials: credentials,
                           environment: environment, prewarmSheets: options.prewarmSheets, deviceAsked: options.deviceAsked)
        for (change, kinds) in options.privacy.changes { environment.simulator.setPrivacy(change, kinds, app: app) }
        let control: ControlServer
        do throws(UsageError) { control = try opening.serve(app, allowEval: options.allowEval) } catch {
            app.close()
            log?.close()
            throw error
        }
        // Its own end (Quit, or the store it follows has no server left) is this app's, not the fleet's.
        let ended = opening.ended
        app.onExit = { MainActor.assumeIsolated { ended() } }
        app.onQuit = { _ in MainActor.assumeIsolated { ended() } }
        app.start()
        if let link = options.openURL {
            let result = app.openURL(link)
            if !result.opened { printError("hostshell: \(result.message)") }
        }
        return FleetMember(app: app, control: control) {
            environment.deviceControls.finish()
            app.close()
            log?.close()
        }
    }
}
