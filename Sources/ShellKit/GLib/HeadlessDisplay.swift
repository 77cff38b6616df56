import Foundation
import HostCore

/// A private Xvfb for running without a display: started on a free display number, used as
/// `DISPLAY` by this process, and stopped when done.
package final class HeadlessDisplay {
    private let process: Process
    let display: String

    private init(process: Process, display: String) {
        self.process = process
        self.display = display
    }

    /// The default screen (a desktop window's, with room around it).
    static let defaultScreen = PointSize(1440, 1000)

    /// Starts one for `device`: a screen of the device's size in device pixels (held as it is)
    /// and GTK at its scale (`GDK_SCALE`, set before GTK starts), so a page sees the device's
    /// `devicePixelRatio` and `screen`; the desktop gets the default screen at scale 1. A
    /// `GDK_SCALE` set by the person wins (e.g. 1, to run a device's size cheaply in CI): it is
    /// said on standard error, and the page's measured `devicePixelRatio` shows it in `fidelity`.
    package static func start(for device: DeviceChoice = .desktop) throws(UsageError) -> HeadlessDisplay {
        let screen = device.headlessScreen ?? defaultScreen
        if let model = device.model {
            if let asked = ProcessInfo.processInfo.environment["GDK_SCALE"], asked != "\(device.scale)" {
                printError("hostshell: GDK_SCALE=\(asked) from the environment: the page is drawn at scale \(asked), not the \(model.name)'s \(device.scale)")
            } else {
                setenv("GDK_SCALE", "\(device.scale)", 1)
            }
        }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/Xvfb" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            throw UsageError("there is no display and no Xvfb to start one: run scripts/install-deps (it installs xvfb)")
        }
        for number in stride(from: 99, through: 50, by: -1) where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [":\(number)", "-screen", "0", "\(screen.width)x\(screen.height)x24", "-nolisten", "tcp"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { throw UsageError("could not start Xvfb: \(error.localizedDescription)") }
            for _ in 0..<100 where process.isRunning {
                if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                    setenv("DISPLAY", ":\(number)", 1)
                    unsetenv("WAYLAND_DISPLAY")
                    return HeadlessDisplay(process: process, display: ":\(number)")
                }
                usleep(50_000)
            }
            if process.isRunning { process.terminate() }
        }
        throw UsageError("could not start Xvfb on any display from :99 down to :50")
    }

    package func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
