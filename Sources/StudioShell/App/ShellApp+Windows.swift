import CGtk
import HostCore
import ShellKit
import StudioContract

/// Another window of the app on the same server and network session (sign-in, cookies and
/// storage shared): a whole Studio of its own, opened by Ctrl+N or by a page of the server a
/// person opened in a new window (`window.open`, `target=_blank`).
@MainActor
package final class SecondWindow {
    let id: Int
    package let session: OpenSession
    package let window: StudioWindow
    init(id: Int, session: OpenSession, window: StudioWindow) {
        self.id = id; self.session = session; self.window = window
    }
}

extension ShellApp {
    /// Opens a new window on the shown server's session, at `url` (a page of the server) or at
    /// Studio's start.
    func openWindow(url: String?) {
        let record = session.record
        let extra = OpenSession(record: record, device: device, inspector: inspector, credentials: credentials,
                                networkSession: session.networkSession, environment: environment, prewarmSheets: false, kiosk: nil)
        let size = window.host.size
        let studio = StudioWindow(view: extra.view, title: Self.title(record), subtitle: record.address.normalized, size: size)
        let second = SecondWindow(id: nextWindowId, session: extra, window: studio)
        nextWindowId += 1
        secondWindows.append(second)
        studio.onAction = { [weak self, weak second] action in
            guard let self, let second else { return }
            self.perform(action, in: second)
        }
        studio.downloads.onChoose = { [downloads = environment.downloads] id, choice in _ = downloads.open(id, choice: choice) }
        studio.downloads.show(environment.downloads.list)
        extra.onScreenChanged = { [weak self] in self?.onScreenChanged?() }
        extra.onNotice = { [weak studio] notice in studio?.toast(TerminalText.escaped(notice)) }
        extra.page.web.onOpenWindow = { [weak self] url in self?.openWindow(url: url) }
        onCloseRequest(studio.window) { [weak self, weak second] in
            if let self, let second { self.closeWindow(second) }
            return true
        }
        studio.present()
        extra.start()
        if let url, let path = Self.path(of: url, on: record.address.origin) { extra.page.openDeepLink(path) }
        onScreenChanged?()
    }

    /// The path, query and fragment of `url` on `origin`, or nil when it is not on it.
    package static func path(of url: String, on origin: Origin) -> String? {
        guard Origin(url: url) == origin, let schemeEnd = url.range(of: "://") else { return nil }
        let afterHost = url[schemeEnd.upperBound...]
        guard let slash = afterHost.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return "/" }
        let rest = String(afterHost[slash...])
        return rest.hasPrefix("/") ? rest : "/" + rest
    }

    /// An action in a second window: most are its own; the app's are the app's.
    func perform(_ action: AppAction, in second: SecondWindow) {
        switch action {
        case .closeWindow: closeWindow(second)
        case .reload: second.session.verifyAndLoad()
        case .back: if second.session.page.session.nativeChrome.backBar != nil { second.session.page.tapBack() }
        case .newWindow, .quit, .shortcuts, .about, .switchServer: perform(action)
        }
    }

    /// Closes a second window: its session first, then its widgets.
    func closeWindow(_ second: SecondWindow) {
        guard let index = secondWindows.firstIndex(where: { $0 === second }) else { return }
        secondWindows.remove(at: index)
        second.session.close()
        gtk_widget_set_visible(second.window.window, 0)
        let widget = second.window.window
        MainLoop.after(milliseconds: 100) { gtk_window_destroy(cgtk_window(raw(widget))) }
        onScreenChanged?()
    }

    /// Closes every second window (quitting, or showing another server).
    func closeSecondWindows() {
        for second in secondWindows { closeWindow(second) }
    }

    /// Downloads: the buttons of every window follow the list; a finished one is announced.
    func connectDownloads() {
        let center = environment.downloads
        window.downloads.onChoose = { [center] id, choice in _ = center.open(id, choice: choice) }
        center.onChanged = { [weak self] in
            guard let self else { return }
            self.window.downloads.show(center.list)
            for second in self.secondWindows { second.window.downloads.show(center.list) }
            self.onScreenChanged?()
        }
        center.onEnded = { [weak self] item in
            guard let self else { return }
            let text = TerminalText.escaped(DownloadList.notice(item))
            self.downloadNotices = StateReport.appending(text, to: self.downloadNotices, keeping: StateReport.keptNotices)
            // The desktop's notification too when no window of the app is the active one.
            self.environment.downloadNotifier.ended(item, windowActive: self.anyWindowActive)
            if item.state == .finished {
                let id = item.id
                self.window.host.toast(text, button: "_Open") { [weak center] in _ = center?.open(id, choice: "open") }
            } else {
                self.window.toast(text)
            }
        }
    }

    /// Whether one of the app's windows is the active one (has the keyboard focus).
    var anyWindowActive: Bool {
        ([window] + secondWindows.map(\.window)).contains { gtk_window_is_active(cgtk_window(raw($0.window))) != 0 }
    }

    /// `ctl state`'s windows: the first (the app's own) and the others, with what each shows.
    var windowsJSON: JSONValue {
        let first: JSONValue = ["id": 1, "server": .string(session.record.id), "url": session.page.uri.map(JSONValue.string) ?? .null,
                                "screen": .string(session.screen.name)]
        return .array([first] + secondWindows.map { second in
            ["id": .number(Double(second.id)), "server": .string(second.session.record.id),
             "url": second.session.page.uri.map(JSONValue.string) ?? .null, "screen": .string(second.session.screen.name)]
        })
    }

    /// `ctl state`'s downloads: the folder, each download, and the notices of the ended ones.
    var downloadsJSON: JSONValue {
        ["folder": .string(environment.downloads.folder), "items": environment.downloads.list.json,
         "notices": .array(downloadNotices.map(JSONValue.string)), "notifications": environment.downloadNotifier.json]
    }
}
