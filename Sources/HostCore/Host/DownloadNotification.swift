/// The desktop notification a download that ended gets, as GNOME Web does: while one of the
/// app's windows is the active one the in-window toast is enough; when none is, a finished
/// download gets "Download finished" (its file name; opening it opens the file, its button
/// "Show in Folder" shows it in its folder) and a failed one "Download failed" with the reason
/// and no actions. A download the person cancelled gets none. With no notification server on
/// the session bus (CI) it is still recorded (`desktop: false`), so `ctl state` shows what a
/// person would have seen.
public struct DownloadNotification: Sendable, Equatable {
    /// The application actions (`app.` + name) it carries, with the download's id (int32).
    public static let openAction = "download-open"
    public static let showAction = "download-show"
    /// The most kept for `ctl state`.
    public static let kept = 10

    /// "download-N": a later notification of the same download replaces it on the desktop.
    public var id: String
    public var downloadId: Int
    public var title: String
    public var body: String
    /// Open (the default action) and Show in Folder: a finished download only.
    public var actions: Bool
    /// Whether it goes to the desktop's notification server (false: recorded only).
    public var desktop: Bool

    /// Whether the app counts as active: `ctl lifecycle blur|focus` (an override, for tests
    /// under a display with no window manager) wins over what the windows say.
    public static func appActive(windowActive: Bool, override: Bool?) -> Bool {
        override ?? windowActive
    }

    /// The notification `item` gets now that it ended, or nil (still running, cancelled, or
    /// the app is active and its toast tells the person).
    public static func forEnded(_ item: DownloadList.Item, appActive: Bool, server: Bool) -> DownloadNotification? {
        guard !appActive else { return nil }
        let name = TerminalText.escaped(item.file.split(separator: "/").last.map(String.init) ?? item.file)
        let shown = name.isEmpty ? "download \(item.id)" : name
        switch item.state {
        case .finished:
            return DownloadNotification(id: "download-\(item.id)", downloadId: item.id, title: "Download finished",
                                        body: shown, actions: true, desktop: server)
        case .failed(let why):
            return DownloadNotification(id: "download-\(item.id)", downloadId: item.id, title: "Download failed",
                                        body: "\(shown): \(TerminalText.escaped(why))", actions: false, desktop: server)
        case .running, .cancelled:
            return nil
        }
    }

    /// What an action's name asks of `DownloadCenter.open` ("open" or "show"), or nil for another.
    public static func choice(forAction name: String) -> String? {
        switch name {
        case openAction: return "open"
        case showAction: return "show"
        default: return nil
        }
    }

    public var json: JSONValue {
        ["id": .string(id), "download": .number(Double(downloadId)), "title": .string(title), "body": .string(body),
         "actions": .array(actions ? [.string("app.\(Self.openAction)"), .string("app.\(Self.showAction)")] : []),
         "desktop": .bool(desktop)]
    }
}
