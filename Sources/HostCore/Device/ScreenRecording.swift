/// A screen recording of an app's window (`ctl record start|stop`, simctl's `io recordVideo`):
/// the GStreamer pipeline that makes it, by the file's kind, and the Debian packages its
/// elements come from. The app renders the window itself (as `ctl snapshot` does: its own GSK
/// renderer, at the display's scale, popovers and dialogs included) and hands each frame to the
/// pipeline's standard input as raw BGRA: so a window larger than the screen (every device on
/// HostShell's own Xvfb, whose screen is the device's size, has a header bar more) is recorded
/// whole, on X11 and Wayland alike.
public enum ScreenRecording {
    /// Frames per second captured.
    public static let framesPerSecond = 15

    public enum Container: String, Sendable, Equatable {
        case webm, mp4

        /// The encoder and muxer for this kind of file.
        public var elements: [String] {
            switch self {
            case .webm: ["vp8enc", "webmmux"]
            case .mp4: ["x264enc", "mp4mux"]
            }
        }
    }

    /// Every element a recording into `container` needs, in pipeline order.
    public static func elements(_ container: Container) -> [String] {
        ["fdsrc", "rawvideoparse", "videoconvert"] + container.elements + ["filesink"]
    }

    /// The Debian package each element comes from (`scripts/install-deps` installs them).
    public static let packages: [String: String] = [
        "fdsrc": "libgstreamer1.0-0",
        "rawvideoparse": "gstreamer1.0-plugins-base",
        "videoconvert": "gstreamer1.0-plugins-base",
        "videoscale": "gstreamer1.0-plugins-base",
        "filesink": "gstreamer1.0-plugins-base (libgstreamer1.0-0)",
        "vp8enc": "gstreamer1.0-plugins-good",
        "webmmux": "gstreamer1.0-plugins-good",
        "mp4mux": "gstreamer1.0-plugins-good",
        "x264enc": "gstreamer1.0-plugins-ugly",
        "gst-launch-1.0": "gstreamer1.0-tools",
    ]

    /// What to say when `missing` elements (or the gst-launch-1.0 tool) are not installed.
    public static func missingMessage(_ missing: [String]) -> String {
        var seen: Set<String> = []
        let needed = missing.compactMap { Self.packages[$0] }.filter { seen.insert($0).inserted }
        return "recording needs GStreamer's \(missing.joined(separator: ", ")): install \(needed.joined(separator: " ")) (scripts/install-deps does)"
    }

    /// The container for `path` by its extension.
    public static func container(_ path: String) -> Container? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return Container(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Why `path` cannot be recorded to, or nil.
    public static func fileProblem(_ path: String) -> String? {
        guard container(path) != nil else {
            return "record into a .webm (VP8) or .mp4 (H.264) file, e.g. run.webm; \"\(path)\" is neither"
        }
        return nil
    }

    /// The size of the frames written for a window `width` × `height` pixels: H.264 (4:2:0)
    /// takes even sides only, so for .mp4 the odd last column or row is left out, never scaled.
    public static func frameSize(width: Int, height: Int, container: Container) -> (width: Int, height: Int) {
        container == .mp4 ? (width & ~1, height & ~1) : (width, height)
    }

    /// gst-launch-1.0's arguments turning raw BGRA frames of `size` on standard input into
    /// `path`: `-e` so the end of the input (or an interrupt) ends the stream and the file is
    /// finished before the tool exits.
    public static func launchArguments(path: String, container: Container, size: (width: Int, height: Int)) -> [String] {
        let source = ["fdsrc", "fd=0", "!", "rawvideoparse", "width=\(size.width)", "height=\(size.height)", "format=bgra",
                      "framerate=\(framesPerSecond)/1", "!", "videoconvert", "!"]
        let encoder: [String] = switch container {
        case .webm: ["vp8enc", "deadline=1", "cpu-used=8", "threads=2", "!", "webmmux", "!"]
        case .mp4: ["video/x-raw,format=I420", "!", "x264enc", "speed-preset=ultrafast", "tune=zerolatency", "!", "mp4mux", "!"]
        }
        return ["-e", "-q"] + source + encoder + ["filesink", "location=\(path)"]
    }

    /// Which frame slot `elapsed` seconds into a recording falls in: the writer hands the
    /// pipeline the latest frame once per slot, so the video keeps the wall clock's time even
    /// when drawing a frame takes longer than a slot (the last frame is repeated).
    public static func slot(elapsed: Double) -> Int { max(0, Int(elapsed * Double(framesPerSecond))) }

    /// `recording` in `ctl state`.
    public static func stateJSON(file: String, since: Double) -> JSONValue {
        ["file": .string(file), "since": .number(since)]
    }
}
