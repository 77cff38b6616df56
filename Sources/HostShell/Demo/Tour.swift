import BridgeRuntime
import CGtk
import Foundation

/// The demo's scripted tour of the reference Studio on one device: negotiate, tap a
/// destination, open a detail page and go back natively, then try to leave an edit page with
/// unsaved changes and see the native selection roll back. Each step is checked against the
/// native state and photographed.
@MainActor
final class Tour {
    struct Step {
        var name: String
        var ok: Bool
        var detail: String
        var screenshot: String?
    }

    let device: DeviceProfile
    let server: FixtureServer
    let outDirectory: String
    let stepTimeout: Double
    private(set) var steps: [Step] = []
    private var page: StudioPage!
    private var window: StudioWindow!

    init(device: DeviceProfile, server: FixtureServer, outDirectory: String, stepTimeout: Double) {
        self.device = device
        self.server = server
        self.outDirectory = outDirectory
        self.stepTimeout = stepTimeout
    }

    var passed: Bool { !steps.isEmpty && steps.allSatisfy(\.ok) }

    func run(networkSession: NetworkSessionPointer) async {
        page = StudioPage(networkSession: networkSession, context: .main, profile: device,
                          serverOrigin: server.origin, available: [.nativeNavigation])
        window = StudioWindow(page: page, title: "Reference Studio", subtitle: "\(device.rawValue.capitalized) · HostShell demo")
        window.present()
        page.load(server.baseURL + "/")

        await step("negotiate", "Studio negotiated and the native \(device.usesTabs ? "tabs" : "sidebar") show its catalog") {
            self.page.loadFinished && self.page.session.frontendReady && self.page.session.nativeChrome.layout != .none
                && self.page.session.activeDestinationId == "overview"
        }
        guard passed else { return }

        page.tap(destination: "screens")
        await step("tap-destination", "a native tap on Screens selected it and Studio followed") {
            self.page.session.activeDestinationId == "screens" && self.page.session.nativeChrome.selectedDestinationId == "screens"
                && (self.page.uri ?? "").hasSuffix("/screens")
        }

        page.evaluate(#"document.querySelector('a[href="/screens/lobby-north"]')?.click()"#)
        await step("open-detail", "a detail page shows the native back bar labelled Screens") {
            self.page.session.nativeChrome.backBar == BackBar(title: "Lobby north", backLabel: "Screens")
        }

        page.tapBack()
        await step("native-back", "the native back button returned to Screens and the bar went away") {
            self.page.session.nativeChrome.backBar == nil && (self.page.uri ?? "").hasSuffix("/screens")
        }

        page.evaluate(#"document.querySelector('a[href="/screens/lobby-north"]')?.click()"#)
        _ = await waitUntil { self.page.session.nativeChrome.backBar != nil }
        page.evaluate(#"document.querySelector('a[href="/screens/lobby-north/edit"]')?.click()"#)
        _ = await waitUntil { (self.page.uri ?? "").hasSuffix("/edit") && self.page.session.nativeChrome.backBar?.title == "Edit screen" }
        page.evaluate("""
            (() => { const input = document.getElementById("screen-name");
                     input.value += " (renamed)"; input.dispatchEvent(new Event("input", { bubbles: true })); })()
            """)
        // The user chooses Media natively, then keeps editing when Studio asks.
        page.confirmAnswer = false
        page.tap(destination: "media")
        let optimistic = page.session.nativeChrome.selectedDestinationId == "media"
        await step("roll-back", "leaving an edit page with unsaved changes was refused; the selection rolled back to Screens") {
            optimistic && self.page.session.pendingDestinationId == nil
                && self.page.session.nativeChrome.selectedDestinationId == "screens" && (self.page.uri ?? "").hasSuffix("/edit")
        }
        page.confirmAnswer = nil
    }

    /// The native state after the tour, for state.json.
    func report() -> JSONValue {
        var object = page.map { StateReport.json($0.session).objectValue ?? JSONObject() } ?? JSONObject()
        object["server"] = ["origin": .string(server.origin.description), "installationId": .string(server.installationId),
                            "organizationName": .string(server.organizationName)]
        object["url"] = page?.uri.map(JSONValue.string) ?? .null
        object["loading"] = .string(page?.loadFinished == true ? "revealed" : "loading")
        object["error"] = .null
        object["steps"] = .array(steps.map { step in
            ["name": .string(step.name), "ok": .bool(step.ok), "detail": .string(step.detail),
             "screenshot": step.screenshot.map(JSONValue.string) ?? .null]
        })
        return .object(object)
    }

    private func step(_ name: String, _ detail: String, until condition: @escaping () -> Bool) async {
        let ok = await waitUntil(condition)
        try? await Task.sleep(for: .milliseconds(350))  // let the page paint before the picture
        let file = "\(device.rawValue)-\(steps.count + 1)-\(name).png"
        let saved = WindowSnapshot.savePNG(window.window, to: outDirectory + "/" + file)
        steps.append(Step(name: name, ok: ok, detail: ok ? detail : "did not happen within \(Int(stepTimeout)) s: \(detail)",
                          screenshot: saved ? file : nil))
    }

    private func waitUntil(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(stepTimeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(40))
        }
        return condition()
    }
}
