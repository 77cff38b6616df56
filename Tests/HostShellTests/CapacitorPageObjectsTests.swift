import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import CGtk
import Foundation
@testable import CapacitorShell
@testable import DevFixtures
@testable import HomeSecShell
@testable import HostShell
@testable import PushShell
@testable import ShellKit
@testable import StudioShell
import Testing

/// A Capacitor app's page lets go of its WebKit objects: once it is closed and its view is
/// dropped (as its window drops it), the web view and its content manager are finalized —
/// `LiveObjects`, `ctl state`'s `objects`, counts them. A Capacitor app makes its one page per
/// run, so no running app can show it: the pages are made with real WebKit in a child process
/// of the test runner (an exit test), never in the runner itself — GTK and WebKit there would
/// take its children's exits from every other test. The running app's `objects` is read by
/// CapacitorHostCoreTests.
@Suite("Capacitor page: its web view and content manager are freed when it closes (real WebKit, in a child process)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"))
struct CapacitorPageObjectsTests {
    @Test("made, closed and dropped three times: nothing left alive")
    func released() async throws {
        // The child prints what did not hold, one line each, and ends normally.
        let result = try #require(await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            for problem in await MainActor.run(body: { CapacitorPageObjectsTests.makeAndDropPages() }) { print(problem) }
        })
        let problems = String(decoding: result.standardOutputContent, as: UTF8.self)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// In the child: three pages made, closed and dropped; what did not hold.
    @MainActor
    static func makeAndDropPages() -> [String] {
        guard gtk_init_check() != 0 else { return ["GTK could not start on this display"] }
        let dir = NSTemporaryDirectory() + "hostshell-cap-objects-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try? CapacitorSecretStores.choose("file")
        let info = CapacitorAppInfo(appId: "dev.hostshell.objects", appName: "Objects")
        guard let origin = Origin(appScheme: "capacitor", host: "localhost") else { return ["no app origin"] }
        var problems: [String] = []
        for round in 1...3 {
            let session = webkit_network_session_new_ephemeral()!
            let environment = AppEnvironment(rendering: nil)
            var page: CapacitorPage? = CapacitorPage(app: info, origin: "capacitor://localhost", session: session, automation: false,
                                                     environment: environment,
                                                     trust: PageTrust(origin: origin, handsOut: false, profileData: nil, handoff: environment.handoff,
                                                                      attended: false, name: "Objects"), plugins: .standard) { _ in
                CapacitorGlueContext(app: info, dataDirectory: dir, attended: false, environment: environment, window: { nil }, post: { _ in })
            }
            // The window's part: it holds the view while the page is shown.
            let view = UnsafeMutableRawPointer(page!.view)
            g_object_ref_sink(view)
            if LiveObjects.count(.webView) != 1 || LiveObjects.count(.contentManager) != 1 {
                problems.append("round \(round): alive while shown: \(JSONWriter.string(LiveObjects.json))")
            }
            page!.close()
            page = nil
            g_object_unref(view)
            g_object_unref(UnsafeMutableRawPointer(session))
            while g_main_context_iteration(nil, 0) != 0 {}
            if LiveObjects.count(.webView) != 0 || LiveObjects.count(.contentManager) != 0 {
                problems.append("round \(round): alive after the page closed and its view was dropped: \(JSONWriter.string(LiveObjects.json))")
            }
        }
        return problems
    }
}
