import CGtk
import Foundation
import HostCore

/// A screen recording of the app's window (`ctl record start|stop`): the window drawn by the app
/// itself, 15 times a second, as `ctl snapshot` draws it (`WindowSnapshot.render`: its own
/// renderer, at the display's scale, popovers and dialogs included), fed as raw frames to
/// GStreamer's gst-launch-1.0, which encodes a WebM (VP8) or MP4 (H.264) file. A writer thread
/// hands the pipeline the latest frame once per frame slot, so the video keeps the wall clock's
/// time. Stopping ends the input; `-e` turns its end into an end of stream, and `stop` answers
/// once the tool has finished the file.
@MainActor
package final class WindowRecorder {
    package let file: String
    package let since: Double
    private let process: OpaquePointer
    private let window: WidgetPointer
    private let feed: FrameFeed
    private var timer: UInt32 = 0
    /// Told once, when the recording ended: nil when the file was finished, else why not.
    private var onEnd: [@MainActor (String?) -> Void] = []
    private(set) var ended = false
    private var stopping = false

    /// Starts recording `window` into `path`, or says why it cannot.
    package static func start(_ window: WidgetPointer, into path: String, ended: @escaping @MainActor (String?) -> Void)
        -> Result<WindowRecorder, ControlError> {
        guard let container = ScreenRecording.container(path) else { return .failure(ControlError(ScreenRecording.fileProblem(path) ?? path)) }
        var missing = ScreenRecording.elements(container).filter { !elementExists($0) }
        if g_find_program_in_path("gst-launch-1.0").map({ g_free($0); return true }) != true { missing.insert("gst-launch-1.0", at: 0) }
        guard missing.isEmpty else { return .failure(ControlError(ScreenRecording.missingMessage(missing))) }
        // The frames' size: the window's, at its scale, as `WindowSnapshot.render` draws it.
        let scale = Int(max(1, gtk_widget_get_scale_factor(window)))
        let size = ScreenRecording.frameSize(width: Int(gtk_widget_get_width(window)) * scale,
                                             height: Int(gtk_widget_get_height(window)) * scale, container: container)
        guard size.width > 1, size.height > 1 else {
            return .failure(ControlError("the window is not shown yet: wait for it (ctl wait screen=page), then start the recording"))
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            return .failure(ControlError("could not start the recording: \(String(cString: strerror(errno)))"))
        }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)  // the writing end stays with the app (the reading end becomes the tool's input)
        let launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_SILENCE)
        g_subprocess_launcher_take_stdin_fd(launcher, ends[0])  // closed by the launcher
        defer { g_object_unref(UnsafeMutableRawPointer(launcher)) }
        var error: UnsafeMutablePointer<GError>?
        let arguments = ["gst-launch-1.0"] + ScreenRecording.launchArguments(path: path, container: container, size: size)
        let process = withCStrings(arguments) { g_subprocess_launcher_spawnv(launcher, constant($0), &error) }
        guard let process else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            close(ends[1])
            return .failure(ControlError("could not start gst-launch-1.0: \(message)"))
        }
        let feed = FrameFeed(fd: ends[1], width: size.width, height: size.height)
        if let first = WindowSnapshot.render(window) {  // else black until the window draws
            feed.take(first)
            g_object_unref(UnsafeMutableRawPointer(first))
        }
        let recorder = WindowRecorder(file: path, process: process, window: window, feed: feed)
        recorder.onEnd.append(ended)
        recorder.watch()
        feed.startWriting()
        recorder.timer = MainLoop.every(milliseconds: UInt32(1000 / ScreenRecording.framesPerSecond)) { [weak recorder] in
            guard let recorder else { return false }
            if recorder.stopping {
                recorder.timer = 0  // this source ends now
                return false
            }
            if let texture = WindowSnapshot.render(recorder.window) {  // none while the window is hidden: the last frame goes on
                recorder.feed.take(texture)
                g_object_unref(UnsafeMutableRawPointer(texture))
            }
            return true
        }
        return .success(recorder)
    }

    private init(file: String, process: OpaquePointer, window: WidgetPointer, feed: FrameFeed) {
        self.file = file
        self.process = process
        self.window = window
        self.feed = feed
        since = wallClockSeconds()
    }

    /// Ends the recording; `done` once the file is finished (nil) or with why it is not.
    package func stop(_ done: @escaping @MainActor (String?) -> Void) {
        guard !ended else { return done(nil) }
        onEnd.append(done)
        guard !stopping else { return }
        stopping = true
        feed.finish()
        // A pipeline that does not finish within 20 s is ended; its file is then not whole.
        MainLoop.after(milliseconds: 20_000) { [weak self] in
            guard let self, !self.ended else { return }
            g_subprocess_force_exit(self.process)
        }
    }

    /// Ends the recording before the app exits, waiting for the file to be finished.
    package func finishNow() {
        guard !ended else { return }
        stopping = true
        feed.finish()
        feed.waitUntilWritten()
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
            self.end(clean && self.stopping ? nil : "gst-launch-1.0 stopped on its own (exit \(g_subprocess_get_if_exited(self.process) != 0 ? String(g_subprocess_get_exit_status(self.process)) : "by a signal")): the pipeline failed; see the app's standard error")
        })
    }

    private func end(_ problem: String?) {
        guard !ended else { return }
        ended = true
        stopping = true
        feed.finish()
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        let told = onEnd
        onEnd = []
        for body in told { body(problem) }
        g_object_unref(UnsafeMutableRawPointer(process))
    }

    /// Whether GStreamer has `element` (gst-inspect-1.0 --exists).
    private static func elementExists(_ element: String) -> Bool {
        if element == "filesink" || element == "fdsrc" { return true }  // core GStreamer, always there with the tools
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
