import CGtk
import Glibc
import HostCore
import ShellKit
import StudioShell

/// `hostshell doctor [--json]`: looks at this machine — display, Xvfb, session bus, Secret
/// Service, notifications, screen saver, WebDriver, GPU, WebKit's sandbox, the GStreamer
/// elements and WebKit's HLS switch for media as the phone plays it — and says what it
/// has, what it lacks and what to install (`MachineReport` decides what the facts mean).
@MainActor
enum DoctorCommand {
    static let usage = """
        Usage: hostshell doctor [--json]

        Reports what this machine has and lacks for HostShell (display, Xvfb, session bus,
        Secret Service, notifications, screen saver, WebDriver, GPU, WebKit's sandbox, and media
        as the phone plays it: each GStreamer element WebKit needs for HLS, H.264 and AAC, present
        or missing with the Debian package that gives it, and WebKit's HLS switch), and what to
        install or do about each thing it lacks. It changes nothing.

          --json     one JSON object: {"canRun": bool, "checks": [{name, status, found, advice}]}
          --help     this help

        Exit status: 0 when HostShell can open its window here, 1 when something it needs is
        missing, 2 bad arguments.
        """

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var json = false
        for argument in arguments {
            switch argument {
            case "--json": json = true
            case "--help", "-h": printOut(usage); return ExitCode.success
            default: throw UsageError("doctor: unknown argument \"\(argument)\"; it takes --json (see hostshell doctor --help)")
            }
        }
        let checks = MachineReport.checks(facts())
        if json { printJSON(JSONWriter.string(MachineReport.json(checks))) } else { printOut(MachineReport.text(checks)) }
        return MachineReport.exitStatus(checks)
    }

    /// Gathers the facts; nothing here starts a service (no D-Bus autolaunch, no Xvfb).
    static func facts() -> MachineFacts {
        var facts = MachineFacts()
        let display = [environment("WAYLAND_DISPLAY"), environment("DISPLAY")].compactMap { $0 }.first { !$0.isEmpty }
        facts.displayName = display
        if display != nil {
            RenderingSetup.apply()
            facts.displayOpens = gtk_init_check() != 0
        }
        facts.programs = Set(["Xvfb", "xvfb-run", "dbus-run-session", "WebKitWebDriver"].filter(onPath))
        facts.gpuRenderNode = RenderingSetup.hasGPURenderNode()
        facts.sandboxDisabled = environment("WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS").map { !$0.isEmpty } ?? false
        facts.userNamespaces = userNamespacesAllowed()
        RenderingSetup.apply()  // the media switch as a command sets it (again when the display was opened: it sets only what is unset)
        facts.hlsValue = environment(MediaSupport.hlsVariable)
        facts.mediaElements = GStreamerElements.present(MediaSupport.elements.map(\.name))
        // Without an address GLib would try to autolaunch a bus through X11: a doctor only looks.
        guard environment("DBUS_SESSION_BUS_ADDRESS").map({ !$0.isEmpty }) == true else {
            facts.secretServiceProblem = "no session bus"
            return facts
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            facts.secretServiceProblem = "no session bus"
            g_clear_error(&error)
            return facts
        }
        facts.sessionBus = true
        facts.notificationServer = SessionBus.nameHasOwner(bus, "org.freedesktop.Notifications")
        facts.screenSaver = SessionBus.nameHasOwner(bus, "org.freedesktop.ScreenSaver")
        facts.secretServiceProblem = SessionBus.nameHasOwner(bus, "org.freedesktop.secrets") || SessionBus.activatable(bus, "org.freedesktop.secrets")
            ? CredentialStore.secretServiceProblem() : "nothing provides org.freedesktop.secrets on the session bus"
        g_object_unref(UnsafeMutableRawPointer(bus))
        return facts
    }

    private static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    private static func onPath(_ program: String) -> Bool {
        (environment("PATH") ?? "/usr/bin:/bin").split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    /// Whether a process may make a user namespace (what WebKit's bubblewrap sandbox does):
    /// tried for real with `unshare --user` where it is installed (seccomp filters, as Docker's,
    /// show only then), else read from the kernel's settings.
    private static func userNamespacesAllowed() -> Bool {
        if onPath("unshare") {
            var status: Int32 = 0
            let argv = ["unshare", "--user", "true"]
            var pointers = argv.map { strdup($0) } + [nil]
            defer { pointers.forEach { free($0) } }
            let ran = g_spawn_sync(nil, &pointers, nil, GSpawnFlags(G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_STDERR_TO_DEV_NULL.rawValue),
                                   nil, nil, nil, nil, &status, nil)
            return ran != 0 && status == 0
        }
        for (file, refused) in [("/proc/sys/kernel/unprivileged_userns_clone", "0"), ("/proc/sys/user/max_user_namespaces", "0")] {
            guard let handle = fopen(file, "r") else { continue }
            var buffer = [CChar](repeating: 0, count: 32)
            let line = fgets(&buffer, 32, handle).map { _ in
                String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingWhitespace
            } ?? ""
            fclose(handle)
            if line == refused { return false }
        }
        return true
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}
