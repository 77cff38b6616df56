/// `hostshell doctor`: what this machine has and lacks for HostShell, and what to do about each
/// thing it lacks. The glue gathers the facts; what they mean — which are needed, which only
/// limit a feature, and the advice — is decided here.
public struct MachineFacts: Sendable, Equatable {
    /// `DISPLAY` or `WAYLAND_DISPLAY` as set (nil when neither is).
    public var displayName: String?
    /// Whether GTK could open that display.
    public var displayOpens: Bool
    /// Programs found on `PATH`, by name (`Xvfb`, `xvfb-run`, `dbus-run-session`, `WebKitWebDriver`).
    public var programs: Set<String>
    /// Whether a session bus answered (`DBUS_SESSION_BUS_ADDRESS`).
    public var sessionBus: Bool
    /// Nil when the Secret Service answered a lookup; else what went wrong.
    public var secretServiceProblem: String?
    /// Whether a notification server owns `org.freedesktop.Notifications` on the session bus.
    public var notificationServer: Bool
    /// Whether the screen saver can be inhibited (`org.freedesktop.ScreenSaver`), for kiosks.
    public var screenSaver: Bool
    /// Whether `/dev/dri` has a render node.
    public var gpuRenderNode: Bool
    /// Whether unprivileged user namespaces are allowed (WebKit's sandbox needs them).
    public var userNamespaces: Bool
    /// Whether `WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS` is set.
    public var sandboxDisabled: Bool
    /// Which of `MediaSupport.elements` GStreamer has (nil: GStreamer could not be loaded).
    public var mediaElements: Set<String>?
    /// `WEBKIT_GST_ENABLE_HLS_SUPPORT` as web processes will see it (after HostShell's own setting).
    public var hlsValue: String?

    public init(displayName: String? = nil, displayOpens: Bool = false, programs: Set<String> = [], sessionBus: Bool = false,
                secretServiceProblem: String? = "not checked", notificationServer: Bool = false, screenSaver: Bool = false,
                gpuRenderNode: Bool = false, userNamespaces: Bool = true, sandboxDisabled: Bool = false,
                mediaElements: Set<String>? = Set(MediaSupport.elements.map(\.name)), hlsValue: String? = "1") {
        self.displayName = displayName; self.displayOpens = displayOpens; self.programs = programs
        self.sessionBus = sessionBus; self.secretServiceProblem = secretServiceProblem
        self.notificationServer = notificationServer; self.screenSaver = screenSaver
        self.gpuRenderNode = gpuRenderNode; self.userNamespaces = userNamespaces; self.sandboxDisabled = sandboxDisabled
        self.mediaElements = mediaElements; self.hlsValue = hlsValue
    }
}

/// One line of the report.
public struct MachineCheck: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Present and working.
        case ok
        /// Missing, but only a feature is limited (the advice says which).
        case limited
        /// Missing, and HostShell cannot open a window here until it is fixed.
        case missing
    }

    public let name: String
    public let status: Status
    /// What was found, in a few words.
    public let found: String
    /// What to do (empty when nothing is needed).
    public let advice: String

    public var json: JSONValue {
        ["name": .string(name), "status": .string(status.rawValue), "found": .string(found), "advice": .string(advice)]
    }
}

public enum MachineReport {
    /// The checks, in the order a person fixes them.
    public static func checks(_ facts: MachineFacts) -> [MachineCheck] {
        var checks: [MachineCheck] = []
        let xvfb = facts.programs.contains("Xvfb") && facts.programs.contains("xvfb-run")
        switch (facts.displayName, facts.displayOpens) {
        case (let name?, true):
            checks.append(MachineCheck(name: "display", status: .ok, found: "\(name) opens", advice: ""))
        case (let name?, false):
            checks.append(MachineCheck(name: "display", status: xvfb ? .limited : .missing, found: "\(name) is set but does not open",
                                       advice: xvfb ? "check DISPLAY, or run headless: xvfb-run -a hostshell …"
                                                    : "check DISPLAY, or install Xvfb (apt-get install xvfb xauth) and run xvfb-run -a hostshell …"))
        case (nil, _):
            checks.append(MachineCheck(name: "display", status: xvfb ? .limited : .missing, found: "no DISPLAY or WAYLAND_DISPLAY",
                                       advice: xvfb ? "windows need a display: run in a desktop session, or headless with xvfb-run -a hostshell … (open --check, demo and probe start their own Xvfb)"
                                                    : "install Xvfb to run headless (apt-get install xvfb xauth), or run in a desktop session"))
        }
        checks.append(xvfb ? MachineCheck(name: "xvfb", status: .ok, found: "Xvfb and xvfb-run", advice: "")
                           : MachineCheck(name: "xvfb", status: .limited, found: "not installed",
                                          advice: "headless runs (CI, open --check, demo --headless) need it: apt-get install xvfb xauth"))
        if facts.sessionBus {
            checks.append(MachineCheck(name: "session-bus", status: .ok, found: "a session bus answers", advice: ""))
        } else {
            checks.append(MachineCheck(name: "session-bus", status: .limited, found: "no session bus",
                                       advice: facts.programs.contains("dbus-run-session")
                                           ? "the keyring, notifications and single-instance links need one: run under dbus-run-session -- hostshell …"
                                           : "the keyring, notifications and single-instance links need one: apt-get install dbus-daemon, then dbus-run-session -- hostshell …"))
        }
        if let problem = facts.secretServiceProblem {
            checks.append(MachineCheck(name: "secret-service", status: .limited, found: "does not answer (\(problem))",
                                       advice: "credentials go to owner-only files in each profile instead; for the keyring: apt-get install gnome-keyring, and unlock it (scripts/with-keyring shows how headless)"))
        } else {
            checks.append(MachineCheck(name: "secret-service", status: .ok, found: "answers", advice: ""))
        }
        checks.append(facts.notificationServer
            ? MachineCheck(name: "notifications", status: .ok, found: "a notification server answers", advice: "")
            : MachineCheck(name: "notifications", status: .limited, found: "no notification server on the session bus",
                           advice: "notifications are recorded in `ctl state` instead of shown; a desktop session has one (or apt-get install notification-daemon)"))
        checks.append(facts.screenSaver
            ? MachineCheck(name: "screen-saver", status: .ok, found: "can be inhibited", advice: "")
            : MachineCheck(name: "screen-saver", status: .limited, found: "no screen saver to inhibit",
                           advice: "a kiosk cannot keep the screen awake through the session; disable blanking in the session's settings"))
        checks.append(facts.programs.contains("WebKitWebDriver")
            ? MachineCheck(name: "webdriver", status: .ok, found: "WebKitWebDriver", advice: "")
            : MachineCheck(name: "webdriver", status: .limited, found: "WebKitWebDriver is not installed",
                           advice: "Selenium and other WebDriver clients need it: apt-get install webkit2gtk-driver"))
        checks.append(facts.gpuRenderNode
            ? MachineCheck(name: "gpu", status: .ok, found: "a render node in /dev/dri", advice: "")
            : MachineCheck(name: "gpu", status: .limited, found: "no render node in /dev/dri",
                           advice: "HostShell draws on the CPU (GTK with cairo, WebKit with Skia's CPU painting); nothing to do"))
        if facts.userNamespaces {
            checks.append(MachineCheck(name: "web-sandbox", status: .ok, found: facts.sandboxDisabled ? "user namespaces allowed (but the sandbox is disabled by the environment)" : "user namespaces allowed",
                                       advice: facts.sandboxDisabled ? "unset WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: this machine can sandbox web processes" : ""))
        } else if facts.sandboxDisabled {
            checks.append(MachineCheck(name: "web-sandbox", status: .limited, found: "no user namespaces; the sandbox is disabled",
                                       advice: "web processes run unsandboxed; allow user namespaces (e.g. Docker: --security-opt seccomp=unconfined) to sandbox them"))
        } else {
            checks.append(MachineCheck(name: "web-sandbox", status: .missing, found: "no unprivileged user namespaces",
                                       advice: "WebKit's sandbox cannot start: allow user namespaces (sysctl kernel.unprivileged_userns_clone=1, or Docker --security-opt seccomp=unconfined), or set WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1 for trusted servers only"))
        }
        return checks + MediaSupport.checks(present: facts.mediaElements, hlsValue: facts.hlsValue)
    }

    /// 0 when HostShell can open its window here (nothing is `missing`), else 1.
    public static func exitStatus(_ checks: [MachineCheck]) -> Int32 {
        checks.contains { $0.status == .missing } ? 1 : 0
    }

    /// The report as a person reads it: one line per check, advice indented under it.
    public static func text(_ checks: [MachineCheck]) -> String {
        let width = checks.map(\.name.count).max() ?? 0
        var lines: [String] = []
        for check in checks {
            let mark = switch check.status { case .ok: "ok     "; case .limited: "limited"; case .missing: "MISSING" }
            lines.append("\(mark)  \(check.name.padding(to: width))  \(check.found)")
            if !check.advice.isEmpty { lines.append(String(repeating: " ", count: 11 + width) + "→ " + check.advice) }
        }
        let missing = checks.filter { $0.status == .missing }.map(\.name)
        lines.append(missing.isEmpty ? "HostShell can run here." : "HostShell cannot open its window here until this is fixed: \(missing.joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }

    public static func json(_ checks: [MachineCheck]) -> JSONValue {
        ["canRun": .bool(exitStatus(checks) == 0), "checks": .array(checks.map(\.json))]
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
