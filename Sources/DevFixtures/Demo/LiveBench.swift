import CGtk
import CapacitorShell
import Foundation
import HomeSec
import HostCore
import Push
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell bench live URL`: the live host measured the way `bench/webkit_floor.c` measures
/// plain WebKit, for `scripts/bench`. On a Studio page: milliseconds from process start
/// (`HOSTSHELL_T0_NS`) to "negotiated and native chrome drawn". On the round-trip page: the
/// gaps between 1000 consecutive bridge messages through the full path (relay, decode, page
/// session, reply). Always: RSS of the whole process tree, and the rendering chosen (which the
/// floor must match). One JSON line, exit 0; a run whose chrome never came or whose page never
/// finished its round trips says so and exits 1, so it never becomes a sample.
@MainActor
package final class LiveBench {
    let url: String
    package let origin: Origin
    private let loop = g_main_loop_new(nil, 0)
    private var page: StudioPage!
    private var window: StudioWindow!
    private var host: ChromeOnlyHost!
    private var arrivals: [Double] = []
    private var chromeMs: Double?
    /// When the page finished loading: the floor's own end point, for a like-for-like figure.
    private var loadMs: Double?
    private var done = false
    private var exitCode = ExitCode.success

    /// The services its page uses, as an app's (see `AppEnvironment`).
    private let environment: AppEnvironment

    init(url: String, origin: Origin, environment: AppEnvironment) {
        self.environment = environment
        self.url = url
        self.origin = origin
    }

    package func run() -> Int32 {
        // Start the web process and the load first; styling and the window are built while the
        // page loads (adw_init and the first frame cost about 200 ms here).
        page = StudioPage(.own(session: webkit_network_session_new_ephemeral(), automation: false), context: .main, profile: .desktop,
                          serverOrigin: origin, available: [.nativeNavigation], environment: environment)
        page.load(url)
        adw_init()
        window = StudioWindow(page: page, title: "HostShell bench")
        window.present()
        page.onMessageArrived = { [unowned self] in self.arrivals.append(monotonicSeconds() * 1e6) }
        host = ChromeOnlyHost(view: window.view) { [unowned self] in
            if self.loadMs == nil, self.page.web.loadFinished { self.loadMs = Self.msSinceLaunch() }
            guard self.chromeMs == nil, self.page.session.nativeChrome.layout != .none else { return }
            self.chromeMs = Self.msSinceLaunch()
            MainLoop.after(milliseconds: 500) { [unowned self] in self.finish() }
        }
        page.host = host
        onNotify(UnsafeMutableRawPointer(page.view), "title") { [unowned self] in
            if self.page.web.title?.hasPrefix("bench:") == true { self.finish() }
        }
        MainLoop.after(milliseconds: 60_000) { [unowned self] in self.finish(timedOut: true) }
        g_main_loop_run(loop)
        return exitCode
    }

    private var roundTripPage: Bool { url.contains("roundtrip") }

    private func finish(timedOut: Bool = false) {
        guard !done else { return }
        done = true
        defer { g_main_loop_quit(loop) }
        let (p50, p99) = Self.gapPercentiles(arrivals)
        // A run that did not get there is no sample: say what did not come.
        let missing = roundTripPage ? (p50 < 0 ? "the round-trip page did not finish 1000 round trips (\(arrivals.count) messages)" : nil)
                                    : (chromeMs == nil ? "the native chrome never came (no catalog negotiated)" : nil)
        if let missing {
            printError("hostshell bench live: \(missing)\(timedOut ? " within 60 s" : ""); this run is not a sample")
            exitCode = ExitCode.failure
            return
        }
        let result: JSONValue = ["chromeMs": .number(((chromeMs ?? -1) * 10).rounded() / 10),
                                 "loadMs": .number(((loadMs ?? -1) * 10).rounded() / 10), "rttP50Us": .number((p50 * 10).rounded() / 10),
                                 "rttP99Us": .number((p99 * 10).rounded() / 10), "rssKiB": .number(Double(Self.treeRSS())),
                                 "rendering": .string(Self.renderingSettings())]
        printJSON(JSONWriter.string(result))
        fflush(nil)
    }

    /// The p50 and p99 of the gaps between the last 1001 message arrivals (µs); -1 for both
    /// when fewer came (the round-trip page did not finish).
    nonisolated static func gapPercentiles(_ arrivals: [Double]) -> (p50: Double, p99: Double) {
        guard arrivals.count > 1001 else { return (-1, -1) }
        let tail = Array(arrivals.suffix(1001))
        let gaps = zip(tail.dropFirst(), tail).map { $0 - $1 }.sorted()
        return (gaps[499], gaps[989])
    }

    nonisolated static let renderingVariables = RenderingPolicy.variables

    /// The rendering variables GTK and WebKit run with, as `GSK_RENDERER=… WEBKIT_SKIA_ENABLE_CPU_RENDERING=… WEBKIT_DISABLE_COMPOSITING_MODE=…`
    /// (unset ones as `-`): `bench/webkit_floor.c` prints the same, and `scripts/bench` compares them.
    static func renderingSettings() -> String {
        renderingVariables.map { name in
            "\(name)=\(getenv(name).map { String(cString: $0) } ?? "-")"
        }.joined(separator: " ")
    }

    nonisolated static func msSinceLaunch() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let ms = Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
        guard let t0 = ProcessInfo.processInfo.environment["HOSTSHELL_T0_NS"].flatMap(Double.init) else { return ms }
        return ms - t0 / 1e6
    }

    /// RSS of this process and all its descendants (WebKit's web and network processes).
    static func treeRSS() -> Int {
        func field(_ pid: Int32, _ name: String) -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
            }
            return nil
        }
        let me = getpid()
        var total = 0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry) else { continue }
            var cursor = pid
            for _ in 0..<64 where cursor > 1 {
                if cursor == me { total += field(pid, "VmRSS") ?? 0; break }
                cursor = Int32(field(cursor, "PPid") ?? 0)
            }
        }
        return total
    }
}
