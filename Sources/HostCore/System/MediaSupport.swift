/// Media as the phone's web view plays it. WKWebView on iOS plays HLS itself
/// (`canPlayType('application/vnd.apple.mpegurl')` is "maybe") and decodes H.264 and AAC; a
/// self-hosted server's live view (HomeSec's) relies on that. WebKitGTK plays media through
/// GStreamer, so the same needs GStreamer's elements, and one switch of WebKit's own:
/// - WebKitGTK (2.50, measured) answers "" for HLS, even with `hlsdemux` installed, unless
///   `WEBKIT_GST_ENABLE_HLS_SUPPORT=1` is in its web processes' environment; with it, the
///   answer is "maybe" and `hlsdemux` plays the stream. HostShell sets it (as it sets the
///   rendering variables) unless the person's environment already names it.
/// - The elements below, by the Debian package that gives each (`scripts/install-deps`
///   installs them); `hostshell doctor` reports each one present or missing.
public enum MediaSupport {
    /// WebKitGTK's switch for HLS through GStreamer's `hlsdemux`.
    public static let hlsVariable = "WEBKIT_GST_ENABLE_HLS_SUPPORT"

    /// A GStreamer element WebKit needs for what the phone plays.
    public struct Element: Sendable, Equatable {
        /// The element factory's name (what `gst-inspect-1.0` takes).
        public let name: String
        /// What it gives a page, in a few words.
        public let gives: String
        /// The Debian package it comes in.
        public let package: String
    }

    /// What HLS with H.264 and AAC needs, in the order a stream meets them.
    public static let elements: [Element] = [
        Element(name: "hlsdemux", gives: "HLS streams (application/vnd.apple.mpegurl)", package: "gstreamer1.0-plugins-bad"),
        Element(name: "tsdemux", gives: "the MPEG-TS segments of HLS streams", package: "gstreamer1.0-plugins-bad"),
        Element(name: "h264parse", gives: "H.264 streams", package: "gstreamer1.0-plugins-bad"),
        Element(name: "avdec_h264", gives: "H.264 video", package: "gstreamer1.0-libav"),
        Element(name: "aacparse", gives: "AAC streams", package: "gstreamer1.0-plugins-good"),
        Element(name: "avdec_aac", gives: "AAC audio", package: "gstreamer1.0-libav"),
    ]

    /// The variables to set before WebKit starts its web processes: the HLS switch, unless the
    /// environment (`lookup`) names it already — a person's choice wins, either way.
    public static func settings(_ lookup: (String) -> String?) -> [RenderingChoice.EnvironmentSetting] {
        lookup(hlsVariable) == nil ? [RenderingChoice.EnvironmentSetting(name: hlsVariable, value: "1")] : []
    }

    /// Whether WebKit will play HLS with the variable as the web processes see it.
    public static func hlsEnabled(_ value: String?) -> Bool { value == "1" }

    /// `doctor`'s lines: one per element (present, or missing with the package that gives it),
    /// and WebKit's HLS switch. `present` is nil when GStreamer itself could not be loaded.
    /// Media only limits what pages play: nothing here stops HostShell from opening a window.
    public static func checks(present: Set<String>?, hlsValue: String?) -> [MachineCheck] {
        var checks: [MachineCheck] = []
        for element in elements {
            let name = "media-" + element.name
            guard let present else {
                checks.append(MachineCheck(name: name, status: .limited, found: "GStreamer could not be loaded",
                                           advice: "WebKit plays no media without it: apt-get install libgstreamer1.0-0 \(element.package)"))
                continue
            }
            checks.append(present.contains(element.name)
                ? MachineCheck(name: name, status: .ok, found: "\(element.name) (\(element.gives))", advice: "")
                : MachineCheck(name: name, status: .limited, found: "\(element.name) is missing: no \(element.gives)",
                               advice: "pages cannot play \(element.gives) as the phone does: apt-get install \(element.package)"))
        }
        checks.append(hlsEnabled(hlsValue)
            ? MachineCheck(name: "media-hls", status: .ok, found: "\(hlsVariable)=1: WebKit plays HLS (canPlayType says \"maybe\", as on iOS)", advice: "")
            : MachineCheck(name: "media-hls", status: .limited,
                           found: "\(hlsVariable) is \(hlsValue.map { "\"\($0)\"" } ?? "unset"): WebKit answers \"\" for HLS and does not play it",
                           advice: "unset \(hlsVariable) (HostShell then sets it to 1), or set it to 1"))
        return checks
    }
}
