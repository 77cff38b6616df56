import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Download notifications: the desktop's only when no window of the app is active")
struct DownloadNotificationTests {
    /// A list with one download that ended as `state`, saved as `file`.
    private func ended(_ state: DownloadList.State, file: String = "/u/a/Downloads/report.pdf") -> DownloadList.Item {
        var list = DownloadList()
        _ = list.started(url: "http://127.0.0.1:8080/a", file: "")
        let id = list.started(url: "http://127.0.0.1:8080/report", file: "")
        list.placed(id, file: file)
        list.progress(id, received: 10, total: 10)
        list.ended(id, state)
        return list.item(id)!
    }

    @Test("a finished download while the app is inactive: Download finished, its file name, Open and Show in Folder")
    func finishedInactive() {
        let note = DownloadNotification.forEnded(ended(.finished), appActive: false, server: true)
        #expect(note?.id == "download-2" && note?.downloadId == 2 && note?.title == "Download finished")
        #expect(note?.body == "report.pdf" && note?.actions == true && note?.desktop == true)
        #expect(note?.json == ["id": "download-2", "download": 2, "title": "Download finished", "body": "report.pdf",
                               "actions": ["app.download-open", "app.download-show"], "desktop": true])
    }

    @Test("with no notification server it is recorded, not sent (desktop: false)")
    func noServer() {
        let note = DownloadNotification.forEnded(ended(.finished), appActive: false, server: false)
        #expect(note?.desktop == false && note?.title == "Download finished")
        #expect(note?.json.objectValue?["desktop"] == .bool(false))
    }

    @Test("while a window of the app is active the toast is enough: no notification, whatever the server")
    func active() {
        for server in [true, false] {
            #expect(DownloadNotification.forEnded(ended(.finished), appActive: true, server: server) == nil)
            #expect(DownloadNotification.forEnded(ended(.failed("disk full")), appActive: true, server: server) == nil)
        }
    }

    @Test("a failed download: Download failed with the reason, no actions; a cancelled one: none")
    func failedAndCancelled() {
        let failed = DownloadNotification.forEnded(ended(.failed("No space left on device")), appActive: false, server: true)
        #expect(failed?.title == "Download failed" && failed?.body == "report.pdf: No space left on device")
        #expect(failed?.actions == false && failed?.json.objectValue?["actions"] == .array([]))
        #expect(DownloadNotification.forEnded(ended(.cancelled), appActive: false, server: true) == nil)
        var list = DownloadList()
        let running = list.started(url: "http://127.0.0.1:8080/x", file: "")
        #expect(DownloadNotification.forEnded(list.item(running)!, appActive: false, server: true) == nil)
    }

    @Test("a failure before a file was chosen names the download; control characters in names and reasons are escaped")
    func namesAndEscapes() {
        let unnamed = DownloadNotification.forEnded(ended(.failed("cannot create /x"), file: ""), appActive: false, server: false)
        #expect(unnamed?.body == "download 2: cannot create /x")
        let escaped = DownloadNotification.forEnded(ended(.failed("bad\nline"), file: "/d/a\u{1B}b.txt"), appActive: false, server: false)
        #expect(escaped?.body.contains("\n") == false && escaped?.body.contains("\u{1B}") == false)
    }

    @Test("ctl lifecycle blur|focus overrides what the windows say; without it the windows decide")
    func activity() {
        #expect(DownloadNotification.appActive(windowActive: true, override: nil))
        #expect(!DownloadNotification.appActive(windowActive: false, override: nil))
        #expect(!DownloadNotification.appActive(windowActive: true, override: false))
        #expect(DownloadNotification.appActive(windowActive: false, override: true))
    }

    @Test("the actions' names map to DownloadCenter's choices")
    func choices() {
        #expect(DownloadNotification.choice(forAction: "download-open") == "open")
        #expect(DownloadNotification.choice(forAction: "download-show") == "show")
        #expect(DownloadNotification.choice(forAction: "push-open") == nil)
    }
}
