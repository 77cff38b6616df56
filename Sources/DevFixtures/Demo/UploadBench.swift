import CGtk
import CapacitorShell
import Glibc
import HostCore
import Push
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell bench upload ORIGIN FILE TOKEN`: media intake's uploader on one file against a
/// server (the reference server with `--bench-token`), timed, with the growth of the process's
/// peak RSS. `scripts/bench` runs it beside `bench/upload_floor.c` on the same file.
@MainActor
package final class UploadBench: CredentialSource {
    package let credential: Credential?

    init(token: String) {
        credential = Credential(accessToken: token, refreshToken: "tcr_bench", expiresAt: wallClockSeconds() + 3600)
    }

    package func refresh(studioSession: Bool, done: @escaping @MainActor (Bool) -> Void) { done(false) }

    package nonisolated static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 3, let origin = Origin(url: arguments[0]), arguments[2].hasPrefix("tca_") else {
            throw UsageError("usage: hostshell bench upload ORIGIN FILE TOKEN")
        }
        var info = stat()
        guard stat(arguments[1], &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw UsageError("\(arguments[1]) is not a readable file")
        }
        let path = arguments[1]
        let size = Int(info.st_size)
        return MainActor.assumeIsolated {
            MainLoop.installDispatchBridge()
            let loop = g_main_loop_new(nil, 0)
            let rss0 = Self.status("VmRSS")
            let source = UploadBench(token: arguments[2])
            let name = String(path.split(separator: "/").last ?? "file")
            let uploader = Uploader(origin: origin, auth: source, files: [.init(path: path, name: name, size: size, mimeType: "video/mp4")])
            let start = monotonicSeconds()
            var exit = ExitCode.success
            // Timed to the server's answer to `complete`, like the floor; the asset's processing
            // (polled every 1.5 s) is the server's time, not the upload's.
            var seconds = 0.0
            uploader.onCompleted = { seconds = monotonicSeconds() - start }
            uploader.onDone = { result in
                defer { g_main_loop_quit(loop) }
                guard result.uploaded == 1 else {
                    // No sample: scripts/bench stops on the exit status.
                    printError("hostshell bench upload: the upload failed: \(result.failed.map(\.problem).joined(separator: "; "))")
                    exit = ExitCode.failure
                    return
                }
                let rate = Double(size) / 1_048_576 / seconds
                printJSON(#"{"seconds":\#((seconds * 1000).rounded() / 1000),"mibPerSecond":\#(String(format1: rate)),"rssGrowthKiB":\#(Self.status("VmHWM") - rss0)}"#)
            }
            uploader.start()
            g_main_loop_run(loop)
            return exit
        }
    }

    /// A kB field of /proc/self/status.
    nonisolated static func status(_ key: String) -> Int {
        guard let bytes = try? FileReading.bytes("/proc/self/status", limit: 64 << 10) else { return 0 }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        return 0
    }
}
