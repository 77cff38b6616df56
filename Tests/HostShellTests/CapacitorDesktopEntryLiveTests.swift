import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
import Testing

/// A Capacitor app's desktop entry for its link schemes, written by `hostshell capacitor` to
/// the (test's) `$XDG_DATA_HOME/applications`, and its `Exec` run as the desktop runs it: the
/// link reaches the running app, and starts the app with it when none runs.
@Suite("Capacitor apps: the desktop entry for the app's links (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct CapacitorDesktopEntryLiveTests {
    @Test("the entry names the app's scheme and runs the same app with --open-url %u: a warm link goes to the running app, a cold one starts it")
    func desktopEntry() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let file = home.root.appendingPathComponent("data/applications/dev.hostshell.testapp.desktop")
        var exec: [String] = []
        do {
            let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--allow-eval", "--link-scheme", "hstest"], command: "capacitor")
            defer { app.stop() }
            _ = try app.state("screen=page", "app.desktopEntry.written=true", "capacitor.listeners.3.event=appUrlOpen", timeout: 60)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("\nMimeType=x-scheme-handler/hstest;\n") && text.contains("\nNoDisplay=true\n")
                    && text.contains("\nX-HostShell-App=dev.hostshell.testapp\n") && text.contains("\nName=Cap Test\n"), "\(text)")
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") })
            exec = try #require(DesktopEntry.execArguments(String(line.dropFirst(5))), "\(line)")
            #expect(exec.count > 2 && exec[0].hasPrefix("/") && exec[1] == "capacitor" && exec.suffix(2) == ["--open-url", "%u"], "\(exec)")
            #expect(exec.contains(CapacitorLiveTests.project) && exec.contains("dev.hostshell.testapp"), "\(exec)")

            // The desktop opens a link: the entry's command, %u replaced by the link.
            #expect(URL(fileURLWithPath: exec[0]).resolvingSymlinksInPath().path == HostShellBinary.url.resolvingSymlinksInPath().path,
                    "the entry runs this hostshell: \(exec[0])")
            let warm = try HostShellBinary.run(exec.dropFirst().map { $0 == "%u" ? "hstest://from/desktop" : $0 }, environment: home.environment)
            #expect(warm.status == 0 && warm.stdout.contains("Opened in Cap Test"), "\(warm.stdout)\n\(warm.stderr)")
            #expect(try app.evalWhen("window.__test.events.find((e) => e.startsWith('appUrlOpen:'))") as? String == "appUrlOpen:hstest://from/desktop")
        }
        // No app runs: the same command starts it with the link as its launch URL (here with a
        // control socket, to look at it), and finds the entry as it wrote it.
        let arguments = Array(exec.dropFirst(2).map { $0 == "%u" ? "hstest://cold/desktop" : $0 }) + ["--allow-eval"]
        let cold = try RunningApp(home: home, arguments: arguments, command: "capacitor")
        defer { cold.stop() }
        _ = try cold.state("screen=page", "app.desktopEntry.written=false", timeout: 60)
        #expect(try cold.evalWhen("window.__test.launchUrl") as? String == "hstest://cold/desktop")
    }

    @Test("capacitor --uninstall-links removes the entries it wrote and the defaults naming them, leaves another program's, and says so")
    func uninstallLinks() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        let applications = home.root.appendingPathComponent("data/applications")
        let file = applications.appendingPathComponent("dev.hostshell.testapp.desktop")
        do {
            let app = try RunningApp(home: home, arguments: [CapacitorLiveTests.project, "--link-scheme", "hstest"], command: "capacitor")
            defer { app.stop() }
            _ = try app.state("screen=page", "app.desktopEntry.written=true", timeout: 60)
        }
        #expect(FileManager.default.fileExists(atPath: file.path))
        // Another program's entry, and the defaults the person set (one HostShell's, one not).
        let foreign = applications.appendingPathComponent("other.desktop")
        try Data("[Desktop Entry]\nType=Application\nName=Other\nExec=/bin/true %u\nMimeType=x-scheme-handler/other;\n".utf8).write(to: foreign)
        let config = home.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let mimeapps = config.appendingPathComponent("mimeapps.list")
        try Data("""
            [Default Applications]
            x-scheme-handler/hstest=dev.hostshell.testapp.desktop
            x-scheme-handler/other=other.desktop

            [Added Associations]
            x-scheme-handler/hstest=dev.hostshell.testapp.desktop;other.desktop;

            """.utf8).write(to: mimeapps)

        let removed = try HostShellBinary.run(["capacitor", "--uninstall-links"], environment: home.environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("removed \(file.path)") && removed.stdout.contains("dev.hostshell.testapp")
                && removed.stdout.contains("x-scheme-handler/hstest"), "\(removed.stdout)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path), "another program's entry stays")
        let left = try String(contentsOf: mimeapps, encoding: .utf8)
        #expect(left == "[Default Applications]\nx-scheme-handler/other=other.desktop\n\n[Added Associations]\nx-scheme-handler/hstest=other.desktop;\n", "\(left)")

        let nothing = try HostShellBinary.run(["capacitor", "--uninstall-links"], environment: home.environment)
        #expect(nothing.status == 0 && nothing.stdout.contains("no Capacitor app's link entry to remove"), "\(nothing.stdout)")
        let mixed = try HostShellBinary.run(["capacitor", "--uninstall-links", "--check"], environment: home.environment)
        #expect(mixed.status == 2 && mixed.stderr.contains("--uninstall-links takes no other arguments"), "\(mixed.stderr)")
        let help = try HostShellBinary.run(["capacitor", "--help"], environment: home.environment)
        #expect(help.status == 0 && help.stdout.contains("--uninstall-links"))
    }
}
