import Foundation
import Testing

/// New windows and downloads, past the phone app's limits (issue 16 item 2), in the real app:
/// a page of the server a person opens in a new window opens a window of the app on the same
/// session; Ctrl+N opens another, Ctrl+W closes it; what a person downloads lands in the
/// download folder, with progress and a notice, and Open and Show in Folder hand it out.
@Suite("Windows and downloads (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct WindowsAndDownloadsTests {
    @Test("target=_blank and window.open on the server's origin open app windows on the same session; Ctrl+N and Ctrl+W; downloads land in the folder")
    func windowsAndDownloads() throws {
        let home = TemporaryHome()
        let server = try ReferenceServer()
        defer { server.stop(); home.remove() }
        let folder = home.root.appendingPathComponent("Downloaded files")
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval"], environment: ["XDG_DOWNLOAD_DIR": folder.path])
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true", "windows.0.id=1", "windows.1=null",
                          "downloads.folder=\"\(folder.path)\"", "downloads.items=[]")

        // Ctrl+N: a second window on the same server; Ctrl+W in it closes only it.
        #expect(try app.ctl("action", "new-window").status == 0)
        _ = try app.state("windows.1.id=2", "windows.1.screen=\"page\"", "windows.1.server=\"reference-studio\"")
        #expect(try app.ctl("action", "close-window", "--window", "2").status == 0)
        _ = try app.state("windows.1=null", "screen=page")

        // A person's target=_blank link and window.open to pages of the server: windows of the app.
        #expect(try app.ctl("eval", "location.href = '/__test/windows.html'; true").status == 0)
        _ = try app.evalWhen("document.getElementById('blob')?.href.startsWith('blob:')")
        #expect(try app.ctl("eval", "document.getElementById('blank').click(); true").status == 0)
        _ = try app.state("windows.1.id=3", "windows.1.url=\"\(server.url)/screens\"", "windows.1.screen=\"page\"", timeout: 60)
        #expect(try app.ctl("eval", "document.getElementById('open').click(); true").status == 0)
        _ = try app.state("windows.2.id=4", "windows.2.url=\"\(server.url)/playlists\"", timeout: 60)
        #expect(try app.ctl("eval", "location.pathname").result as? String == "/__test/windows.html", "the first window stayed")
        // Issue 29 item 5: one click whose handler opens twenty windows opens one.
        #expect(try app.ctl("eval", "document.getElementById('flood').click(); true").status == 0)
        _ = try app.state("windows.3.id=5", "windows.3.url=\"\(server.url)/screens?flood=0\"",
                          "external.refused.18.reason=\"one new window per activation: this one has opened its window\"", timeout: 60)
        _ = try app.state("windows.4=null", "external.refused.19=null")
        #expect(try app.ctl("action", "close-window", "--window", "5").status == 0)
        _ = try app.state("windows.3=null")
        var state = try app.state("external.opened=[]")
        #expect(((state["external"] as? [String: Any])?["refused"] as? [Any])?.count == 19, "only the flood's nineteen were refused")

        // Downloads a person asked for: a download link, an attachment, a blob.
        for id in ["download", "attachment", "blob"] {
            #expect(try app.ctl("eval", "document.getElementById('\(id)').click(); true").status == 0)
        }
        state = try app.state("downloads.items.0.state=\"finished\"", "downloads.items.1.state=\"finished\"",
                              "downloads.items.2.state=\"finished\"", timeout: 60)
        let items = try #require((state["downloads"] as? [String: Any])?["items"] as? [[String: Any]])
        let files = Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["url"] as? String).map { ($0, item) } })
        let payload = try Data(contentsOf: HostShellBinary.root.appendingPathComponent("fixtures/studio/__test/payload.bin"))
        let saved = try #require(files["\(server.url)/__test/payload.bin"])
        #expect(saved["file"] as? String == folder.appendingPathComponent("payload.bin").path)
        #expect(try Data(contentsOf: folder.appendingPathComponent("payload.bin")) == payload)
        #expect(saved["received"] as? Int == payload.count && saved["progress"] as? Double == 1)
        #expect(try String(contentsOf: folder.appendingPathComponent("report.txt"), encoding: .utf8) == "the report\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "hello from a blob\n")
        let notices = (state["downloads"] as? [String: Any])?["notices"] as? [String] ?? []
        #expect(notices.contains("payload.bin downloaded") && notices.contains("notes.txt downloaded"), "\(notices)")

        // The same file again gets a new name; Open and Show in Folder hand the file and its folder out.
        #expect(try app.ctl("eval", "document.getElementById('download').click(); true").status == 0)
        _ = try app.state("downloads.items.3.state=\"finished\"", "downloads.items.3.file=\"\(folder.path)/payload (2).bin\"", timeout: 60)
        let id = try #require(saved["id"] as? Int)
        #expect(try app.ctl("download", String(id), "open").status == 0)
        #expect(try app.ctl("download", String(id), "show").status == 0)
        let external = try app.state("external.opened.1.reason=\"a person asked to see a download in its folder\"")
        let opened = ((external["external"] as? [String: Any])?["opened"] as? [[String: Any]])?.compactMap { $0["url"] as? String } ?? []
        #expect(opened == ["file://" + folder.path.replacingOccurrences(of: " ", with: "%20") + "/payload.bin",
                           "file://" + folder.path.replacingOccurrences(of: " ", with: "%20")], "\(opened)")
        let unknown = try app.ctl("download", "99", "open")
        #expect(unknown.status == 1 && unknown.error.contains("no download 99"))
    }

    @Test("a download that ends while no window of the app is active gets the desktop's notification (recorded when there is no server); while one is, the toast alone")
    func downloadNotifications() throws {
        let home = TemporaryHome()
        let server = try ReferenceServer()
        defer { server.stop(); home.remove() }
        let folder = home.root.appendingPathComponent("Downloads here")
        #expect(try HostShellBinary.run(["server", "add", server.url, "--allow-http"], environment: home.environment).status == 0)
        let app = try RunningApp(home: home, arguments: ["--allow-eval"], environment: ["XDG_DOWNLOAD_DIR": folder.path])
        defer { app.stop() }
        _ = try app.state("screen=page", "negotiated=true", "downloads.notifications=[]")
        #expect(try app.ctl("eval", "location.href = '/__test/windows.html'; true").status == 0)
        _ = try app.evalWhen("document.getElementById('blob')?.href.startsWith('blob:')")

        // The window active (as `ctl lifecycle focus` says): the toast and the notice, no notification.
        let focus = try app.ctl("lifecycle", "focus")
        #expect(focus.status == 0, "\(focus.error)")
        #expect(try app.ctl("eval", "document.getElementById('download').click(); true").status == 0)
        var state = try app.state("downloads.items.0.state=\"finished\"", timeout: 60)
        var downloads = try #require(state["downloads"] as? [String: Any])
        #expect((downloads["notifications"] as? [Any])?.isEmpty == true, "\(downloads["notifications"] ?? "none")")
        #expect((downloads["notices"] as? [String])?.contains("payload.bin downloaded") == true)

        // No window active: Download finished, the file's name, Open and Show in Folder; recorded,
        // as this test's private session bus has no notification server.
        #expect(try app.ctl("lifecycle", "blur").status == 0)
        #expect(try app.ctl("eval", "document.getElementById('attachment').click(); true").status == 0)
        state = try app.state("downloads.items.1.state=\"finished\"", "downloads.notifications.0.title=\"Download finished\"", timeout: 60)
        downloads = try #require(state["downloads"] as? [String: Any])
        let notifications = try #require(downloads["notifications"] as? [[String: Any]])
        let items = try #require(downloads["items"] as? [[String: Any]])
        let id = try #require(items[1]["id"] as? Int)
        #expect(notifications.count == 1)
        #expect(notifications.first?["id"] as? String == "download-\(id)" && notifications.first?["body"] as? String == "report.txt")
        #expect(notifications.first?["desktop"] as? Bool == false)
        #expect(notifications.first?["actions"] as? [String] == ["app.download-open", "app.download-show"])
        #expect((downloads["notices"] as? [String])?.contains("report.txt downloaded") == true, "the toast is shown as well")

        // Focus again: the next one is the toast's alone. A Capacitor app's lifecycle words are refused, named.
        #expect(try app.ctl("lifecycle", "focus").status == 0)
        #expect(try app.ctl("eval", "document.getElementById('blob').click(); true").status == 0)
        state = try app.state("downloads.items.2.state=\"finished\"", timeout: 60)
        #expect(((state["downloads"] as? [String: Any])?["notifications"] as? [Any])?.count == 1)
        let background = try app.ctl("lifecycle", "background")
        #expect(background.status == 1 && background.error.contains("blur or focus"), "\(background.error)")
    }
}
