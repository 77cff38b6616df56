import Glibc
import HostCore

/// Applies the rendering choice for this machine (see `RenderingPolicy`) and the media switches
/// (`MediaSupport`) before GTK and WebKit start: the variables it sets reach every web process
/// WebKit launches.
package enum RenderingSetup {
    /// Chooses and sets the variables (once per process, before GTK starts: `MainLoop.startGTK`
    /// does); what was chosen goes to the app's `AppEnvironment`, for state reports.
    @discardableResult
    package static func apply() -> RenderingChoice {
        let made = RenderingPolicy.choose(hasGPURenderNode: hasGPURenderNode()) { name in getenv(name).map { String(cString: $0) } }
        for setting in made.settings { setenv(setting.name, setting.value, 0) }
        // Media as the phone plays it (HLS through GStreamer): WebKit's own switch, same rule.
        for setting in MediaSupport.settings({ name in getenv(name).map { String(cString: $0) } }) { setenv(setting.name, setting.value, 0) }
        return made
    }

    /// Whether `/dev/dri` holds a render node (`renderD128`, …): a GPU the process may draw with.
    package static func hasGPURenderNode() -> Bool { DirectoryNames.of("/dev/dri").contains { $0.hasPrefix("renderD") } }
}
