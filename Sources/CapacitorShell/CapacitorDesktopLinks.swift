import CGtk
import CapacitorContract
import Glibc
import HostCore
import ShellKit

/// Makes a running Capacitor app the desktop's handler of its link schemes: writes the entry
/// `CapacitorDesktopEntry` makes (to `$XDG_DATA_HOME/applications/APP-ID.desktop`, only over an
/// older one of the same app) and asks `update-desktop-database`, when it is installed, to
/// refresh the desktop's scheme-handler cache, as scripts/install does for Studio's links.
/// HostShell does not make it the default handler: the desktop's settings (or `xdg-mime
/// default APP-ID.desktop x-scheme-handler/SCHEME`) do.
@MainActor
package enum CapacitorDesktopLinks {
    static var directory: String { String(cString: g_get_user_data_dir()) + "/applications" }

    /// Installs the entry for `launch` started by `command`; what happened, for `ctl state`.
    static func install(_ launch: CapacitorLaunch, command: [String]) -> JSONValue {
        guard !launch.linkSchemes.isEmpty else { return .null }
        let path = directory + "/" + CapacitorDesktopEntry.fileName(appId: launch.appId)
        let wanted = CapacitorDesktopEntry.entry(appId: launch.appId, appName: launch.displayName, schemes: launch.linkSchemes,
                                                 command: [runningExecutable()] + command).text
        // A file that is there but cannot be read is not ours to replace.
        let existing = (try? FileReading.bytes(path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
            ?? (access(path, F_OK) == 0 ? "" : nil)
        var state: JSONObject = ["path": .string(path), "schemes": .array(launch.linkSchemes.map(JSONValue.string))]
        switch CapacitorDesktopEntry.decide(existing: existing, wanted: wanted, appId: launch.appId) {
        case .unchanged:
            state["written"] = false
        case .foreign:
            state["written"] = false
            state["problem"] = .string("\(path) belongs to another program; it was left as it is")
            printError("hostshell: note: \(TerminalText.escaped(path)) belongs to another program, so the desktop's links do not reach this app; remove it to let HostShell write its own")
        case .write:
            do throws(UsageError) {
                try AtomicFile.write(Array(wanted.utf8), to: path, what: "the app's desktop entry")
                state["written"] = true
                refreshDatabase()
                let links = launch.linkSchemes.map { $0 + ":" }.joined(separator: ", ")
                printError("hostshell: the desktop opens \(links) links in this app (\(TerminalText.escaped(path)))")
            } catch {
                state["written"] = false
                state["problem"] = .string(error.message)
                printError("hostshell: note: the desktop's links will not reach this app: \(error.message)")
            }
        }
        return .object(state)
    }

    /// `update-desktop-database -q DIR` when it is on PATH; nothing waits for it.
    private static func refreshDatabase() {
        guard let program = takeGString(g_find_program_in_path("update-desktop-database")) else { return }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup("-q"), strdup(directory), nil]
        defer { for pointer in argv { free(pointer) } }
        let flags = GSpawnFlags(G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_STDERR_TO_DEV_NULL.rawValue)
        _ = g_spawn_async(nil, &argv, nil, flags, nil, nil, nil, nil)
    }
}
