import CapacitorContract
import CapacitorShell
import DevFixtures
import HostCore
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell kiosk [SERVER-ID] [--chrome] [--cursor-timeout S] [--device D] [--control SOCKET
/// [--allow-eval]] [--bridge-log FILE] [--credential-store …]`: a saved server's Studio run
/// unattended — full screen, no native chrome unless `--chrome` (Studio then draws its own
/// navigation), the pointer hidden after `--cursor-timeout` seconds without movement (3), no
/// context menu or inspector, nothing opened outside the server's origin, a crashing web
/// process reloaded within the contract's limits and every failure retried with a growing pause
/// behind the loading mark, the screen kept awake where the session allows, and a clean exit on
/// SIGTERM. `scripts/hostshell-kiosk.service` is a systemd user unit for it.
enum KioskCommand {
    static let usage = "usage: hostshell kiosk [SERVER-ID] [--chrome] [--cursor-timeout SECONDS] [--device phone|tablet|desktop] [--control SOCKET [--allow-eval]] [--bridge-log FILE] [--credential-store auto|secret-service|file]"

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var options = KioskOptions()
        var rest: [String] = []
        var input = arguments[...]
        while let argument = input.popFirst() {
            switch argument {
            case "--chrome": options.chrome = true
            case "--cursor-timeout":
                let range = KioskOptions.cursorTimeoutRange
                guard let value = input.popFirst().flatMap(Double.init), range.contains(value) else {
                    throw UsageError("--cursor-timeout takes a number of seconds from \(range.lowerBound) to \(Int(range.upperBound))")
                }
                options.cursorTimeout = value
            case _ where CommandCatalog.kioskRefuses.contains(argument):
                throw UsageError("kiosk does not take \(argument); \(usage)")
            default:
                rest.append(argument)
            }
        }
        return try OpenCommand.run(rest, kiosk: options)
    }
}
