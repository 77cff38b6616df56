import CGtk
import Foundation
import HostCore

/// The device a running app imitates (`--device`, `--orientation`), as the window carries it
/// out: the orientation it is held in now (`ctl rotate`), the status bar's values (live, or
/// `ctl status-bar` overrides), and what the page was measured to see, for `ctl state`'s
/// `device` (with its `fidelity` report). The catalogue, the overrides' checks and the fidelity
/// entries are decided in HostCore; this only keeps them and tells the chrome.
@MainActor
package final class DeviceHost {
    package private(set) var choice: DeviceChoice
    /// HostShell started the display (its own Xvfb, at the device's size and scale).
    package let ownDisplay: Bool
    /// The orientation the display was made in.
    let startedIn: DeviceOrientation
    package private(set) var override: StatusBarOverride?
    /// Called when the orientation or the status bar's values change (the chrome redraws).
    var onChange: [@MainActor () -> Void] = []
    /// Called when the window is resized by hand (`ctl resize`): it may then be smaller than the device.
    var onResizedByHand: [@MainActor () -> Void] = []
    private var clock: TimerBank<String>?
    private var live = DeviceHost.liveValues()
    /// What the page read (`DeviceFidelity.probeScript`), and for which page and orientation.
    private var measured: JSONObject?
    private var measuredKey: String?
    private var measuring: String?

    package init(_ choice: DeviceChoice, ownDisplay: Bool) {
        self.choice = choice
        self.ownDisplay = ownDisplay
        startedIn = choice.orientation
        guard choice.model != nil else { return }
        clock = TimerBank { [weak self] _ in self?.tick() }
        scheduleTick()
    }

    /// Whether the window is a device's (chrome drawn, turns); false on the desktop.
    package var isDevice: Bool { choice.model != nil }

    /// What the status bar shows now.
    package var statusBar: StatusBarValues { override?.applied(to: live) ?? live }

    /// Turns the device (the other way when `to` is nil); the window follows.
    package func rotate(to: DeviceOrientation?) -> Result<DeviceOrientation, ControlError> {
        guard let turned = choice.rotated(to: to) else {
            return .failure(ControlError("rotate turns a phone or tablet: start the app with --device NAME (hostshell devices lists them), not desktop"))
        }
        choice = turned
        changed()
        return .success(turned.orientation)
    }

    /// Applies `ctl status-bar` (nil: clear).
    package func setStatusBar(_ change: StatusBarOverride?) -> ControlError? {
        guard isDevice else { return ControlError("status-bar applies to a phone or tablet: start the app with --device NAME, not desktop") }
        override = change.map { (override ?? StatusBarOverride()).merged($0) }
        changed()
        return nil
    }

    /// The window is being resized by hand (`ctl resize`).
    package func resizedByHand() { for body in onResizedByHand { body() } }

    private func changed() { for body in onChange { body() } }

    private static func liveValues() -> StatusBarValues {
        let now = Calendar.current.dateComponents([.hour, .minute], from: Date())
        return .live(hour: now.hour ?? 0, minute: now.minute ?? 0)
    }

    /// The time shown follows the clock: again at the start of each minute.
    private func scheduleTick() {
        let second = Calendar.current.component(.second, from: Date())
        clock?.perform(.start("minute", after: Double(60 - second)))
    }

    private func tick() {
        let next = Self.liveValues()
        if next != live {
            live = next
            changed()
        }
        scheduleTick()
    }

    /// `ctl state`'s `device`; reading it starts a new measurement of `page` when the page or the
    /// orientation changed since the last (the answer shows in the next state).
    package func json(page: WebPage) -> JSONValue {
        guard let model = choice.model else {
            return ["name": "desktop", "profile": "desktop", "scale": .number(1), "size": choice.size.json, "fidelity": .array([])]
        }
        // Measured again when the page, the orientation or the page's room changes.
        let view = cgtk_widget(UnsafeMutableRawPointer(page.view))
        let room = view.map { "\(gtk_widget_get_width($0))x\(gtk_widget_get_height($0))" } ?? ""
        let key = "\(page.uri ?? "")|\(choice.orientation.rawValue)|\(room)"
        if key != measuredKey && measuring != key { measure(page, key: key) }
        let metrics = choice.metrics
        var statusBar = statusBar.json.objectValue ?? [:]
        statusBar["height"] = .number(Double(metrics.statusBar))
        statusBar["shown"] = .bool(metrics.statusBar > 0)
        statusBar["overridden"] = .bool(override != nil)
        let upToDate = key == measuredKey
        let entries = DeviceFidelity.expected(choice, ownDisplay: ownDisplay, startedIn: startedIn)
        return ["name": .string(model.id), "model": .string(model.name), "profile": .string(model.idiom),
                "orientation": .string(choice.orientation.rawValue), "scale": .number(Double(model.scale)),
                "size": choice.size.json, "pixels": model.pixelSize(choice.orientation).json,
                "pageSize": PointSize(choice.size.width, choice.pageHeight).json,
                "safeArea": metrics.safeArea.json, "homeIndicator": .number(Double(metrics.homeIndicator)),
                "statusBar": .object(statusBar),
                "display": .string(ownDisplay ? "HostShell's own Xvfb" : "yours"),
                "measured": .bool(upToDate),
                "fidelity": DeviceFidelity.report(entries, measured: upToDate ? measured : nil)]
    }

    private func measure(_ page: WebPage, key: String) {
        measuring = key
        // In a world of its own: the page's scripts neither see nor change what it reads.
        page.callAsync("return " + DeviceFidelity.probeScript, world: "hostshell-device-probe") { [weak self] result in
            guard let self, self.measuring == key else { return }
            self.measuring = nil
            // A window still turning is measured again at the next state.
            guard case .success(let value) = result, let object = value.objectValue,
                  object["orientationMedia"] == .string(self.choice.orientation.rawValue),
                  (object["viewport"]?.objectValue?["width"]?.numberValue ?? 0) > 0 else { return }
            self.measured = object
            self.measuredKey = key
        }
    }
}
