import CGtk
import Glibc
import HostCore
import ShellKit
import StudioContract

/// Native media intake: Studio asks (`system/media-intake`), the person picks files (or the
/// control interface supplies them), the uploader sends them with the app's credential while
/// the panel shows progress and Cancel, and Studio hears `system/media-intake-completed`.
extension OpenSession {
    func connectUploads() {
        view.uploads.onCancel = { [weak self] in self?.uploader?.cancel() }
    }

    func startIntake(_ request: MediaIntakeRequest) {
        let chosen: @MainActor ([String]?) -> Void = { [weak self] paths in
            self?.fileChooser = nil
            self?.upload(paths ?? [], for: request)
        }
        if let paths = pendingPick {
            pendingPick = nil
            chosen(paths)
            return
        }
        let parent = windowOf(view.widget)
        fileChooser = FileChooser(title: "Upload to \(record.name)", parent: parent, kinds: request.kinds,
                                  multiple: request.multiple, done: chosen)
    }

    /// The control interface's `pick-files`: answers the open chooser, or the next request.
    func pickFiles(_ paths: [String]) {
        if let chooser = fileChooser {
            chooser.close(with: paths)
        } else {
            pendingPick = paths
        }
    }

    private func upload(_ paths: [String], for request: MediaIntakeRequest) {
        let selection = IntakeSelection(paths, for: request) { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
        }
        for refusal in selection.refusals { printError("hostshell: \(refusal)") }
        guard !selection.picks.isEmpty else {
            page.finishMediaIntake(request.requestId, outcome: selection.outcomeWithoutFiles, uploadedCount: 0)
            return
        }
        let files = selection.picks.map { Uploader.File(path: $0.path, name: $0.file.name, size: $0.file.size, mimeType: $0.file.mimeType) }
        let uploader = Uploader(origin: record.address.origin, auth: auth, files: files, refused: selection.refusals.count)
        self.uploader = uploader
        view.uploads.show(UploadProgress.preparing(fileCount: files.count))
        uploader.onProgress = { [weak self] progress in self?.view.uploads.update(progress) }
        uploader.onDone = { [weak self] summary in
            guard let self else { return }
            self.uploader = nil
            self.view.uploads.finish(summary)
            if let notice = summary.notice { self.onNotice?(notice) }
            self.page.finishMediaIntake(request.requestId, outcome: summary.outcome, uploadedCount: summary.uploaded)
            self.onScreenChanged?()
        }
        uploader.start()
        onScreenChanged?()
    }

    /// For state dumps: the intake in progress (its batch: file, bytes, what it waits for) and
    /// how the last one ended.
    var uploadsJSON: JSONValue {
        ["active": .bool(uploader != nil), "choosing": .bool(fileChooser != nil),
         "progress": view.uploads.isShown ? .string(view.uploads.text) : .null,
         "batch": uploader?.stateJSON ?? .null, "last": view.uploads.last?.json ?? .null]
    }
}
