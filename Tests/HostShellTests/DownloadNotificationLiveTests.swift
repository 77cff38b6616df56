import Foundation
import Testing

/// Issue 16 item 2's notification, with a notification server there: a download that ends
/// while no window of the app is active reaches the desktop through the app's own GApplication,
/// and clicking it (or its Show in Folder button) opens the file (or its folder).
@Suite("Download notifications on a desktop (real WebKit, a notification server of the test's own)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"),
                "needs a display and dbus-daemon: scripts/test runs these under Xvfb"),
       .serialized)
struct DownloadNotificationLiveTests {
    @Test("Download finished reaches the notification server with Open and Show in Folder; clicking them opens the file and its folder")
    func desktopNotification() throws {
        let notifications = try NotificationServerStandIn()
        let home = TemporaryHome()
        let server = try ReferenceServer()
        defer { server.stop(); home.remove(); notifications.stop() }
        let folder = home.root.appendingPathComponent("Downloads")
        let app = try Self.downloadWhileInactive(home: home, server: server, notifications: notifications, folder: folder.path)
        defer { app.stop() }
        var state = try app.state("downloads.items.0.state=\"finished\"", "downloads.notifications.0.desktop=true", timeout: 60)
        let id = try #require(((state["downloads"] as? [String: Any])?["items"] as? [[String: Any]])?.first?["id"] as? Int)

        // What the server was asked to show: the title, the file's name, the click and the button.
        let shown = try #require(notifications.shown.first)
        #expect(notifications.shown.count == 1)
        #expect(shown.summary == "Download finished" && shown.body == "payload.bin")
        #expect(shown.actions.count == 4 && shown.actions.first == "default" && shown.actions.last == "Show in Folder", "\(shown.actions)")
        let button = try #require(shown.actions.count == 4 ? shown.actions[2] : nil)
        #expect(button.contains("download-show") && button.contains("\(id)"), "\(button)")

        // A person clicks its button: the folder is shown. (A click closes a notification.)
        try notifications.invoke(shown.id, key: button)
        _ = try app.state("external.opened.0.reason=\"a person asked to see a download in its folder\"")

        // The next one clicked: the file opens.
        #expect(try app.ctl("eval", "document.getElementById('attachment').click(); true").status == 0)
        state = try app.state("downloads.items.1.state=\"finished\"", "downloads.notifications.1.desktop=true", timeout: 60)
        let second = try #require(notifications.shown.count == 2 ? notifications.shown[1] : nil)
        #expect(second.summary == "Download finished" && second.body == "report.txt" && second.id != shown.id)
        try notifications.invoke(second.id, key: "default")
        let external = try app.state("external.opened.1.reason=\"a person opened a download\"")
        let opened = ((external["external"] as? [String: Any])?["opened"] as? [[String: Any]])?.compactMap { $0["url"] as? String } ?? []
        #expect(opened == ["file://" + folder.path, "file://" + folder.path + "/report.txt"], "\(opened)")
    }

    @Test("Download failed reaches the server with the reason and no actions (a download folder that cannot be made)")
    func failedNotification() throws {
        let notifications = try NotificationServerStandIn()
        let home = TemporaryHome()
        let server = try ReferenceServer()
        defer { server.stop(); home.remove(); notifications.stop() }
        let app = try Self.downloadWhileInactive(home: home, server: server, notifications: notifications, folder: "/dev/null/Downloads")
        defer { app.stop() }
        let state = try app.state("downloads.items.0.state=\"failed\"", "downloads.notifications.0.title=\"Download failed\"", timeout: 60)
        let recorded = try #require(((state["downloads"] as? [String: Any])?["notifications"] as? [[String: Any]])?.first)
        #expect(recorded["desktop"] as? Bool == true && recorded["actions"] as? [String] == [])
        let shown = try #require(notifications.shown.first)
        #expect(notifications.shown.count == 1)
        #expect(shown.summary == "Download failed" && shown.body.hasPrefix("download 1: cannot create /dev/null/Downloads"), "\(shown.body)")
        #expect(shown.actions.isEmpty, "\(shown.actions)")
    }

    /// The app on the test's bus (the stand-in notification server), on the downloads test page,
    /// its windows counted inactive, after a person clicked the download link.
    static func downloadWhileInactive(home: TemporaryHome, server: ReferenceServer, notifications: NotificationServerStandIn,
                                      folder: String) throws -> RunningApp {
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        // The file store: scripts/test's keyring lives on the other bus, and the app would wait for it.
        let app = try RunningApp(home: home, arguments: ["--allow-eval", "--credential-store", "file"],
                                 environment: ["XDG_DOWNLOAD_DIR": folder, "DBUS_SESSION_BUS_ADDRESS": notifications.address])
        _ = try app.state("screen=page", "negotiated=true")
        #expect(try app.ctl("eval", "location.href = '/__test/windows.html'; true").status == 0)
        _ = try app.evalWhen("document.getElementById('blob')?.href.startsWith('blob:')")
        #expect(try app.ctl("lifecycle", "blur").status == 0)
        #expect(try app.ctl("eval", "document.getElementById('download').click(); true").status == 0)
        return app
    }
}
