/// A screen recording of an app's window (`ctl record start|stop`, simctl's `io recordVideo`):
/// the GStreamer pipeline that makes it, by the file's kind, and the Debian packages its
/// elements come from. The window is captured by X id (ximagesrc), so recording needs X11
/// (HostShell's own Xvfb when headless, or XWayland windows).
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
        ["ximagesrc", "videoconvert"] + container.elements + ["filesink"]
    }

    /// The Debian package each element comes from (`scripts/install-deps` installs them).
    public static let packages: [String: String] = [
        "ximagesrc": "gstreamer1.0-plugins-good",
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

    /// gst-launch-1.0's arguments recording the X window `xid` into `path`: `-e` so an interrupt
    /// (SIGINT) ends the stream and the file is finished before the tool exits. For .mp4 the size
    /// is made even (H.264 wants it) by cropping the odd last column or row, never by scaling.
    /// `area` (x, y, width, height in the X window) crops the capture to the window's own area:
    /// GTK's client-side decorations draw a shadow around it, inside the X window.
    public static func launchArguments(xid: UInt, path: String, container: Container,
                                       area: (x: Int, y: Int, width: Int, height: Int)? = nil) -> [String] {
        var crop: [String] = []
        if let area, area.width > 1, area.height > 1 {
            // H.264 (4:2:0) takes even sides only: the odd last column or row is left out.
            let width = container == .mp4 ? area.width & ~1 : area.width, height = container == .mp4 ? area.height & ~1 : area.height
            crop = ["startx=\(area.x)", "starty=\(area.y)", "endx=\(area.x + width - 1)", "endy=\(area.y + height - 1)"]
        }
        let source = ["ximagesrc", "xid=\(xid)"] + crop + ["use-damage=false", "show-pointer=false", "!",
                      "video/x-raw,framerate=\(framesPerSecond)/1", "!", "videoconvert", "!"]
        let encoder: [String] = switch container {
        case .webm: ["vp8enc", "deadline=1", "cpu-used=8", "threads=2", "!", "webmmux", "!"]
        case .mp4: ["video/x-raw,format=I420", "!", "x264enc", "speed-preset=ultrafast", "tune=zerolatency", "!", "mp4mux", "!"]
        }
        return ["-e", "-q"] + source + encoder + ["filesink", "location=\(path)"]
    }

    /// `recording` in `ctl state`.
    public static func stateJSON(file: String, since: Double) -> JSONValue {
        ["file": .string(file), "since": .number(since)]
    }
}
