import BridgeRuntime
import CGtk
import Glibc

/// Native media intake: Studio asks (`system/media-intake`), the person picks files (or the
/// control interface supplies them), the uploader sends them with the app's credential while
/// the panel shows progress and Cancel, and Studio hears `system/media-intake-completed`.
extension OpenSession {
    func connectUploads() {
        page.onMediaIntake = { [weak self] request in self?.startIntake(request) }
        view.uploads.onCancel = { [weak self] in self?.uploader?.cancel() }
    }

    private func startIntake(_ request: MediaIntakeRequest) {
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
        var files: [Uploader.File] = []
        var refused = 0
        for path in paths.prefix(request.multiple ? 1000 : 1) {
            var info = stat()
            let name = String(path.split(separator: "/").last ?? "file")
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                printError("hostshell: \(path) cannot be uploaded: it is not a readable file")
                refused += 1
                continue
            }
            guard let type = UploadProtocol.mimeType(forFileName: name, kinds: request.kinds) else {
                printError("hostshell: \(name) is not \(request.kinds.map { "an \($0.rawValue)" }.joined(separator: " or ")); it is skipped")
                refused += 1
                continue
            }
            files.append(Uploader.File(path: path, name: name, size: Int(info.st_size), mimeType: type))
        }
        guard !files.isEmpty else {
            let outcome: MediaIntakeOutcome = paths.isEmpty ? .cancelled : .failed
            page.finishMediaIntake(request.requestId, outcome: outcome, uploadedCount: 0)
            return
        }
        let uploader = Uploader(origin: record.address.origin, auth: auth, files: files)
        self.uploader = uploader
        view.uploads.show("Preparing \(files.count) file\(files.count == 1 ? "" : "s")…")
        uploader.onProgress = { [weak self] progress in self?.view.uploads.update(progress) }
        uploader.onDone = { [weak self] result in
            guard let self else { return }
            self.uploader = nil
            self.view.uploads.hide()
            let outcome = UploadProtocol.outcome(uploaded: result.uploaded, failed: result.failed.count + refused, cancelled: result.cancelled)
            if let first = result.failed.first {
                let others = result.failed.count > 1 ? " (and \(result.failed.count - 1) more)" : ""
                self.onNotice?("\(first.name) was not uploaded: \(first.problem)\(others).")
            } else if result.cancelled {
                self.onNotice?("Upload cancelled.")
            }
            self.page.finishMediaIntake(request.requestId, outcome: outcome, uploadedCount: result.uploaded)
            self.onScreenChanged?()
        }
        uploader.start()
        onScreenChanged?()
    }

    /// For state dumps: the intake in progress.
    var uploadsJSON: JSONValue {
        ["active": .bool(uploader != nil), "choosing": .bool(fileChooser != nil),
         "progress": view.uploads.isShown ? .string(view.uploads.text) : .null]
    }
}
