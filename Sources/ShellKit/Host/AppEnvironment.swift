import HostCore

/// The process-wide services a running app's sessions and pages use, gathered once by the
/// command that starts the app and handed down (app → session → pages), so nothing below the
/// command reaches for a global: the bridge log and the control interface's event stream (where
/// bridge records go), WebDriver's automation host, the system's memory-pressure warnings, and
/// the rendering choice made before GTK started. Each is process-wide by nature (one web context
/// may allow automation, one memory monitor, one environment for every web process).
@MainActor
package struct AppEnvironment {
    let bridgeLog: BridgeLogFile?
    let events: EventStream
    package let automation: AutomationHost?
    package let memoryPressure: MemoryPressure
    let rendering: RenderingChoice?
    /// Where addresses are handed to the desktop, and the record of it (`ctl state` `external`).
    package var handoff: DesktopHandoff = .shared
    /// Whether a person can answer the pages' questions (permission prompts): false when the
    /// app runs on a display it started itself (`--check` without one).
    package var attended = true

    /// The services as the command set them up (`--bridge-log`, `--automation`, rendering).
    package static func current() -> AppEnvironment {
        AppEnvironment(bridgeLog: BridgeLogFile.current, events: .shared, automation: AutomationHost.current,
                       memoryPressure: .shared, rendering: RenderingSetup.choice)
    }

    /// Records one bridge message to the log file and the event streams, whichever is there;
    /// the record is only made when someone takes it.
    package func record(_ make: @autoclosure () -> String) {
        guard bridgeLog != nil || events.isListening else { return }
        let line = make()
        bridgeLog?.write(line)
        events.bridge(line)
    }

    /// A profile's network session in its directories (WebKit's automation session under
    /// `--automation`).
    package func networkSession(data: String, cache: String) -> NetworkSessionPointer {
        automation?.networkSession ?? ProfileSession.make(data: data, cache: cache)
    }
}
