import CGtk
import CapacitorContract
import CapacitorShell
import Foundation
import HomeSec
import HomeSecShell
import HostCore
import Push
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell bench capacitor WEB-DIR`: a Capacitor app started as `hostshell capacitor
/// --web-dir WEB-DIR` starts it (its scheme, profile, runtime, plugins, window), measured the way
/// `bench/capacitor_floor.c` measures plain WebKit on the same bundle: milliseconds from process
/// start (`HOSTSHELL_T0_NS`) to the page's first contentful paint as the engine reports it; and,
/// on a page whose title ends "bench:done" (`fixtures/bench/capacitor-roundtrip`), the gaps
/// between 1000 consecutive plugin calls' arrivals, as `LiveBench` times the Studio bridge's.
/// One JSON line, exit 0; a run that did not get there says so and exits 1.
@MainActor
package final class CapacitorBench {
    nonisolated static let appId = "org.hostshell.bench"
    private let loop = g_main_loop_new(nil, 0)
    private var app: CapacitorApp!
    private var arrivals: [Double] = []
    private var loadMs: Double?
    private var firstRenderMs: Double?
    private var roundTrips = false
    private var done = false
    private var exitCode = ExitCode.success

    package nonisolated static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let dir = arguments.first, !dir.hasPrefix("-") else {
            throw UsageError("usage: hostshell bench capacitor WEB-DIR (a built web app with its index.html)")
        }
        var options = CapacitorCommand.Options()
        options.webDir = dir
        options.appId = appId
        options.device = .desktop  // the floor's window: 1280 × 800
        options.credentialStore = "file"
        let launch = try CapacitorCommand.launch(options, plugins: .withHomeSec)
        let rendering = try MainLoop.startGTK(noDisplay: "bench capacitor needs a display (scripts/bench starts Xvfb)")
        return try MainActor.assumeIsolated { () -> Result<Int32, UsageError> in
            do throws(UsageError) {
                _ = try CapacitorSecretStores.choose(options.credentialStore)
                guard let scheme = try CapacitorScheme.serve(launch) else { throw UsageError("bench capacitor needs a web directory") }
                return .success(CapacitorBench().run(launch, scheme: scheme, environment: AppEnvironment(rendering: rendering)))
            } catch { return .failure(error) }
        }.get()
    }

    private func run(_ launch: CapacitorLaunch, scheme: CapacitorScheme, environment: AppEnvironment) -> Int32 {
        var environment = environment
        environment.attended = false
        app = CapacitorApp(launch: launch, scheme: scheme, environment: environment)
        app.page.onMessageArrived = { [unowned self] in self.arrivals.append(monotonicSeconds() * 1e6) }
        app.onScreenChanged = { [unowned self] in
            guard self.loadMs == nil, self.app.screen.name == "page" else { return }
            self.loadMs = LiveBench.msSinceLaunch()
            self.askFirstPaint()
        }
        onNotify(UnsafeMutableRawPointer(app.page.view), "title") { [unowned self] in
            guard let title = self.app.page.web.title, title.hasPrefix("bench:") else { return }
            self.roundTrips = true
            if title != "bench:done" { printError("hostshell bench capacitor: the page says \(TerminalText.escaped(title))") }
            self.finishIfReady()
        }
        MainLoop.after(milliseconds: 60_000) { [unowned self] in self.finish(timedOut: true) }
        app.start()
        g_main_loop_run(loop)
        app.close()
        return exitCode
    }

    /// The engine's own first-contentful-paint time, as the floor reads it.
    static let firstPaintScript = """
        const p = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
        return p ? performance.timeOrigin + p.startTime : -1;
        """

    private func askFirstPaint() {
        app.page.web.callAsync(Self.firstPaintScript, world: nil) { [weak self] result in
            guard let self, !self.done else { return }
            guard case .success(let value) = result, let epochMs = value.numberValue else {
                printError("hostshell bench capacitor: the page's paint timing could not be read")
                return self.finish(timedOut: false)
            }
            guard epochMs >= 0 else {
                MainLoop.after(milliseconds: 10) { [weak self] in self?.askFirstPaint() }
                return
            }
            let t0 = ProcessInfo.processInfo.environment["HOSTSHELL_T0_NS"].flatMap(Double.init).map { $0 / 1e6 } ?? 0
            self.firstRenderMs = epochMs - t0
            self.finishIfReady()
        }
    }

    private var isRoundTripPage: Bool { app.launch.webDir?.contains("roundtrip") == true }

    private func finishIfReady() {
        guard firstRenderMs != nil, roundTrips || !isRoundTripPage else { return }
        finish(timedOut: false)
    }

    private func finish(timedOut: Bool) {
        guard !done else { return }
        done = true
        defer { g_main_loop_quit(loop) }
        let (p50, p99) = LiveBench.gapPercentiles(arrivals)
        let missing: String? = firstRenderMs == nil ? "the page never painted (screen \(app.screen.name))"
            : isRoundTripPage && p50 < 0 ? "the round-trip page did not finish 1000 plugin calls (\(arrivals.count) messages)" : nil
        if let missing {
            printError("hostshell bench capacitor: \(missing)\(timedOut ? " within 60 s" : ""); this run is not a sample")
            exitCode = ExitCode.failure
            return
        }
        func tenth(_ value: Double) -> JSONValue { .number((value * 10).rounded() / 10) }
        let result: JSONValue = ["firstRenderMs": tenth(firstRenderMs ?? -1), "loadMs": tenth(loadMs ?? -1),
                                 "rttP50Us": tenth(p50), "rttP99Us": tenth(p99), "rssKiB": .number(Double(LiveBench.treeRSS())),
                                 "rendering": .string(LiveBench.renderingSettings())]
        printJSON(JSONWriter.string(result))
        fflush(nil)
    }
}
