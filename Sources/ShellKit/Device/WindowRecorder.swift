import CGtk
import HostCore

/// A screen recording of the app's window (`ctl record start|stop`): GStreamer's gst-launch-1.0
/// capturing the window by its X id into a WebM (VP8) or MP4 (H.264) file. Stopping interrupts
/// it (SIGINT; `-e` turns that into an end of stream) and waits for it to finish the file, so the
/// file is whole when `stop` answers.
@MainActor
package final class WindowRecorder {
    package let file: String
    package let since: Double
    private let process: OpaquePointer
    /// Told once, when the recording ended: nil when the file was finished, else why not.
    private var onEnd: [@MainActor (String?) -> Void] = []
    private(set) var ended = false
    private var stopping = false

    /// Starts recording `window` into `path`, or says why it cannot.
    package static func start(_ window: WidgetPointer, into path: String, ended: @escaping @MainActor (String?) -> Void)
        -> Result<WindowRecorder, ControlError> {
        guard let container = ScreenRecording.container(path) else { return .failure(ControlError(ScreenRecording.fileProblem(path) ?? path)) }
        let xid = cgtk_window_xid(window)
        guard xid != 0 else {
            return .failure(ControlError("recording captures the window through X11, and this window is not on X11 (not shown yet, or on Wayland: start the app with GDK_BACKEND=x11)"))
        }
        var missing = ScreenRecording.elements(container).filter { !elementExists($0) }
        if g_find_program_in_path("gst-launch-1.0").map({ g_free($0); return true }) != true { missing.insert("gst-launch-1.0", at: 0) }
        guard missing.isEmpty else { return .failure(ControlError(ScreenRecording.missingMessage(missing))) }
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        cgtk_window_content_rect(window, &x, &y, &width, &height)
        let arguments = ["gst-launch-1.0"] + ScreenRecording.launchArguments(xid: UInt(xid), path: path, container: container,
                                                                             area: (Int(x), Int(y), Int(width), Int(height)))
        var error: UnsafeMutablePointer<GError>?
        let process = withCStrings(arguments) { g_subprocess_newv(constant($0), G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error) }
        guard let process else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            return .failure(ControlError("could not start gst-launch-1.0: \(message)"))
        }
        let recorder = WindowRecorder(file: path, process: process)
        recorder.onEnd.append(ended)
        recorder.watch()
        return .success(recorder)
    }

    private init(file: String, process: OpaquePointer) {
        self.file = file
        self.process = process
        since = wallClockSeconds()
    }

    /// Ends the recording; `done` once the file is finished (nil) or with why it is not.
    package func stop(_ done: @escaping @MainActor (String?) -> Void) {
        guard !ended else { return done(nil) }
        onEnd.append(done)
        guard !stopping else { return }
        stopping = true
        g_subprocess_send_signal(process, SIGINT)
        // A pipeline that does not finish within 20 s is ended; its file is then not whole.
        MainLoop.after(milliseconds: 20_000) { [weak self] in
            guard let self, !self.ended else { return }
            g_subprocess_force_exit(self.process)
        }
    }

    /// Ends the recording before the app exits, waiting for the file to be finished.
    package func finishNow() {
        guard !ended else { return }
        if !stopping { g_subprocess_send_signal(process, SIGINT) }
        g_subprocess_wait(process, nil, nil)
        end(nil)
    }

    private func watch() {
        g_subprocess_wait_async(process, nil, AsyncReply.callback, AsyncReply.data { [weak self] _, result in
            guard let self, !self.ended else { return }
            var error: UnsafeMutablePointer<GError>?
            _ = g_subprocess_wait_finish(self.process, result, &error)
            g_clear_error(&error)
            let clean = g_subprocess_get_if_exited(self.process) != 0 && g_subprocess_get_exit_status(self.process) == 0
            self.end(clean && self.stopping ? nil : "gst-launch-1.0 stopped on its own (exit \(g_subprocess_get_if_exited(self.process) != 0 ? String(g_subprocess_get_exit_status(self.process)) : "by a signal")): the window may have closed or the pipeline failed; see the app's standard error")
        })
    }

    private func end(_ problem: String?) {
        guard !ended else { return }
        ended = true
        let told = onEnd
        onEnd = []
        for body in told { body(problem) }
        g_object_unref(UnsafeMutableRawPointer(process))
    }

    /// Whether GStreamer has `element` (gst-inspect-1.0 --exists).
    private static func elementExists(_ element: String) -> Bool {
        if element == "filesink" { return true }  // core GStreamer, always there with the tools
        var status: Int32 = 0
        let ran = withCStrings(["gst-inspect-1.0", "--exists", element]) {
            g_spawn_sync(nil, $0, nil, G_SPAWN_SEARCH_PATH, nil, nil, nil, nil, &status, nil)
        }
        return ran != 0 && g_spawn_check_wait_status(status, nil) != 0
    }
}

/// `body` with `strings` as a NULL-terminated C array.
func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<gchar>?] = strings.map { g_strdup($0) } + [nil]
    defer { for pointer in pointers { g_free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// A C string array as the `const gchar * const *` GLib's calls take.
func constant(_ strings: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>) -> UnsafePointer<UnsafePointer<gchar>?> {
    UnsafeRawPointer(strings).assumingMemoryBound(to: UnsafePointer<gchar>?.self)
}
