import Foundation
import HostCore
import StudioContract
import Testing

/// GNOME conventions (issue 16 item 3), in the real app under Xvfb: the primary menu's Keyboard
/// Shortcuts and About, the keys the window answers to, the size remembered per server, high
/// contrast followed, and error screens that select nothing.
@Suite("Desktop conventions (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct DesktopConventionsTests {
    @Test("the window answers Ctrl+Q, Ctrl+W, Ctrl+R, F5, Ctrl+N and Ctrl+?; Keyboard Shortcuts and About open")
    func keysAndDialogs() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        let state = try app.state("screen=page", "desktop.shortcuts=false", "desktop.about=false")
        let keys = try #require((state["desktop"] as? [String: Any])?["keys"] as? [String: String])
        #expect(keys["<Control>q"] == "app.quit" && keys["<Control>w"] == "app.close-window" && keys["<Control>r"] == "app.reload"
                && keys["F5"] == "app.reload" && keys["<Control>n"] == "app.new-window" && keys["<Control>question"] == "app.shortcuts"
                && keys["<Alt>Left"] == "app.back" && keys["F10"] == "app.switch-server", "\(keys)")
        // Every key the Keyboard Shortcuts window shows is one the window answers to.
        let shown = Set(AppAction.shortcutSections.flatMap { $0.actions.flatMap(\.accelerators) })
        #expect(shown.isSubset(of: Set(keys.keys)), "listed but not bound: \(shown.subtracting(keys.keys))")
        #expect(try app.ctl("action", "shortcuts").status == 0)
        _ = try app.state("desktop.shortcuts=true")
        #expect(try app.ctl("action", "about").status == 0)
        _ = try app.state("desktop.about=true", "desktop.appIcon=true")
        let unknown = try app.ctl("action", "explode")
        #expect(unknown.status == 1 && unknown.error.contains("no action \"explode\"") && unknown.error.contains("about"), "\(unknown.error)")
        // Ctrl+R: the page loads again (its document is new).
        #expect(try app.ctl("eval", "window.__before = 1; true").status == 0)
        #expect(try app.ctl("action", "reload").status == 0)
        #expect(try app.evalWhen("window.__before === undefined") as? Bool == true)
    }

    @Test("the window size is remembered per server and used next time; --device still sets the start")
    func rememberedSize() throws {
        let home = TemporaryHome()
        let server = try ReferenceServer()
        defer { server.stop(); home.remove() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        var app = try RunningApp(home: home, arguments: [])
        _ = try app.state("screen=page", "window.width=1280", "desktop.rememberedSize=null")
        #expect(try app.ctl("resize", "900", "700").status == 0)
        _ = try app.state("window.width=900", "desktop.rememberedSize.width=900", "desktop.rememberedSize.height=700")
        // Ctrl+Q ends the app as closing its window does.
        #expect(try app.ctl("action", "quit").status == 0)
        #expect(waitUntil(timeout: 20) { !app.process.isRunning }, "quit did not end the app")
        #expect(app.process.terminationStatus == 0)
        app.stop()

        app = try RunningApp(home: home, arguments: [], environment: ["ADW_DEBUG_HIGH_CONTRAST": "1"])
        _ = try app.state("screen=page", "window.width=900", "window.height=700", "desktop.appearance.highContrast=true")
        let contrast = home.root.appendingPathComponent("contrast.png").path
        let contrastShot = try app.ctl("snapshot", contrast)
        #expect(contrastShot.status == 0, "\(contrastShot.error)")
        app.stop()

        app = try RunningApp(home: home, arguments: [])
        _ = try app.state("screen=page", "window.width=900", "window.height=700", "desktop.appearance.highContrast=false")
        let plain = home.root.appendingPathComponent("plain.png").path
        let plainShot = try app.ctl("snapshot", plain)
        #expect(plainShot.status == 0, "\(plainShot.error)")
        app.stop()

        app = try RunningApp(home: home, arguments: ["--device", "phone"])
        _ = try app.state("screen=page", "device.size.width=393", "window.sizeClass=compact")
        app.stop()
        // High contrast draws the chrome otherwise (its borders and colours), the same window
        // and page apart.
        let (a, b) = (try Data(contentsOf: URL(fileURLWithPath: contrast)), try Data(contentsOf: URL(fileURLWithPath: plain)))
        #expect(a.count > 1000 && b.count > 1000 && a != b, "the high-contrast window looks the same as the plain one")
    }

    @Test("an error screen selects nothing and shows no back bar; the page back selects again")
    func errorSelectsNothing() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "navigation.kind=sidebar")
        #expect(try app.ctl("tap", "media").status == 0)
        _ = try app.state("navigation.selected=media")
        live.server.stop()
        #expect(try app.ctl("action", "reload").status == 0)
        _ = try app.state("screen=error", "navigation.selected=null", "backBar=null")
    }
}

/// Icons show (issue 32 item 5): every icon a Studio token names is in the theme the UI uses,
/// and HostShell's own icon is found when it runs from a build tree.
@Suite("Icons the UI uses")
struct IconThemeTests {
    @Test("every token's icon is in the Adwaita theme that scripts/install-deps installs; Live Preview and Remove are not the fallback")
    func tokensHaveIcons() throws {
        let theme = URL(fileURLWithPath: "/usr/share/icons/Adwaita/scalable")
        let folders = try FileManager.default.contentsOfDirectory(atPath: theme.path)
        for name in IconTokens.allNames {
            let found = folders.contains { FileManager.default.fileExists(atPath: theme.appendingPathComponent("\($0)/\(name).svg").path) }
            #expect(found, "\(name) is not in the Adwaita icon theme")
        }
        #expect(IconTokens.symbolicName(for: "preview") != IconTokens.generic)
        #expect(IconTokens.symbolicName(for: "delete") != IconTokens.generic)
    }
}
