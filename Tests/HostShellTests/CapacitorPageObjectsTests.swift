import BridgeRuntime
import CGtk
import Foundation
@testable import HostShell
import Testing

/// A Capacitor app's page lets go of its WebKit objects: once it is closed and its view is
/// dropped (as its window drops it), the web view and its content manager are finalized —
/// `LiveObjects`, `ctl state`'s `objects`, counts them. In this process, with real WebKit: a
/// Capacitor app makes its one page per run, so no running app can show it. The running app's
/// `objects` is read by the live test beside it.
@Suite("Capacitor page: its web view and content manager are freed when it closes (real WebKit, in process)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
@MainActor
struct CapacitorPageObjectsTests {
    /// GTK alone: no dispatch bridge into GLib's loop here, whose iterations would run other
    /// tests' main-actor work in the middle of this one.
    static let gtk: Bool = gtk_init_check() != 0

    @Test("made, closed and dropped three times: nothing left alive")
    func released() throws {
        try #require(Self.gtk, "GTK could not start on this display")
        let dir = NSTemporaryDirectory() + "hostshell-cap-objects-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try? CapacitorSecretStores.choose("file")
        let views = LiveObjects.count(.webView), managers = LiveObjects.count(.contentManager)
        let info = CapacitorAppInfo(appId: "dev.hostshell.objects", appName: "Objects")
        let origin = try #require(Origin(appScheme: "capacitor", host: "localhost"))
        for round in 1...3 {
            let session = webkit_network_session_new_ephemeral()!
            var page: CapacitorPage? = CapacitorPage(app: info, origin: "capacitor://localhost", session: session, automation: false,
                                                     environment: .current(),
                                                     trust: PageTrust(origin: origin, handsOut: false, profileId: nil, attended: false, name: "Objects")) { _ in
                CapacitorGlueContext(app: info, dataDirectory: dir, attended: false, environment: .current(), window: { nil }, post: { _ in })
            }
            // The window's part: it holds the view while the page is shown.
            let view = UnsafeMutableRawPointer(page!.view)
            g_object_ref_sink(view)
            #expect(LiveObjects.count(.webView) == views + 1 && LiveObjects.count(.contentManager) == managers + 1, "round \(round): counted while alive")
            page!.close()
            page = nil
            g_object_unref(view)
            g_object_unref(UnsafeMutableRawPointer(session))
            while g_main_context_iteration(nil, 0) != 0 {}
            #expect(LiveObjects.count(.webView) == views, "round \(round): the web view is freed")
            #expect(LiveObjects.count(.contentManager) == managers, "round \(round): the content manager is freed")
        }
    }
}
