import CGtk
import CapacitorShell
import Foundation
import HomeSecShell
import HostCore
import ShellKit
import StudioShell

/// `hostshell fleet --control SOCKET [--pool K] [--headless]`: one process — one GTK, one display (its own
/// Xvfb without one, or with `--headless`) — hosting many isolated apps, opened and closed over
/// SOCKET (`hostshell fleet-ctl`). Each app is read from the arguments its own command takes
/// (`open` for a saved Studio server, `capacitor` for a Capacitor app) and gets what a process
/// of its own would: its environment, network session, web process, window and control socket
/// (`SOCKET.ID`, where `hostshell ctl` works unchanged). The process ends on SIGTERM or Ctrl+C,
/// closing every app; an app's window closed, its quit or its web process's crash ends or
/// touches that app only. `--pool K` keeps K prewarmed throw-away slots (`FleetPool`, default 2;
/// 0: none), so a throw-away open only loads its page.
enum FleetServeCommand {
    /// The app kinds a fleet runs, by the command that runs each alone: the one place that names them.
    @MainActor static var openers: [String: FleetOpener] {
        ["open": { arguments, opening throws(UsageError) in try OpenCommand.fleetLaunch(arguments, opening) },
         "capacitor": { arguments, opening throws(UsageError) in try CapacitorCommand.fleetLaunch(arguments, opening, plugins: .withHomeSec) }]
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var control: String?
        var headless = false
        var pool = FleetPool.defaultSize
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--control":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError("--control takes the path of the fleet's Unix socket, e.g. $XDG_RUNTIME_DIR/fleet.sock")
                }
                control = value
            case "--headless": headless = true
            case "--pool":
                do throws(ControlError) { pool = try FleetPool.size(option: rest.popFirst()) } catch { throw UsageError(error.message) }
            default: throw UsageError("fleet takes --control SOCKET, --pool K and --headless, not \(TerminalText.escaped(argument)); the apps' own arguments go to fleet-ctl SOCKET open")
            }
        }
        guard let control else { throw UsageError("fleet needs --control SOCKET: the socket fleet-ctl opens and closes apps on") }
        let environment = ProcessInfo.processInfo.environment
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        // Without a session bus, nothing here (nor WebKit's processes) may start one, and a keyring with it.
        NoSessionBus.keepAbsent()
        // One display for every app: the fleet's own Xvfb (a desktop-sized screen) when asked or when there is none.
        let display = headless || !hasDisplay ? try HeadlessDisplay.start() : nil
        defer { display?.stop() }
        let ownDisplay = display != nil
        let rendering = try MainLoop.startGTK(noDisplay: "no display to open the apps' windows on: run the fleet with --headless")
        return try MainActor.assumeIsolated { () -> Result<Int32, UsageError> in
            let loop = g_main_loop_new(nil, 0)
            // SIGTERM and Ctrl+C end the loop, and every app with it; a main thread that does
            // not answer is ended anyway, its sockets removed.
            StopSignals.install { g_main_loop_quit(loop) }
            let host: FleetHost
            do throws(UsageError) {
                host = try FleetHost(socket: control, openers: openers, rendering: rendering, ownDisplay: ownDisplay, pool: pool)
            } catch { return .failure(error) }
            printError("hostshell fleet: serving on \(TerminalText.escaped(control)) (hostshell fleet-ctl \(TerminalText.escaped(control)) open -- capacitor …)")
            g_main_loop_run(loop)
            host.stop()
            StopSignals.finishing()
            return .success(ExitCode.success)
        }.get()
    }
}
