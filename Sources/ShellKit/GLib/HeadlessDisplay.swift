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

    package static func start() throws(UsageError) -> HeadlessDisplay {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/Xvfb" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            throw UsageError("there is no display and no Xvfb to start one: run scripts/install-deps (it installs xvfb)")
        }
        for number in stride(from: 99, through: 50, by: -1) where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [":\(number)", "-screen", "0", "1440x1000x24", "-nolisten", "tcp"]
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
