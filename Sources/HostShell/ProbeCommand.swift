import CGtk
import CapacitorContract
import CapacitorShell
import DevFixtures
import Glibc
import HostCore
import Push
import PushShell
import ShellKit
import StudioContract
import StudioShell

/// `hostshell probe URL|--reference`: opens a Studio in a real window, waits until it has
/// negotiated and the native chrome is drawn, prints the native state as JSON, and exits 0 —
/// or exits 1 with the state so far when that does not happen in time. A quick way to see what
/// the host makes of a Studio, and what tests drive.
enum ProbeCommand {
    static let usage = """
        usage: hostshell probe (URL | --reference [--path PATH] [--host NAME]) [--device phone|tablet|desktop]
                               [--timeout SECONDS] [--screenshot FILE.png] [--until-title PREFIX] [--profile DIR]
        """

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        var target: String?
        var reference = false
        var device = DeviceProfile.phone
        var timeout = 20.0
        var screenshot: String?
        var path = "/"
        var host: String?
        var untilTitle: String?
        var profile: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--reference": reference = true
            case "--device":
                guard let value = rest.popFirst(), let profile = DeviceProfile(rawValue: value) else {
                    throw UsageError("--device takes phone, tablet or desktop")
                }
                device = profile
            case "--timeout":
                guard let value = rest.popFirst().flatMap({ CommandLineRules.seconds($0, in: 0.001...600) }) else {
                    throw UsageError("--timeout takes a number of seconds between 0 and 600")
                }
                timeout = value
            case "--path":
                guard let value = rest.popFirst(), StudioPath.checkSafe(value, maxLength: StudioPath.maxLength) == nil else {
                    throw UsageError("--path takes a path on the reference Studio, starting with /")
                }
                path = value
            case "--host":
                // Load the reference Studio under another host name (another origin, same server).
                guard let value = rest.popFirst(), ServerAddress.isValidHost(value), ServerAddress.isLocal(value) else {
                    throw UsageError("--host takes a local host name such as localhost")
                }
                host = value
            case "--profile":
                // A persistent profile (website data and cookies) instead of an ephemeral one.
                guard let value = rest.popFirst(), !value.isEmpty else { throw UsageError("--profile takes a directory") }
                profile = value
            case "--until-title":
                guard let value = rest.popFirst(), !value.isEmpty else { throw UsageError("--until-title takes a title prefix") }
                untilTitle = value
            case "--screenshot":
                guard let value = rest.popFirst(), value.hasSuffix(".png") else {
                    throw UsageError("--screenshot takes a file name ending in .png")
                }
                screenshot = value
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option \(argument); \(usage)") }
                guard target == nil else { throw UsageError("probe takes one URL; \(usage)") }
                target = argument
            }
        }
        guard reference != (target != nil) else { throw UsageError(usage) }
        if !reference && (path != "/" || host != nil) { throw UsageError("--path and --host go with --reference") }
        var origin: Origin? = nil
        if let target {
            // A server address, or a page URL on one: the page's origin must pass the address policy.
            let candidate = Origin(url: target)?.description ?? target
            switch ServerAddress.parse(candidate) {
            case .success(let address): origin = address.origin
            case .failure(let problem): throw UsageError(problem.description)
            }
        }
        let rendering = try MainLoop.startGTK(noDisplay: "no display to open a window on: run under xvfb-run -a, or set DISPLAY")
        return MainActor.assumeIsolated {
            Probe(url: target, origin: origin, device: device, timeout: timeout, screenshot: screenshot,
                  path: path, host: host, untilTitle: untilTitle, profile: profile, environment: AppEnvironment(rendering: rendering)).run()
        }
    }
}

@MainActor
private final class Probe {
    let url: String?
    var origin: Origin?
    let device: DeviceProfile
    let timeout: Double
    let screenshot: String?
    let path: String
    let host: String?
    let untilTitle: String?
    let profile: String?
    let loop = g_main_loop_new(nil, 0)
    var server: FixtureServer?
    var page: StudioPage?
    var window: StudioWindow?
    var pageHost: ChromeOnlyHost?
    var succeeded = false
    var settling = false
    /// The services its page uses, as an app's (see `AppEnvironment`).
    let environment: AppEnvironment

    init(url: String?, origin: Origin?, device: DeviceProfile, timeout: Double, screenshot: String?,
         path: String, host: String?, untilTitle: String?, profile: String?, environment: AppEnvironment) {
        self.environment = environment
        self.profile = profile
        self.path = path
        self.host = host
        self.untilTitle = untilTitle
        self.url = url
        self.origin = origin
        self.device = device
        self.timeout = timeout
        self.screenshot = screenshot
    }

    func run() -> Int32 {
        var address = url
        if address == nil {
            guard let root = FixtureServer.locateReferenceStudio() else {
                printError("hostshell probe: the reference Studio (fixtures/studio) was not found; set HOSTSHELL_STUDIO_DIR")
                return ExitCode.usage
            }
            let server = FixtureServer(root: root)
            do { try server.start() } catch {
                printError("hostshell probe: \(error.message)")
                return ExitCode.failure
            }
            self.server = server
            origin = server.origin
            address = "http://\(host ?? "127.0.0.1"):\(server.port)" + path
        }
        guard let origin, let address else { return ExitCode.usage }
        let session = profile.map { ProfileSession.make(data: $0 + "/data", cache: $0 + "/cache") }
            ?? webkit_network_session_new_ephemeral()!
        let page = StudioPage(.own(session: session, automation: false), context: .main, profile: device, serverOrigin: origin,
                              available: [.nativeNavigation], environment: environment)
        self.page = page
        let window = StudioWindow(page: page, title: "HostShell probe")
        self.window = window
        window.present()
        let pageHost = ChromeOnlyHost(view: window.view) { [unowned self] in self.check() }
        self.pageHost = pageHost
        page.host = pageHost
        if untilTitle != nil {
            // Titles change without bridge traffic: look at them as the page runs.
            onNotify(UnsafeMutableRawPointer(page.view), "title") { [unowned self] in self.check() }
        }
        page.load(address)
        MainLoop.after(milliseconds: UInt32(timeout * 1000)) { [unowned self] in self.finish(success: false) }
        g_main_loop_run(loop)
        return succeeded ? ExitCode.success : ExitCode.failure
    }

    /// Done when the page shows the title asked for, or else when it negotiated and has chrome.
    func check() {
        guard !settling, let page else { return }
        if let untilTitle {
            guard page.web.title?.hasPrefix(untilTitle) == true else { return }
        } else {
            guard page.session.negotiated, page.web.loadFinished, page.session.nativeChrome.layout != .none,
                  page.session.activeDestinationId != nil else { return }
        }
        // Let the page paint before the state (and picture) is taken.
        settling = true
        MainLoop.after(milliseconds: 400) { [unowned self] in self.finish(success: true) }
    }

    func finish(success: Bool) {
        guard g_main_loop_is_running(loop) != 0 else { return }
        succeeded = success
        if let page {
            var report = StateReport.json(page.session).objectValue ?? JSONObject()
            report["url"] = page.uri.map(JSONValue.string) ?? .null
            report["loadFinished"] = .bool(page.web.loadFinished)
            report["title"] = page.web.title.map(JSONValue.string) ?? .null
            report["messagesReceived"] = .number(Double(page.messagesReceived))
            printJSON(JSONWriter.string(.object(report)))
        }
        if let screenshot, let window, !WindowSnapshot.savePNG(window.window, to: screenshot) {
            printError("hostshell probe: could not save the screenshot to \(screenshot)")
        }
        if !success { printError("hostshell probe: the page did not negotiate and draw native chrome within \(Int(timeout)) s") }
        g_main_loop_quit(loop)
    }
}
