import CGtk
import Glibc
import HostCore

/// Every download of the app, whatever page started it: WebKit's `download-started` on each
/// network session, the page's navigation guard asked whether a person asked for it (refused
/// downloads are cancelled before a byte is written, and recorded in `external`), the file
/// placed in the download folder under a new, safe name (`DownloadRules`), progress followed,
/// and its end reported to the app (`onEnded`: a notice with Open and Show in Folder).
@MainActor
package final class DownloadCenter {
    package private(set) var list = DownloadList()
    /// Where a refused download is recorded, and a finished one opened (the app's).
    private let handoff: DesktopHandoff
    private var attached = Set<UnsafeMutableRawPointer>()
    /// A download changed (progress, end): the downloads button and the state follow.
    package var onChanged: (() -> Void)?
    /// A download ended, with its item.
    package var onEnded: ((DownloadList.Item) -> Void)?

    /// One per app (`AppEnvironment`).
    init(handoff: DesktopHandoff) { self.handoff = handoff }

    /// The folder files go to now (`$XDG_DOWNLOAD_DIR`, the desktop's, or ~/Downloads).
    package var folder: String {
        DownloadRules.folder(environment: getenv("XDG_DOWNLOAD_DIR").map { String(cString: $0) },
                             desktop: g_get_user_special_dir(G_USER_DIRECTORY_DOWNLOAD).map { String(cString: $0) },
                             home: String(cString: g_get_home_dir()))
    }

    /// Follows the downloads of `session` (once per session).
    package func attach(_ session: NetworkSessionPointer) {
        let key = UnsafeMutableRawPointer(session)
        guard attached.insert(key).inserted else { return }
        onPointerSignal(key, "download-started") { [weak self] download in
            if let self, let download { self.started(OpaquePointer(download)) }
        }
    }

    private func started(_ download: OpaquePointer) {
        let url = webkit_download_get_request(download).flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
        let view = webkit_download_get_web_view(download).map { UnsafeMutableRawPointer($0) }
        let page = view.flatMap { WebPage.live[$0]?.page }
        let verdict = page.map { $0.navigation.decideDownload(url) }
            ?? NavigationPolicy.Verdict(.refuse, "a download from no page of this app")
        guard verdict.action == .load else {
            webkit_download_cancel(download)
            (page?.trust.handoff ?? handoff).carryOut(url, verdict)
            return
        }
        let id = list.started(url: url, file: "")
        // Each handler holds the download's id; the download holds the handlers until it goes.
        onDecideDestination(download) { [weak self] suggested in
            self?.place(download, id: id, suggested: suggested) ?? false
        }
        onNotify(UnsafeMutableRawPointer(download), "estimated-progress") { [weak self] in self?.progressed(download, id: id) }
        onPointerSignal(UnsafeMutableRawPointer(download), "failed") { [weak self] error in
            let failure = error.map { $0.assumingMemoryBound(to: GError.self) }
            let cancelled = failure?.pointee.code == Int32(WEBKIT_DOWNLOAD_ERROR_CANCELLED_BY_USER.rawValue)
            self?.end(id, cancelled ? .cancelled : .failed(failure.map { String(cString: $0.pointee.message) } ?? "unknown error"))
        }
        onSignal(UnsafeMutableRawPointer(download), "finished") { [weak self] in
            self?.progressed(download, id: id)
            self?.end(id, .finished)
        }
        onChanged?()
    }

    /// Where the file goes: the download folder (made if need be), a name new there.
    private func place(_ download: OpaquePointer, id: Int, suggested: String) -> Bool {
        let directory = folder
        guard g_mkdir_with_parents(directory, 0o755) == 0 else {
            webkit_download_cancel(download)
            end(id, .failed("cannot create \(directory): \(String(cString: strerror(errno)))"))
            return true
        }
        let name = DownloadRules.fileName(suggested: suggested, existing: Self.names(in: directory))
        let path = directory + "/" + name
        webkit_download_set_destination(download, path)
        list.placed(id, file: path)
        onChanged?()
        return true
    }

    private func progressed(_ download: OpaquePointer, id: Int) {
        let received = Int(webkit_download_get_received_data_length(download))
        let total = webkit_download_get_response(download).map { Int(webkit_uri_response_get_content_length($0)) } ?? -1
        list.progress(id, received: received, total: total)
        onChanged?()
    }

    private func end(_ id: Int, _ state: DownloadList.State) {
        guard list.item(id)?.state == .running else { return }
        list.ended(id, state)
        onChanged?()
        if let item = list.item(id) { onEnded?(item) }
    }

    /// The names in `directory` (for a new one).
    static func names(in directory: String) -> Set<String> { Set(DirectoryNames.of(directory)) }

    /// Opens a finished download with the desktop's application for it (`open`), or shows it
    /// in its folder (`show`); through the handoff, so it is recorded like every address.
    package func open(_ id: Int, choice: String) -> String? {
        guard let item = list.item(id) else { return "no download \(id)" }
        guard item.state == .finished else { return "download \(id) is \(item.state.name), not finished" }
        let target = choice == "show" ? (takeGString(g_path_get_dirname(item.file)) ?? "/") : item.file
        guard let uri = takeGString(g_filename_to_uri(target, nil, nil)) else { return "\(target) has no file address" }
        handoff.open(uri, reason: choice == "show" ? "a person asked to see a download in its folder" : "a person opened a download")
        return nil
    }
}
