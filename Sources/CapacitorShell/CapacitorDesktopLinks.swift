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

    /// `capacitor --uninstall-links`: removes every entry HostShell wrote for a Capacitor app
    /// (marked `X-HostShell-App`) and the desktop's defaults and associations naming them (in
    /// `$XDG_CONFIG_HOME/mimeapps.list` and the older `applications/mimeapps.list`); says what
    /// went. Nothing to remove is not an error.
    static func uninstallAll() -> Int32 {
        var names: Set<String> = []
        var failed = false
        for name in DirectoryNames.of(directory).sorted() where name.hasSuffix(".desktop") {
            let path = directory + "/" + name
            guard let bytes = try? FileReading.bytes(path, limit: 1 << 20),
                  let appId = CapacitorDesktopLinksRemoval.appId(ofEntry: String(decoding: bytes, as: UTF8.self)) else { continue }
            if unlink(path) == 0 {
                names.insert(name)
                printOut("removed \(TerminalText.escaped(path)) (the links of \(TerminalText.escaped(appId)))")
            } else {
                failed = true
                printError("hostshell: could not remove \(TerminalText.escaped(path)): \(String(cString: strerror(errno))); remove it yourself")
            }
        }
        let lists = [String(cString: g_get_user_config_dir()) + "/mimeapps.list", directory + "/mimeapps.list"]
        for list in lists {
            guard !names.isEmpty, let bytes = try? FileReading.bytes(list, limit: 1 << 20),
                  let changed = CapacitorDesktopLinksRemoval.mimeApps(String(decoding: bytes, as: UTF8.self), without: names) else { continue }
            do throws(UsageError) {
                try AtomicFile.write(Array(changed.text.utf8), to: list, what: "the desktop's default apps")
                printOut("removed from \(TerminalText.escaped(list)): \(changed.removed.joined(separator: ", "))")
            } catch {
                failed = true
                printError("hostshell: \(error.message)")
            }
        }
        if names.isEmpty { printOut("no Capacitor app's link entry to remove in \(TerminalText.escaped(directory))") } else { refreshDatabase() }
        return failed ? ExitCode.failure : ExitCode.success
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
