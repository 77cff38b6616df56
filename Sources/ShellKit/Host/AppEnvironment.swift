import HostCore

/// The services a running app's sessions, pages and windows use, made once by the command that
/// starts the app and handed down (app → session → pages), so nothing below the command reaches
/// for a global: the bridge log and the control interface's event stream (where bridge records
/// go), WebDriver's automation host, the system's memory-pressure warnings, the rendering choice
/// made before GTK started, the desktop handoff, and the app's downloads and their
/// notifications. There is one of each per app (one web context may allow automation, one
/// memory monitor, one environment for every web process), but none is a process global.
@MainActor
package struct AppEnvironment {
    let bridgeLog: LogFile?
    /// The control interface's `events` stream (its `ControlServer`s serve it).
    package let events: EventStream
    package let automation: AutomationHost?
    package let memoryPressure: MemoryPressure
    let rendering: RenderingChoice?
    /// Where addresses are handed to the desktop, and the record of it (`ctl state` `external`).
    package let handoff: DesktopHandoff
    /// Every download of the app, and its desktop notifications for them.
    package let downloads: DownloadCenter
    package let downloadNotifier: DownloadNotifier
    /// The simulator's controls: locale, time zone, erase, trusted roots, recording.
    package let deviceControls: DeviceControls
    /// Whether a person can answer the pages' questions (permission prompts): false when the
    /// app runs on a display it started itself (`--check` without one).
    package var attended = true
    /// A throw-away profile's home (a fleet's `--throw-away` app): the app's profile directories
    /// are made under it, not in the user's directories (nil: the user's).
    package var profileRoot: String?
    /// The device the window imitates (`--device`, `--orientation`; the desktop by default):
    /// its chrome, `ctl rotate`, `ctl status-bar` and `ctl state`'s `device`.
    package var device: DeviceHost
    /// The simulator's controls (`ctl privacy|appearance|contrast|text-size|location|pasteboard`).
    package let simulator: SimulatorControls

    /// The services, made once by the command: `rendering` as `MainLoop.startGTK` chose it, the
    /// bridge log (`--bridge-log`) and the automation host (`--automation`, enabled before any
    /// page is made).
    package init(rendering: RenderingChoice?, bridgeLog: LogFile? = nil, automation: AutomationHost? = nil) {
        self.rendering = rendering
        self.bridgeLog = bridgeLog
        self.automation = automation
        events = EventStream()
        memoryPressure = MemoryPressure()
        handoff = DesktopHandoff()
        downloads = DownloadCenter(handoff: handoff)
        downloadNotifier = DownloadNotifier(downloads: downloads)
        device = DeviceHost(.desktop, ownDisplay: false)
        simulator = SimulatorControls()
        deviceControls = DeviceControls()
        deviceControls.events = events
    }

    /// Records one bridge message to the log file and the event streams, whichever is there;
    /// the record is only made when someone takes it.
    package func record(_ make: @autoclosure () -> String) {
        guard bridgeLog != nil || events.isListening else { return }
        let line = make()
        bridgeLog?.write(line)
        events.bridge(line)
    }

    /// A warning for the developer, beside the stderr line the caller writes: to the event
    /// stream (`warning`) and, when it concerns a page's bridge (`bridgeContext`: the page's
    /// context), to the bridge log as a record of its own (`"dir":"warning"`, which replay skips).
    package func warn(_ fields: JSONObject, bridgeContext: String? = nil) {
        if let bridgeLog, let bridgeContext {
            var record: JSONObject = ["t": .number(wallClockSeconds()), "dir": "warning", "context": .string(bridgeContext)]
            for member in fields.members { record[member.key] = member.value }
            bridgeLog.write(BridgeLog.line(record))
        }
        events.warning(fields)
    }

    /// A profile's network session in its directories (WebKit's automation session under
    /// `--automation`).
    package func networkSession(data: String, cache: String) -> NetworkSessionPointer {
        automation?.networkSession ?? ProfileSession.make(data: data, cache: cache)
    }
}
