import Foundation
import Testing

/// The armed menu (§6) opened as a person opens it: a context click and a long press on the page,
/// sent by xdotool through the X server as a mouse sends them, not through the control interface.
/// On an X server of its own: a held button and an open menu grab the pointer, which would take
/// down the menus of the live tests running beside it on the shared display.
@Suite("Armed menus under a person's pointer (real WebKit, real X input)",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"), "needs Xvfb: scripts/install-deps installs it"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "needs xdotool: scripts/install-deps installs it"),
       .serialized)
struct ArmedMenuPointerTests {
    /// An Xvfb of the test's own, on the first free display (it says which on its standard output).
    final class OwnDisplay {
        let process = Process()
        let name: String

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            process.arguments = ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
            let number = try runUntilFirstLine(process) ?? ""
            name = ":" + number
            #expect(Int(number) != nil, "Xvfb did not say which display it took")
        }

        func stop() { stopProcess(process) }
    }

    /// Runs xdotool on the test's display and returns what it printed.
    @discardableResult
    static func xdotool(on display: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xdotool \(arguments.joined(separator: " ")) failed")
        return printed
    }

    /// Puts the pointer in the middle of the app's window (the page, below the header bar).
    static func pointAtPage(_ app: RunningApp, on display: String) throws {
        let windows = try xdotool(on: display, "search", "--sync", "--onlyvisible", "--pid", "\(app.process.processIdentifier)")
        let window = try #require(windows.split(separator: "\n").first.map(String.init), "the app's window is not on the display")
        let geometry = try xdotool(on: display, "getwindowgeometry", "--shell", window)
        let value = { (name: String) in geometry.split(separator: "\n").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) } }
        let width = try #require(value("WIDTH")), height = try #require(value("HEIGHT"))
        try xdotool(on: display, "mousemove", "--sync", "--window", window, "\(width / 2)", "\(height / 2 + 40)")
    }

    @Test("a right click and a long press on the page each open the armed menu at the pointer; dismissing or choosing clears both menus")
    func contextClickAndLongPress() throws {
        let display = try OwnDisplay()
        defer { display.stop() }
        let home = TemporaryHome()
        defer { home.remove() }
        let server = try ReferenceServer()
        defer { server.stop() }
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval"], environment: ["DISPLAY": display.name])
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true", "navigation.selected=overview")
        let listen = #"window.__menus = []; window.tilecastNativeReceiver = (m) => { if (m.type.startsWith("action-menu/")) window.__menus.push([m.type, m.payload.menuId, m.payload.actionId ?? null]); return true; }; true"#
        #expect(try app.ctl("eval", listen).status == 0)
        let arm = #"window.webkit.messageHandlers.tilecastNative.postMessage({version: 1, type: "action-menu/arm", payload: {menuId: "ctx", label: "Page", groups: [{items: [{id: "copy", label: "Copy"}]}]}}); true"#
        #expect(try app.ctl("eval", arm).status == 0)
        _ = try app.state("menus.armed=\"ctx\"")
        try Self.pointAtPage(app, on: display.name)

        // The right button, as a desktop's context click.
        try Self.xdotool(on: display.name, "click", "3")
        _ = try app.state("menus.open=\"ctx\"")
        // Dismissed: both menus are cleared (§6), so the page arms it again.
        #expect(try app.ctl("menu-close").status == 0)
        _ = try app.state("menus.open=null", "menus.armed=null")
        #expect(try app.ctl("eval", arm).status == 0)
        _ = try app.state("menus.armed=\"ctx\"")

        // The left button held still: a long press, as a finger's on the phone. The pointer first
        // moves a little, as a person's does: a press that comes with no motion since the menu's
        // grab ended reaches no widget (GTK has not picked the widget under the pointer again).
        try Self.xdotool(on: display.name, "mousemove_relative", "--sync", "2", "2")
        try Self.xdotool(on: display.name, "mousedown", "1")
        _ = try app.state("menus.open=\"ctx\"")
        try Self.xdotool(on: display.name, "mouseup", "1")
        #expect(try app.ctl("menu", "copy").status == 0)
        _ = try app.state("menus.open=null", "menus.armed=null")
        let heard = try #require(try app.evalWhen("window.__menus.length >= 2 && window.__menus") as? [[Any]])
        #expect(heard.map { $0.map { "\($0)" } } == [["action-menu/dismissed", "ctx", "<null>"], ["action-menu/action", "ctx", "copy"]])
    }
}
