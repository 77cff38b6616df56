import CGtk
import HostCore

/// One kind of app HostShell hosts, as the host core sees it — the seam between what every
/// hosted app needs and what one app contract adds (see docs/architecture.md). The Studio app
/// (`ShellApp`, over the Studio bridge) is one; a Capacitor app is another, added beside it
/// without touching it. Like a cog platform module, it is a handful of entry points: the core
/// owns the control interface, the event stream, WebDriver's session, snapshots, the kiosk
/// mode and the process-wide services; the app owns its pages, its bridge and its chrome.
@MainActor
package protocol HostedApp: AnyObject {
    /// The process-wide services it was made with.
    var environment: AppEnvironment { get }
    /// The app's top-level window (snapshots, resizing, kiosk mode).
    var windowWidget: WidgetPointer { get }
    /// The page the app is showing now: the control interface's `eval` and page snapshots, and
    /// the view a WebDriver session drives.
    var mainWebPage: WebPage { get }
    /// What the window shows (loading, the page, an error of a kind), decided in BridgeRuntime.
    var screen: Screen { get }
    /// Hung web processes its loading machine ended so far (`HangWatch`).
    var hungProcessesEnded: Int { get }
    /// The app's part of `ctl state`: its own keys (the core adds `screen`, `status`, `url`,
    /// `rendering`, `external`, `permissions`, `webProcess`, `objects`).
    func stateMembers() -> JSONObject
    /// The app contract's own control commands, besides the core's: the core refuses any other
    /// name before the app sees it, listing these.
    var controlVocabularies: [any ControlVocabulary.Type] { get }
    /// Carries out a control command the core hands on: the core's own that need the app
    /// (`reload`, `back`, `open-url`, `permission`, `lifecycle`, `action`, `download`, `eval`
    /// in a sheet) and the app's own (`.app`, one of `controlVocabularies`), answering it with
    /// `ok` or `fail` — a command it has no use for included, saying so. (The core keeps
    /// `state`, `wait`, `events`, `snapshot`, `eval` of the main page, `resize` and
    /// `memory-pressure`.)
    func handle(_ command: ControlCommand, ok: @escaping @MainActor (JSONValue) -> Void,
                fail: @escaping @MainActor (String) -> Void)
    /// Shows the window and starts loading.
    func start()
    /// `ctl privacy` changed `kinds` (`answer` nil: reset) after the profile's answers: the app
    /// tells its own native side (a Capacitor app's plugins). Nothing by default.
    func privacyChanged(_ kinds: [PrivacyKind], answer: Bool?)
}

extension HostedApp {
    package func privacyChanged(_ kinds: [PrivacyKind], answer: Bool?) {}
}

/// The state every hosted app reports, with the app's own keys added.
@MainActor
package enum HostState {
    package static func json(_ app: any HostedApp) -> JSONValue {
        var state = app.stateMembers()
        state["screen"] = .string(app.screen.name)
        state["status"] = app.screen.statusJSON
        state["url"] = app.mainWebPage.uri.map(JSONValue.string) ?? .null
        state["rendering"] = app.environment.rendering?.json ?? .null
        state["external"] = app.environment.handoff.record.json
        state["permissions"] = app.mainWebPage.permissions.machine.json
        state["webProcess"] = ["responsive": .bool(app.mainWebPage.isResponsive), "hungEnded": .number(Double(app.hungProcessesEnded))]
        state["objects"] = LiveObjects.json
        state["device"] = app.environment.device.json(page: app.mainWebPage)
        state["privacy"] = PrivacyState.json(app.mainWebPage.permissions.machine.remembered)
        state["appearance"] = app.environment.simulator.appearanceJSON
        state["location"] = app.environment.simulator.locationJSON
        state["pasteboard"] = app.environment.simulator.pasteboardJSON
        for member in app.environment.deviceControls.stateMembers.members { state[member.key] = member.value }
        return .object(state)
    }
}
