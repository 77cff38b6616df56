import CGtk
import CapacitorShell
import Foundation
import HostCore
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// The demo's scripted tour of the reference Studio on one device, in the real app (`ShellApp`,
/// as `hostshell open` runs it) and driven the way the control interface drives it: negotiate,
/// tap a destination, open a detail page and go back natively, open a sheet from a row's native
/// menu and close it, show Studio's fleet map natively and close it, follow a deep link, then try to leave an edit page with unsaved changes,
/// answer the native alert with Keep Editing and see the selection roll back. Each step is
/// checked against the native state and photographed.
@MainActor
package final class Tour {
    package struct Step {
        var name: String
        var ok: Bool
        var detail: String
        var screenshot: String?
    }

    let device: DeviceProfile
    let server: FixtureServer
    let outDirectory: String
    let stepTimeout: Double
    let environment: AppEnvironment
    private(set) var steps: [Step] = []
    private var app: ShellApp!
    private var control: ControlHandler!

    init(device: DeviceProfile, server: FixtureServer, outDirectory: String, stepTimeout: Double, environment: AppEnvironment) {
        self.environment = environment
        self.device = device
        self.server = server
        self.outDirectory = outDirectory
        self.stepTimeout = stepTimeout
    }

    var passed: Bool { !steps.isEmpty && steps.allSatisfy(\.ok) }

    /// The reference Studio as a saved server (its identity is the fixture's own).
    private var record: ServerRecord? {
        guard case .success(let address) = ServerAddress.parse(server.baseURL) else { return nil }
        return ServerRecord(id: "reference-studio-\(device.rawValue)", name: server.organizationName, address: address,
                            identity: ServerIdentity(installationId: server.installationId, organizationName: server.organizationName))
    }

    /// The app on the reference Studio, as `hostshell open` would make it (not yet started).
    func openApp(credentials: CredentialStore) -> ShellApp? {
        guard let record else { return nil }
        app = ShellApp(records: [record], opening: record, device: device, inspector: false, credentials: credentials,
                       environment: environment)
        control = ControlHandler(app: app, allowEval: true)
        return app
    }

    package func run(credentials: CredentialStore) async {
        guard let app = openApp(credentials: credentials) else {
            steps.append(Step(name: "start", ok: false, detail: "the reference Studio's address \(server.baseURL) did not parse"))
            return
        }
        app.start()
        let base = server.baseURL

        await step("negotiate", "Studio negotiated and the native \(device.usesTabs ? "tabs show" : "sidebar shows") its catalog",
                   until: ["screen": "page", "negotiated": true, "navigation.selected": "overview"])
        guard passed else { return }

        // Every step leaves the window looking different from every other, so each picture
        // shows what that step did.
        await send(.app(AppCommand("tap", ["destination": "media"])))
        await step("tap-destination", "a native tap on Media selected it and Studio followed",
                   until: ["navigation.selected": "media", "url": .string(base + "/media")])

        await send(.app(AppCommand("tap", ["destination": "screens"])))
        _ = await waitFor(["navigation.selected": "screens", "url": .string(base + "/screens")])
        await send(.eval(script: #"document.querySelector('a[href="/screens/lobby-north"]')?.click(); true"#))
        _ = await waitFor(["backBar.title": "Lobby north"])
        await send(.eval(script: #"document.querySelector('a[href="/screens/lobby-north/edit"]')?.click(); true"#))
        await step("open-detail", "two pages down, Edit screen shows the native back bar labelled Screen",
                   until: ["backBar.label": "Screen", "backBar.title": "Edit screen"])

        await send(.back)
        await step("native-back", "the native back button went up one page, to Lobby north (back bar labelled Screens)",
                   until: ["backBar.label": "Screens", "backBar.title": "Lobby north", "url": .string(base + "/screens/lobby-north")])
        await send(.back)
        _ = await waitFor(["backBar": .null, "url": .string(base + "/screens")])

        _ = await waitFor(["presentation.ready": true, "menus.triggers.0": "row-cafeteria"])
        // The row's "⋯" is a native button laid over Studio's (§6 anchored menus): a click on it.
        await send(.app(AppCommand("trigger", ["menu": "row-lobby-north"])))
        await step("row-menu", "a screen row's \"⋯\" is a native button over Studio's; its click opened Studio's native action menu, anchored there",
                   until: ["menus.open": "row-lobby-north", "menus.openFrom": "trigger"])
        await send(.app(AppCommand("menu", ["action": "preview"])))
        await step("open-sheet", "Live Preview opened at once in a native \(device == .phone ? "sheet rising from the bottom" : "modal panel") from the prewarmed page",
                   until: ["presentation.shown.revealed": true, "presentation.shown.title": "Lobby north",
                           "presentation.lastOpen.prewarmed": true])
        await send(.app(AppCommand("sheet-dismiss")))
        _ = await waitFor(["presentation.shown": .null, "presentation.ready": true])
        // A second sheet in a row, on the same page (§6: one presentation page, reused).
        await send(.app(AppCommand("trigger", ["menu": "row-cafeteria", "action": "preview"])))
        await step("second-sheet", "a second sheet in a row (Cafeteria's Live Preview) on the same page: no new page booted",
                   until: ["presentation.shown.revealed": true, "presentation.shown.title": "Cafeteria", "presentation.pageBoots": 1])
        await send(.app(AppCommand("sheet-dismiss")))
        await step("close-sheet", "Close ended the sheet; its page stays ready, hidden, for the next one",
                   until: ["presentation.shown": .null, "presentation.ready": true, "presentation.pageBoots": 1])

        // Studio's fleet map, natively: drawn by the points' coordinates (no tiles here).
        await send(.eval(script: "document.getElementById('fleet-map').click(); true"))
        await step("fleet-map", "Studio's fleet map opened as a native \(device == .phone ? "sheet" : "panel beside the page"), its points drawn by their coordinates with a legend (no map tiles offline)",
                   until: ["map.mapId": "fleet", "map.points.3.id": "warehouse"])
        await send(.app(AppCommand("map", ["done": true])))
        _ = await waitFor(["map": .null])

        await send(.openURL("tilecast-ios://open?installation=\(server.installationId)&path=%2Fplaylists"))
        await step("deep-link", "a tilecast-ios:// link took Studio to Playlists",
                   until: ["navigation.selected": "playlists", "url": .string(base + "/playlists")])

        await send(.eval(script: #"history.pushState({}, "", "/screens/lobby-north/edit"); dispatchEvent(new PopStateEvent("popstate")); true"#))
        _ = await waitFor(["backBar.title": "Edit screen"])
        await send(.eval(script: """
            (() => { const input = document.getElementById("screen-name");
                     input.value += " (renamed)"; input.dispatchEvent(new Event("input", { bubbles: true })); return true; })()
            """))
        // The person chooses Media natively; Studio asks first, natively.
        await send(.app(AppCommand("tap", ["destination": "media"])))
        await step("native-alert", "leaving unsaved changes asked through a native alert",
                   until: ["alert.title": "Discard your unsaved changes?"])
        await send(.app(AppCommand("alert", ["action": "no"])))
        await step("roll-back", "Keep Editing kept the page; the native selection rolled back to Screens",
                   until: ["alert": .null, "navigation.selected": "screens", "url": .string(base + "/screens/lobby-north/edit")])
    }

    /// Closes the app's window and session (the next device gets a fresh one).
    func finish() {
        app?.close()
    }

    /// The native state after the tour, for state.json.
    func report() -> JSONValue {
        var object = app.map { HostState.json($0).objectValue ?? JSONObject() } ?? JSONObject()
        object["steps"] = .array(steps.map { step in
            ["name": .string(step.name), "ok": .bool(step.ok), "detail": .string(step.detail),
             "screenshot": step.screenshot.map(JSONValue.string) ?? .null]
        })
        return .object(object)
    }

    /// Carries out one control command, as `hostshell ctl` would.
    private func send(_ command: ControlCommand) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            control.handle(ControlRequest(command: command)) { answer in
                if answer.contains(#""ok":false"#) { printError("hostshell demo: \(answer)") }
                done.resume()
            }
        }
    }

    private func step(_ name: String, _ detail: String, until conditions: JSONObject) async {
        let ok = await waitFor(conditions)
        try? await Task.sleep(for: .milliseconds(350))  // let the page paint before the picture
        let file = "\(device.rawValue)-\(steps.count + 1)-\(name).png"
        // The renderer can be between frames (a busy machine): try again shortly, a few times.
        var saved = WindowSnapshot.savePNG(app.window.window, to: outDirectory + "/" + file)
        for _ in 0..<10 where !saved {
            try? await Task.sleep(for: .milliseconds(100))
            saved = WindowSnapshot.savePNG(app.window.window, to: outDirectory + "/" + file)
        }
        if !saved { printError("hostshell demo: could not take the picture of step \(name)") }
        let unmet = StatePredicate(conditions).unmet(in: HostState.json(app)).joined(separator: "; ")
        steps.append(Step(name: name, ok: ok, detail: ok ? detail : "did not happen within \(Int(stepTimeout)) s: \(detail) (\(unmet))",
                          screenshot: saved ? file : nil))
    }

    private func waitFor(_ conditions: JSONObject) async -> Bool {
        let predicate = StatePredicate(conditions)
        let deadline = Date().addingTimeInterval(stepTimeout)
        while Date() < deadline {
            if predicate.holds(in: HostState.json(app)) { return true }
            try? await Task.sleep(for: .milliseconds(40))
        }
        return predicate.holds(in: HostState.json(app))
    }
}
