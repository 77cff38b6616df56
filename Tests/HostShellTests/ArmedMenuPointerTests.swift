import Foundation
import Testing

/// The armed menu (§6) opened as a person opens it: a context click and a long press on the page,
/// sent by xdotool through the X server as a mouse sends them, not through the control interface.
@Suite("Armed menus under a person's pointer (real WebKit, real X input)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "needs xdotool: scripts/install-deps installs it"),
       .serialized)
struct ArmedMenuPointerTests {
    /// Runs xdotool on the tests' display and returns what it printed.
    @discardableResult
    static func xdotool(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xdotool \(arguments.joined(separator: " ")) failed")
        return printed
    }

    /// Puts the pointer in the middle of the app's window (the page, below the header bar).
    static func pointAtPage(_ app: RunningApp) throws {
        let windows = try xdotool("search", "--sync", "--onlyvisible", "--pid", "\(app.process.processIdentifier)")
        let window = try #require(windows.split(separator: "\n").first.map(String.init), "the app's window is not on the display")
        let geometry = try xdotool("getwindowgeometry", "--shell", window)
        let value = { (name: String) in geometry.split(separator: "\n").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) } }
        let width = try #require(value("WIDTH")), height = try #require(value("HEIGHT"))
        try xdotool("mousemove", "--sync", "--window", window, "\(width / 2)", "\(height / 2 + 40)")
    }

    @Test("a right click and a long press on the page each open the armed menu at the pointer; dismissing or choosing clears both menus")
    func contextClickAndLongPress() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "navigation.selected=overview")
        let listen = #"window.__menus = []; window.tilecastNativeReceiver = (m) => { if (m.type.startsWith("action-menu/")) window.__menus.push([m.type, m.payload.menuId, m.payload.actionId ?? null]); return true; }; true"#
        #expect(try app.ctl("eval", listen).status == 0)
        let arm = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "action-menu/arm", payload: {menuId: "ctx", label: "Page", groups: [{items: [{id: "copy", label: "Copy"}]}]}}); true"#
        #expect(try app.ctl("eval", arm).status == 0)
        _ = try app.state("menus.armed=\"ctx\"")
        try Self.pointAtPage(app)

        // The right button, as a desktop's context click.
        try Self.xdotool("click", "3")
        _ = try app.state("menus.open=\"ctx\"")
        // Dismissed: both menus are cleared (§6), so the page arms it again.
        #expect(try app.ctl("menu-close").status == 0)
        _ = try app.state("menus.open=null", "menus.armed=null")
        #expect(try app.ctl("eval", arm).status == 0)
        _ = try app.state("menus.armed=\"ctx\"")

        // The left button held still: a long press, as a finger's on the phone. The pointer first
        // moves a little, as a person's does: a press that comes with no motion since the menu's
        // grab ended reaches no widget (GTK has not picked the widget under the pointer again).
        try Self.xdotool("mousemove_relative", "--sync", "2", "2")
        try Self.xdotool("mousedown", "1")
        _ = try app.state("menus.open=\"ctx\"")
        try Self.xdotool("mouseup", "1")
        #expect(try app.ctl("menu", "copy").status == 0)
        _ = try app.state("menus.open=null", "menus.armed=null")
        let heard = try #require(try app.evalWhen("window.__menus.length >= 2 && window.__menus") as? [[Any]])
        #expect(heard.map { $0.map { "\($0)" } } == [["action-menu/dismissed", "ctx", "<null>"], ["action-menu/action", "ctx", "copy"]])
    }
}
