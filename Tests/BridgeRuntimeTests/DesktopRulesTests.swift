import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Desktop conventions: app actions, remembered window size, error screens")
struct DesktopRulesTests {
    @Test("every action has a title and a section; no key is bound twice; the menu and shortcuts come from the table")
    func actionsTable() {
        let keys = AppAction.allCases.flatMap(\.accelerators)
        #expect(Set(keys).count == keys.count, "a key bound twice: \(keys)")
        for required in ["<Control>q", "<Control>w", "<Control>r", "F5", "<Control>n", "<Control>question"] {
            #expect(keys.contains(required), "\(required)")
        }
        #expect(AppAction.primaryMenu.flatMap { $0 } == [.newWindow, .shortcuts, .about])
        let listed = AppAction.shortcutSections.flatMap(\.actions)
        #expect(Set(listed) == Set(AppAction.allCases.filter { !$0.accelerators.isEmpty }))
        #expect(AppAction.shortcutSections.map(\.title) == ["General", "Navigation"])
        #expect(AppAction.available(kiosk: true).isEmpty && AppAction.available(kiosk: false) == AppAction.allCases)
        #expect(AppAction(rawValue: "close-window") == .closeWindow && AppAction.names.contains("about"))
    }

    @Test("a remembered size is used unless a device was asked for; a damaged or absurd file is ignored")
    func rememberedSize() {
        let saved = RememberedWindowSize(width: 900, height: 700, maximized: true)
        #expect(RememberedWindowSize.parse(saved.fileText) == saved)
        #expect(RememberedWindowSize.starting(remembered: saved, device: .desktop, deviceAsked: false) == saved)
        #expect(RememberedWindowSize.starting(remembered: saved, device: .phone, deviceAsked: true) == RememberedWindowSize(width: 390, height: 844))
        #expect(RememberedWindowSize.starting(remembered: nil, device: .desktop, deviceAsked: false) == RememberedWindowSize(width: 1280, height: 800))
        for bad in ["", "{", "[]", #"{"width":0,"height":700}"#, #"{"width":900,"height":99999}"#, #"{"width":"900","height":700}"#, #"{"width":900.5,"height":700}"#] {
            #expect(RememberedWindowSize.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("over an error screen the chrome selects nothing and has no back bar; over the page it is as the page said")
    func errorScreenSelection() {
        let chrome = NativeChrome(layout: .none, selectedDestinationId: "media", backBar: BackBar(title: "Lobby", backLabel: "Screens"))
        let error = Screen.error(ScreenError(.unreachable, title: "t", detail: "d", icon: "network-offline-symbolic"))
        #expect(chrome.shown(over: error).selectedDestinationId == nil && chrome.shown(over: error).backBar == nil)
        #expect(chrome.shown(over: .page) == chrome && chrome.shown(over: .loading("…")) == chrome)
    }

    @Test("ctl action NAME: a request with the action's name")
    func actionRequest() throws {
        let line = try ControlRequest.line(fromArguments: ["action", "about"])
        #expect(try ControlRequest.decode(line).get().command == .action(name: "about"))
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["action"]) }
    }
}

@Suite("Windows and downloads: what opens a window, what may download, where files go")
struct DownloadRulesTests {
    static let context = NavigationPolicy.Context(serverOrigin: Origin(url: "http://127.0.0.1:8080")!, handsOut: true)

    @Test("a person's new window on the server's origin opens a window of the app; elsewhere the browser; without a gesture nothing")
    func newWindows() {
        typealias R = NavigationPolicy.Request
        #expect(NavigationPolicy.decide(R(stage: .newWindow, url: "http://127.0.0.1:8080/screens", userGesture: true), context: Self.context).action == .openWindow)
        #expect(NavigationPolicy.decide(R(stage: .newWindow, url: "http://127.0.0.1:8080/screens"), context: Self.context).action == .refuse)
        #expect(NavigationPolicy.decide(R(stage: .newWindow, url: "https://example.org/", userGesture: true), context: Self.context).action == .openExternally)
        let kiosk = NavigationPolicy.Context(serverOrigin: Self.context.serverOrigin, handsOut: false)
        #expect(NavigationPolicy.decide(R(stage: .newWindow, url: "http://127.0.0.1:8080/screens", userGesture: true), context: kiosk).action == .refuse)
    }

    @Test("a download is kept only when a person's activation asked for it, once")
    func downloadsNeedAPerson() {
        var guard_ = NavigationGuard(Self.context)
        #expect(guard_.decideDownload("http://127.0.0.1:8080/file.bin").action == .refuse)
        _ = guard_.decide(.init(stage: .action, url: "http://127.0.0.1:8080/file.bin", userGesture: true, trigger: .linkClicked))
        #expect(guard_.decideDownload("http://127.0.0.1:8080/file.bin").action == .load)
        #expect(guard_.decideDownload("http://127.0.0.1:8080/file.bin").action == .refuse, "used up")
        // An attachment the main frame was let through to.
        _ = guard_.decide(.init(stage: .action, url: "http://127.0.0.1:8080/report", userGesture: true, trigger: .linkClicked))
        #expect(guard_.decide(.init(stage: .response(mainFrame: true, canShow: false), url: "http://127.0.0.1:8080/report")).action == .load)
        #expect(guard_.decideDownload("http://127.0.0.1:8080/report").action == .load)
        var kiosk = NavigationGuard(NavigationPolicy.Context(serverOrigin: Self.context.serverOrigin, handsOut: false))
        _ = kiosk.decide(.init(stage: .action, url: "blob:http://127.0.0.1:8080/x", userGesture: true, trigger: .linkClicked))
        #expect(kiosk.decideDownload("blob:http://127.0.0.1:8080/x").action == .refuse)
    }

    @Test("the folder: $XDG_DOWNLOAD_DIR, else the desktop's, else ~/Downloads")
    func folder() {
        #expect(DownloadRules.folder(environment: "/dl/d/", desktop: "/u/a/Téléchargements", home: "/u/a") == "/dl/d")
        #expect(DownloadRules.folder(environment: "relative", desktop: "/u/a/Téléchargements", home: "/u/a") == "/u/a/Téléchargements")
        #expect(DownloadRules.folder(environment: nil, desktop: "/u/a", home: "/u/a/") == "/u/a/Downloads", "GLib's fallback is home itself")
        #expect(DownloadRules.folder(environment: nil, desktop: nil, home: "/u/a") == "/u/a/Downloads")
    }

    @Test("file names: the last component, nothing hidden or hostile, short, and new in the folder")
    func fileNames() {
        #expect(DownloadRules.fileName(suggested: "report.txt", existing: []) == "report.txt")
        #expect(DownloadRules.fileName(suggested: "report.txt", existing: ["report.txt", "report (2).txt"]) == "report (3).txt")
        #expect(DownloadRules.fileName(suggested: "../../etc/passwd", existing: []) == "passwd")
        #expect(DownloadRules.fileName(suggested: ".bashrc", existing: []) == "bashrc")
        #expect(DownloadRules.fileName(suggested: "a\u{202E}txt.exe", existing: []) == "atxt.exe")
        #expect(DownloadRules.fileName(suggested: "x\u{1B}[31m.txt", existing: []) == "x[31m.txt")
        #expect(DownloadRules.fileName(suggested: "", existing: []) == "download")
        #expect(DownloadRules.fileName(suggested: "..", existing: ["download"]) == "download (2)")
        let long = DownloadRules.fileName(suggested: String(repeating: "é", count: 300) + ".pdf", existing: [])
        #expect(long.utf8.count <= DownloadRules.maxNameBytes && long.hasSuffix(".pdf"))
        #expect(DownloadRules.isAttachment("attachment; filename=\"a.txt\"") && DownloadRules.isAttachment(" Attachment ")
                && !DownloadRules.isAttachment("inline") && !DownloadRules.isAttachment(nil) && !DownloadRules.isAttachment("attachmentx"))
    }

    @Test("the list: progress, the first end counts, finished ones are dropped past the limit, running ones kept")
    func list() {
        var list = DownloadList()
        let a = list.started(url: "http://x/a", file: "")
        list.placed(a, file: "/d/a")
        list.progress(a, received: 50, total: 100)
        #expect(list.json.arrayValue?.first?.objectValue?["progress"] == .number(0.5))
        list.ended(a, .cancelled)
        list.ended(a, .failed("late"))
        #expect(list.item(a)?.state == .cancelled)
        #expect(DownloadList.notice(list.item(a)!) == "The download of a was cancelled")
        let running = list.started(url: "http://x/r", file: "/d/r")
        for n in 0..<30 { let id = list.started(url: "http://x/\(n)", file: "/d/\(n)"); list.ended(id, .finished) }
        #expect(list.items.count == DownloadList.kept && list.item(running)?.state == .running)
    }
}
