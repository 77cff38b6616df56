import HostCore

/// The desktop entry that makes a Capacitor app run by `hostshell capacitor` the desktop's
/// handler of its link schemes (`homesec://…`), as the iOS app is for the schemes its
/// Info.plist declares: `MimeType=x-scheme-handler/SCHEME;` for each, and an `Exec` that runs
/// the same app again with `--open-url %u` — which hands the link to the app when it is
/// running (`capacitor --open-url` forwards to it) and starts it with the link otherwise.
///
/// The file is `$XDG_DATA_HOME/applications/APP-ID.desktop`: named by the bundle id, which is
/// also the id the app's notifications are sent under, so the desktop names them after it.
/// It is hidden from menus (`NoDisplay`), marked `X-HostShell-App=APP-ID`, and HostShell
/// writes over only a file with that mark: an entry of another program under the same name is
/// left alone.
public enum CapacitorDesktopEntry {
    public static let markKey = "X-HostShell-App"

    public static func fileName(appId: String) -> String { appId + ".desktop" }

    /// The entry for an app; `command` is what starts it (the binary, `capacitor` and the
    /// arguments that name the app: `arguments(…)`).
    public static func entry(appId: String, appName: String, schemes: [String], command: [String]) -> DesktopEntry {
        let links = schemes.map { $0 + ":" }.joined(separator: ", ")
        return DesktopEntry(name: appName, comment: "Open \(links) links in \(appName) (HostShell)", exec: command + ["--open-url"],
                            fieldCode: "%u", icon: "hostshell", noDisplay: true, mimeTypes: schemes.map(DesktopEntry.schemeHandler),
                            categories: ["Network"], extensions: [markKey + "=" + DesktopEntry.escaped(appId)])
    }

    /// The `capacitor` arguments that run this same app: where it comes from (an absolute
    /// project, web directory or dev server), its id (so its profile), and every choice that
    /// is not the default. Each value is one argument, quoted by the entry as it must be.
    public static func arguments(project: String?, webDir: String?, url: String?, appId: String, appName: String?,
                                 schemes: [String], apnsEnvironment: String, credentialStore: String, device: String) -> [String] {
        var arguments = ["capacitor"]
        if let project { arguments.append(project) }
        if let webDir { arguments += ["--web-dir", webDir] }
        if let url { arguments += ["--url", url] }
        arguments += ["--app-id", appId]
        if let appName { arguments += ["--app-name", appName] }
        for scheme in schemes { arguments += ["--link-scheme", scheme] }
        if apnsEnvironment != "sandbox" { arguments += ["--apns-environment", apnsEnvironment] }
        if credentialStore != "auto" { arguments += ["--credential-store", credentialStore] }
        if device != "phone" { arguments += ["--device", device] }
        return arguments
    }

    public enum Decision: Sendable, Equatable {
        /// Write the entry (none there, or an older one of this app's).
        case write
        /// The same entry is there already.
        case unchanged
        /// Another program's entry has the name: leave it, and say so.
        case foreign
    }

    /// Whether to write `wanted` over what the file holds now (nil: no file).
    public static func decide(existing: String?, wanted: String, appId: String) -> Decision {
        guard let existing else { return .write }
        if existing == wanted { return .unchanged }
        let mark = markKey + "=" + DesktopEntry.escaped(appId)
        let marked = existing.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).contains { $0.trimmingSpaces() == mark }
        return marked ? .write : .foreign
    }
}

/// `hostshell capacitor --uninstall-links`: which desktop entries are HostShell's for Capacitor
/// apps (marked `X-HostShell-App=…`), and a `mimeapps.list` without the defaults and added
/// associations that name them — every other line kept as it was.
public enum CapacitorDesktopLinksRemoval {
    /// The app id an entry's text is marked with; nil for another program's entry.
    public static func appId(ofEntry text: String) -> String? {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix(CapacitorDesktopEntry.markKey + "=") {
                let value = trimmed.dropFirst(CapacitorDesktopEntry.markKey.count + 1)
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }

    /// `text` (a mimeapps.list) without `entries` in its [Default Applications] and [Added
    /// Associations] (a line left with none goes; an emptied group stays), and what went, as
    /// "TYPE" for each association removed; nil when nothing names them.
    public static func mimeApps(_ text: String, without entries: Set<String>) -> (text: String, removed: [String])? {
        var group = "", out: [String] = [], removed: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for raw in lines {
            let line = String(raw)
            let trimmed = line.trimmingSpaces()
            if trimmed.hasPrefix("[") { group = trimmed; out.append(line); continue }
            guard group == "[Default Applications]" || group == "[Added Associations]",
                  let equals = line.firstIndex(of: "=") else { out.append(line); continue }
            let type = String(line[..<equals]).trimmingSpaces()
            let values = line[line.index(after: equals)...].split(separator: ";").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            let kept = values.filter { !entries.contains($0) }
            guard kept.count != values.count else { out.append(line); continue }
            if !removed.contains(type) { removed.append(type) }
            if kept.isEmpty { continue }
            out.append(type + "=" + kept.joined(separator: ";") + (line.hasSuffix(";") ? ";" : ""))
        }
        return removed.isEmpty ? nil : (out.joined(separator: "\n"), removed)
    }
}
