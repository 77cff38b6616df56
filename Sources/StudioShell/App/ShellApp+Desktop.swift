import CGtk
import HostCore
import ShellKit
import StudioContract

/// The Studio app as a GNOME app: its actions (primary menu, keys, `ctl action`), the Keyboard
/// Shortcuts and About windows, and the window size remembered per server.
extension ShellApp {
    /// Carries out `action`, triggered in the app's window.
    func perform(_ action: AppAction) {
        switch action {
        case .newWindow:
            openWindow(url: nil)
        case .closeWindow, .quit:
            quit()
        case .reload:
            session.verifyAndLoad()
        case .back:
            if session.page.session.nativeChrome.backBar != nil { session.page.tapBack() }
        case .switchServer:
            _ = window.openSwitcher()
        case .shortcuts:
            if let open = shortcutsWindow { return gtk_window_present(cgtk_window(raw(open))) }
            guard let made = ShortcutsWindow.make(parent: window.window) else { return }
            shortcutsWindow = made
            onSignal(raw(made), "destroy") { [weak self] in
                self?.shortcutsWindow = nil
                self?.onScreenChanged?()
            }
            gtk_window_present(cgtk_window(raw(made)))
        case .about:
            if let open = aboutWindow { return gtk_window_present(cgtk_window(raw(open))) }
            let made = AboutWindow.make(parent: window.window)
            aboutWindow = made
            onSignal(raw(made), "destroy") { [weak self] in
                self?.aboutWindow = nil
                self?.onScreenChanged?()
            }
            gtk_window_present(cgtk_window(raw(made)))
        }
        onScreenChanged?()
    }

    /// Ctrl+Q (and Ctrl+W in the last window): the window size is saved, then every window of
    /// the app closes and the app ends as when its window is closed.
    func quit() {
        saveWindowSize()
        closeSecondWindows()
        for dialog in [shortcutsWindow, aboutWindow].compactMap({ $0 }) { gtk_window_destroy(cgtk_window(raw(dialog))) }
        if let onExit {
            // The command ends its loop; the session closes before its widgets go.
            session.close()
            MainLoop.whenIdle { onExit() }  // once `ctl action`'s answer is written
        } else {
            gtk_window_destroy(cgtk_window(raw(window.window)))
        }
    }

    /// The window's close button: as Ctrl+W (size saved, the app ends cleanly).
    func connectCloseRequest() {
        onCloseRequest(window.window) { [weak self] in
            guard let self, self.onExit != nil else { return false }
            self.perform(.closeWindow)
            return true
        }
    }

    /// A size change: saved once the window has kept its size for half a second.
    func windowSizeChanged() {
        sizeGeneration += 1
        let generation = sizeGeneration
        MainLoop.after(milliseconds: 500) { [weak self] in
            guard let self, self.sizeGeneration == generation else { return }
            self.saveWindowSize()
        }
    }

    /// Saves the window's size for the server shown (not a kiosk's full screen).
    func saveWindowSize() {
        guard kiosk == nil else { return }
        let handle = cgtk_window(raw(window.window))
        let size = window.host.size
        let now = RememberedWindowSize(width: size.width, height: size.height, maximized: gtk_window_is_maximized(handle) != 0)
        guard now != remembered, RememberedWindowSize.sides.contains(now.width), RememberedWindowSize.sides.contains(now.height) else { return }
        if WindowSizeFile.save(now, serverId: session.record.id, root: environment.profileRoot) { remembered = now }
    }

    /// The app's part of `ctl state` about the desktop: the open dialogs and the remembered size.
    var desktopJSON: JSONValue {
        ["shortcuts": .bool(shortcutsWindow != nil), "about": .bool(aboutWindow != nil),
         "actions": .array(AppAction.available(kiosk: kiosk != nil).map { .string($0.rawValue) }),
         "keys": .object(JSONObject(window.actions.boundKeys.map { ($0.key, JSONValue.string($0.action)) })),
         "appearance": Appearance.json,
         "appIcon": .bool(AppIcon.found),
         "overlays": .array(WindowSnapshot.overlays(of: window.window).map { overlay in
             ["kind": .string(overlay.kind), "x": .number(Double(overlay.x)), "y": .number(Double(overlay.y)),
              "width": .number(Double(overlay.width)), "height": .number(Double(overlay.height))]
         }),
         "rememberedSize": remembered.map { ["width": .number(Double($0.width)), "height": .number(Double($0.height)),
                                              "maximized": .bool($0.maximized)] } ?? .null]
    }
}

/// The remembered window size in a server's profile (`window.json` beside its website data).
@MainActor
package enum WindowSizeFile {
    package static func path(_ serverId: String, root: String? = nil) -> String {
        ServerStoreFile.profileDirectories(for: serverId, root: root).data + "/" + RememberedWindowSize.fileName
    }

    package static func load(serverId: String, root: String? = nil) -> RememberedWindowSize? {
        guard let bytes = try? FileReading.bytes(path(serverId, root: root), limit: 4 << 10) else { return nil }
        return RememberedWindowSize.parse(String(decoding: bytes, as: UTF8.self))
    }

    static func save(_ size: RememberedWindowSize, serverId: String, root: String? = nil) -> Bool {
        (try? AtomicFile.write(Array(size.fileText.utf8), to: path(serverId, root: root), what: "the window size")) != nil
    }
}

/// Light or dark and high contrast, as libadwaita follows the desktop's settings.
@MainActor
package enum Appearance {
    static var json: JSONValue {
        guard let manager = adw_style_manager_get_default() else { return .null }
        return ["dark": .bool(adw_style_manager_get_dark(manager) != 0),
                "highContrast": .bool(adw_style_manager_get_high_contrast(manager) != 0)]
    }
}
