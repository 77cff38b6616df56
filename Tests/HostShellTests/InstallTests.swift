import Foundation
import Testing

/// `scripts/install` and `hostshell doctor`, as a person installing HostShell runs them.
@Suite("Installing like a desktop app, and hostshell doctor", .serialized)
struct InstallTests {
    /// Runs a program with the test's environment plus `extra` (a value of "" removes the variable).
    static func run(_ path: String, _ arguments: [String], _ extra: [String: String]) throws -> HostShellBinary.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = HostShellBinary.environment()
        for (key, value) in extra { environment[key] = value.isEmpty ? nil : value }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("install puts the binary, reference apps, desktop entries, icon and kiosk unit in place; uninstall removes exactly those")
    func installAndUninstall() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        var environment = home.environment
        environment["HOME"] = home.root.path
        let script = HostShellBinary.root.appendingPathComponent("scripts/install").path
        let installed = try Self.run(script, ["--binary", HostShellBinary.url.path], environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let prefix = home.root.appendingPathComponent(".local").path
        let binary = prefix + "/bin/hostshell"
        let data = home.root.appendingPathComponent("data").path, config = home.root.appendingPathComponent("config").path
        let files = [binary, data + "/applications/org.hostshell.HostShell.desktop", data + "/applications/hostshell-links.desktop",
                     data + "/icons/hicolor/scalable/apps/hostshell.svg", config + "/systemd/user/hostshell-kiosk.service",
                     prefix + "/share/hostshell/fixtures/studio/index.html"]
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file) is installed") }
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let entry = try String(contentsOfFile: data + "/applications/hostshell-links.desktop", encoding: .utf8)
        #expect(entry.contains("Exec=\(binary) open-url %u"))
        #expect(entry.contains("MimeType=x-scheme-handler/tilecast-ios;"))
        let unit = try String(contentsOfFile: config + "/systemd/user/hostshell-kiosk.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(binary) kiosk"))
        #expect(!unit.contains("@HOSTSHELL@"))

        // The installed binary finds the reference Studio it ships with, outside the checkout.
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: binary)
        serve.arguments = ["serve", "--reference"]
        serve.environment = HostShellBinary.environment(environment)
        let out = Pipe()
        serve.standardOutput = out
        serve.currentDirectoryURL = home.root
        try serve.run()
        defer { serve.terminate(); serve.waitUntilExit() }
        var firstLine = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { firstLine.append(byte) }
        #expect(String(decoding: firstLine, as: UTF8.self).hasPrefix("http://127.0.0.1:"))

        // A saved server is the user's: uninstalling keeps it.
        try FileManager.default.createDirectory(at: home.storeDirectory, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: home.store)
        let removed = try Self.run(script, ["--uninstall"], environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file) is removed") }
        #expect(FileManager.default.fileExists(atPath: home.store.path), "the saved servers are kept")
        let again = try Self.run(script, ["--uninstall"], environment)
        #expect(again.status == 1 && again.stderr.contains("nothing to uninstall"))
        let wrong = try Self.run(script, ["--prefx", "/tmp"], environment)
        #expect(wrong.status == 2 && wrong.stderr.contains("unknown argument \"--prefx\""))
    }

    /// Every path under `root` (folders marked with a slash), sorted, with the mimeapps.list's text.
    static func listing(_ root: URL) -> [String] {
        var paths: [String] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            let folder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            paths.append(String(url.path.dropFirst(root.path.count)) + (folder ? "/" : ""))
        }
        return paths.sorted()
    }

    @Test("install then uninstall leaves the home as it was: the folders that were there stay, the ones install made go, and the tilecast-ios: default it set is gone",
          .enabled(if: ["/usr/bin/gio", "/usr/bin/xdg-mime"].contains { FileManager.default.isExecutableFile(atPath: $0) }, "install sets the links default with xdg-mime or gio"))
    func uninstallIsExact() throws {
        let home = TemporaryHome()
        defer { home.remove() }
        var environment = home.environment
        environment["HOME"] = home.root.path
        let data = home.root.appendingPathComponent("data"), config = home.root.appendingPathComponent("config")
        // The person's own: an applications folder with an entry, and a default for another type.
        try FileManager.default.createDirectory(at: data.appendingPathComponent("applications"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("[Desktop Entry]\nType=Application\nName=Other\nExec=/bin/true\n".utf8).write(to: data.appendingPathComponent("applications/other.desktop"))
        let mimeapps = config.appendingPathComponent("mimeapps.list")
        let theirs = "[Default Applications]\ntext/plain=other.desktop\n"
        try Data(theirs.utf8).write(to: mimeapps)
        let before = Self.listing(home.root)

        let script = HostShellBinary.root.appendingPathComponent("scripts/install").path
        let installed = try Self.run(script, ["--binary", HostShellBinary.url.path], environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let set = try String(contentsOf: mimeapps, encoding: .utf8)
        #expect(set.contains("x-scheme-handler/tilecast-ios=hostshell-links.desktop"), "install made HostShell the links' handler: \(set)")
        #expect(Self.listing(home.root) != before)
        // Installing again (an update) keeps the record of what the first install made.
        #expect(try Self.run(script, ["--binary", HostShellBinary.url.path], environment).status == 0)

        let removed = try Self.run(script, ["--uninstall"], environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(Self.listing(home.root) == before, "the home is as it was before install")
        let after = try String(contentsOf: mimeapps, encoding: .utf8)
        #expect(!after.contains("tilecast-ios"), "the default install set is gone: \(after)")
        #expect(after == theirs, "the person's own defaults are untouched: \(after)")

        // A default the person chose since install is theirs: uninstall leaves it.
        #expect(try Self.run(script, ["--binary", HostShellBinary.url.path], environment).status == 0)
        var chosen = try String(contentsOf: mimeapps, encoding: .utf8)
        chosen = chosen.replacingOccurrences(of: "x-scheme-handler/tilecast-ios=hostshell-links.desktop\n", with: "x-scheme-handler/tilecast-ios=other.desktop\n")
        try Data(chosen.utf8).write(to: mimeapps)
        #expect(try Self.run(script, ["--uninstall"], environment).status == 0)
        #expect(try String(contentsOf: mimeapps, encoding: .utf8).contains("x-scheme-handler/tilecast-ios=other.desktop"))
    }

    static func checks(_ run: HostShellBinary.Run) throws -> [String: String] {
        let line = try #require(run.stdout.split(separator: "\n").last { $0.hasPrefix("{") })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let checks = try #require(report["checks"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: checks.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
    }

    @Test("doctor reports the test machine's display, bus and keyring, and says what is lacking without them")
    func doctor() throws {
        let here = try Self.run(HostShellBinary.url.path, ["doctor", "--json"], [:])
        let found = try Self.checks(here)
        #expect(found["display"] == "ok", "the tests run under Xvfb: \(here.stdout)")
        #expect(found["session-bus"] == "ok", "the tests run under dbus-run-session")
        #expect(found.keys.sorted() == ["display", "gpu", "media-aacparse", "media-avdec_aac", "media-avdec_h264", "media-h264parse", "media-hls",
                                        "media-hlsdemux", "media-tsdemux", "notifications", "screen-saver", "secret-service", "session-bus",
                                        "web-sandbox", "webdriver", "xvfb"])
        // scripts/install-deps installs what WebKit plays HLS, H.264 and AAC with; HostShell sets WebKit's HLS switch.
        for element in ["hlsdemux", "tsdemux", "h264parse", "avdec_h264", "aacparse", "avdec_aac", "hls"] {
            #expect(found["media-" + element] == "ok", "media-\(element): \(here.stdout)")
        }
        let noHLS = try Self.run(HostShellBinary.url.path, ["doctor"], ["WEBKIT_GST_ENABLE_HLS_SUPPORT": "0"])
        #expect(noHLS.stdout.contains("limited  media-hls") && noHLS.stdout.contains("unset WEBKIT_GST_ENABLE_HLS_SUPPORT"), "\(noHLS.stdout)")

        let bare = try Self.run(HostShellBinary.url.path, ["doctor"], ["DISPLAY": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(bare.status == 0, "Xvfb is there, so the app can still run headless")
        #expect(bare.stdout.contains("limited  display"))
        #expect(bare.stdout.contains("xvfb-run -a hostshell"))
        #expect(bare.stdout.contains("dbus-run-session --"))

        let nothing = try Self.run(HostShellBinary.url.path, ["doctor"], ["DISPLAY": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": "", "PATH": "/nonexistent"])
        #expect(nothing.status == 1)
        #expect(nothing.stdout.contains("MISSING  display"))
        #expect(nothing.stdout.contains("apt-get install xvfb"))

        let wrong = try HostShellBinary.run(["doctor", "--jsn"])
        #expect(wrong.status == 2 && wrong.stderr.contains("\"--jsn\""))
        let help = try HostShellBinary.run(["doctor", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--json"))
    }
}

/// examples/pytest: a suite sharded with pytest-xdist, one fleet per worker (a fresh app of it per
/// test, and Selenium sessions that are apps of it too: 11 tests) — on the shared
/// X server and bus the tests run under, and on "remote" workers that bring their own
/// (`--tx popen//python=examples/pytest/remote-python`, the same path an SSH worker takes).
@Suite("Many hosts: the pytest-xdist example", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")),
       .enabled(if: WebDriverTools.driver != nil && WebDriverTools.selenium,
                "its Selenium tests need WebKitWebDriver and python3-selenium (scripts/install-deps installs both)"))
struct ShardedSuiteTests {
    static func pytest(_ arguments: [String]) throws -> HostShellBinary.Run {
        let root = HostShellBinary.root.path
        return try InstallTests.run("/usr/bin/python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"] + arguments + [root + "/examples/pytest"],
                                    ["HOSTSHELL": HostShellBinary.url.path])
    }

    @Test("two workers on one display and bus, each with its own fleet")
    func sharedDisplay() throws {
        let run = try Self.pytest(["-n", "2"])
        #expect(run.status == 0, "\(run.stdout.suffix(3000))")
        #expect(run.stdout.contains("11 passed"), "\(run.stdout.suffix(500))")
    }

    @Test("two workers that start their own display and bus, as remote (SSH) workers do")
    func ownDisplays() throws {
        let remote = HostShellBinary.root.path + "/examples/pytest/remote-python"
        let run = try Self.pytest(["-d", "--tx", "2*popen//python=" + remote])
        #expect(run.status == 0, "\(run.stdout.suffix(3000))")
        #expect(run.stdout.contains("11 passed"), "\(run.stdout.suffix(500))")
    }
}
