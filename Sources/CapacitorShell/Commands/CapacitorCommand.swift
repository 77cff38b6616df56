import CGtk
import CapacitorContract
import Foundation
import HostCore
import Push
import ShellKit

/// `hostshell capacitor [PROJECT] …`: runs a Capacitor app as its iOS shell does — the bundle
/// from `capacitor://localhost` (or a dev server), the Capacitor runtime in its main frame, the
/// built-in plugins — in a window with the app's own profile. Every host-wide flag works as for
/// `open`: `--device`, `--control` (and `ctl`), `--bridge-log`, `--automation`, `--check`.
package enum CapacitorCommand {
    package static let usage = """
        usage: hostshell capacitor [PROJECT-DIR | CONFIG.json] [options]

        Runs a Capacitor app as its iOS shell does: webDir served from capacitor://localhost (a
        path without a file extension gets index.html), the Capacitor runtime and plugins in its
        main frame, its own persistent profile per app id ($XDG_DATA_HOME/hostshell/apps/ID).
        The configuration is PROJECT-DIR/capacitor.config.json, else the iOS sync output
        PROJECT-DIR/ios/App/App/capacitor.config.json (serving ios/App/App/public), else
        PROJECT-DIR/capacitor.config.ts when its exported object is plain data (read, not run);
        the current directory when neither a project nor --web-dir/--url is given.

        The app:
          --web-dir DIR           serve DIR (overrides webDir)
          --url URL               load a live dev server instead (as server.url)
          --app-id ID             the bundle id (overrides appId; names the profile)
          --app-name NAME         the name shown (overrides appName)
          --link-scheme SCHEME    a link scheme the app handles (repeatable; default: the last
                                  part of the app id, e.g. homesec for com.example.homesec):
                                  hostshell open-url SCHEME://… reaches the running app,
                                  and so do the desktop's links (an entry is written to
                                  $XDG_DATA_HOME/applications/APP-ID.desktop)
          --open-url LINK         start with LINK as the launch URL (App.getLaunchUrl); when
                                  the app already runs, hand it LINK instead
          --apns-environment sandbox|production
                                  what HomeSecDevice reports (default sandbox)
          --credential-store auto|secret-service|file
                                  where HomeSecAuth keeps its entries: the Secret Service
                                  (service homesec) when one answers, else an owner-only file
                                  in the app's profile (default auto)
        The host:
          --device NAME           the device imitated (default phone): iphone-se, iphone-16,
                                  iphone-16-pro, iphone-16-pro-max, ipad-mini, ipad-air,
                                  ipad-pro-13 (or Apple's name), phone (an iPhone 16), tablet
                                  (an iPad Air) or desktop; hostshell devices lists them
          --orientation portrait|landscape
                                  how the device is held (default portrait; ctl rotate turns it)
          --inspector             enable WebKit's inspector (right-click, Inspect)
          --locale LL-CC          the page's locale, e.g. fr-FR (navigator.language, Intl)
          --timezone AREA/CITY    the page's time zone, e.g. Europe/Paris
          --trust-root-cert FILE  trust this private root (PEM) for the app's servers (repeatable)
          --control SOCKET        serve the control interface (hostshell ctl SOCKET …):
                                  state, wait, events, snapshot, resize, memory-pressure,
                                  reload, back, lifecycle focus|blur|hide|show, open-url LINK,
                                  permission grant|deny, push-token rotate,
                                  push deliver|tap PAYLOAD-JSON,
                                  notification activate|dismiss ID,
                                  rotate [portrait|landscape],
                                  status-bar --time HH:MM --battery N … | clear
          --allow-eval            let ctl eval run scripts in the page (tests only; with --control)
          --grant KIND, --revoke KIND   start with a privacy kind granted or denied (repeatable;
                                  camera, microphone, location, notifications, photos,
                                  clipboard, motion or all), as ctl privacy does
          --bridge-log FILE       append every bridge message and console line to FILE (JSON lines)
          --automation            let WebKitWebDriver drive the page (browserName "hostshell")
          --kiosk                 run unattended: full screen, no header bar, pointer hidden after
                                  --cursor-timeout S (default 3), failures retried, nothing
                                  handed to the desktop; --chrome keeps the header bar
          --check                 load, wait for the app to boot (its bridge calls, then 0.5 s
                                  without one; or, with none, 2 s after its first paint), print
                                  what the window shows as JSON with what the app did under
                                  "boot" (plugin calls, console errors, unimplemented calls),
                                  and exit (0 when the page showed); starts its own Xvfb
                                  without a display
          --timeout SECONDS       how long --check waits (default 30)
          --help                  this help

        usage: hostshell capacitor --uninstall-links
          removes every desktop entry HostShell wrote for a Capacitor app's links
          ($XDG_DATA_HOME/applications/APP-ID.desktop, marked X-HostShell-App) and the
          desktop's defaults naming them (mimeapps.list); says what it removed
        """

    package struct Options {
        package init() {}
        var project: String?
        package var webDir: String?
        var url: String?
        package var appId: String?
        var appName: String?
        var linkSchemes: [String] = []
        var openURL: String?
        var apns = APNsEnvironment.sandbox
        package var credentialStore = "auto"
        package var device = DeviceProfile.phone
        package var deviceChoice = DeviceChoice.phone
        var orientation: String?
        var inspector = false
        var control: String?
        var allowEval = false
        var privacy = PrivacyLaunch()
        /// `--locale`, `--timezone`, `--trust-root-cert`.
        var deviceLaunch = DeviceLaunchOptions()
        var bridgeLog: String?
        var automation = false
        var check = false
        var timeout = 30.0
        var kiosk: KioskOptions?
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options? {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String, _ what: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { throw UsageError("\(flag) takes \(what)") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": return nil
            case "--web-dir": options.webDir = try value(argument, "the directory of the built web app (its index.html)")
            case "--url":
                let url = try value(argument, "the dev server's address, e.g. http://localhost:5173")
                guard CapacitorConfig.isWebURL(url) else { throw UsageError("--url takes an http:// or https:// address with a host, not \(TerminalText.escaped(url))") }
                options.url = url
            case "--app-id":
                let id = try value(argument, "the app's bundle id, e.g. com.example.app")
                do throws(CapacitorConfigError) { try CapacitorAppId.check(id) } catch { throw UsageError("--app-id: \(error.message)") }
                options.appId = id
            case "--app-name": options.appName = try value(argument, "the app's name")
            case "--link-scheme":
                let scheme = try value(argument, "a URL scheme, e.g. homesec").lowercased()
                guard CapacitorURL.scheme(of: scheme + ":") == scheme, !CapacitorConfig.reservedSchemes.contains(scheme), scheme != "tilecast-ios" else {
                    throw UsageError("--link-scheme takes a URL scheme of the app's own (letters, digits, + - .), not \(TerminalText.escaped(scheme))")
                }
                options.linkSchemes.append(scheme)
            case "--open-url":
                let link = try value(argument, "a link, e.g. homesec://live")
                guard CapacitorURL.scheme(of: link) != nil else { throw UsageError("--open-url takes a link with a scheme, e.g. homesec://live") }
                options.openURL = link
            case "--apns-environment":
                guard let word = rest.popFirst(), let environment = APNsEnvironment(flag: word) else { throw UsageError(APNsEnvironment.flagError) }
                options.apns = environment
            case "--credential-store":
                guard let word = rest.popFirst(), ["auto", "secret-service", "file"].contains(word) else { throw UsageError(SecretStoreKind.flagError) }
                options.credentialStore = word
            case "--device":
                guard let word = rest.popFirst() else { throw UsageError(DeviceChoice.unknown("")) }
                options.deviceChoice = try DeviceChoice.parse(word).get()
                options.device = options.deviceChoice.profile
            case "--orientation": options.orientation = try value(argument, "portrait or landscape")
            case "--inspector": options.inspector = true
            case _ where DeviceLaunchOptions.owns(argument): try options.deviceLaunch.take(argument, rest.popFirst())
            case "--control": options.control = try value(argument, "the path of the Unix socket to serve")
            case "--allow-eval": options.allowEval = true
            case "--grant", "--revoke": try options.privacy.take(argument, rest.popFirst())
            case "--bridge-log": options.bridgeLog = try value(argument, "the file to append the bridge's messages to")
            case "--automation": options.automation = true
            case "--check": options.check = true
            case "--kiosk": options.kiosk = options.kiosk ?? KioskOptions()
            case "--chrome":
                options.kiosk = options.kiosk ?? KioskOptions()
                options.kiosk?.chrome = true
            case "--cursor-timeout":
                guard let seconds = rest.popFirst().flatMap(Double.init), KioskOptions.cursorTimeoutRange.contains(seconds) else {
                    throw UsageError("--cursor-timeout takes seconds from \(KioskOptions.cursorTimeoutRange.lowerBound) to \(Int(KioskOptions.cursorTimeoutRange.upperBound))")
                }
                options.kiosk = options.kiosk ?? KioskOptions()
                options.kiosk?.cursorTimeout = seconds
            case "--timeout":
                guard let seconds = rest.popFirst().flatMap(Double.init), seconds > 0, seconds <= 600 else {
                    throw UsageError("--timeout takes a number of seconds between 0 and 600")
                }
                options.timeout = seconds
            default:
                guard !argument.hasPrefix("-"), options.project == nil else {
                    throw UsageError("unknown option \(TerminalText.escaped(argument)); hostshell capacitor --help lists them")
                }
                options.project = argument
            }
        }
        if let orientation = options.orientation { options.deviceChoice.orientation = try DeviceChoice.parseOrientation(orientation).get() }
        options.deviceChoice = try options.deviceChoice.checked(orientationGiven: options.orientation != nil).get()
        if options.allowEval && options.control == nil { throw UsageError("--allow-eval only applies with --control SOCKET") }
        if options.automation && options.check { throw UsageError("--automation waits for a WebDriver session; it cannot be combined with --check") }
        if options.kiosk != nil && (options.check || options.inspector) { throw UsageError("--kiosk runs unattended: --check and --inspector do not apply") }
        if options.webDir != nil && options.url != nil { throw UsageError("give --web-dir or --url, not both") }
        return options
    }

    /// What the flags and the configuration say about the app.
    package static func launch(_ options: Options, plugins: CapacitorPluginSet) throws(UsageError) -> CapacitorLaunch {
        var found: CapacitorProject.Found
        if options.project == nil && (options.webDir != nil || options.url != nil) {
            // The app's name (and, below, version) from the nearest project around the web directory.
            found = options.webDir.flatMap(CapacitorProject.nearest)
                ?? CapacitorProject.Found(config: CapacitorConfig(), file: nil, base: FileManager.default.currentDirectoryPath)
        } else {
            found = try CapacitorProject.read(options.project ?? FileManager.default.currentDirectoryPath)
        }
        var config = found.config
        if let url = options.url { config.server.url = url }
        var webDir: String?
        if config.server.url == nil || options.webDir != nil {
            config.server.url = nil
            guard let dir = options.webDir ?? config.webDir.map({ $0.hasPrefix("/") ? $0 : found.base + "/" + $0 }) else {
                throw UsageError("\(found.file ?? "the configuration") has no webDir and no server.url; pass --web-dir DIR or --url URL")
            }
            webDir = dir
        }
        let appId: String
        if let id = options.appId ?? config.appId {
            appId = id
        } else {
            let name = config.server.url.flatMap { Origin(url: $0)?.host } ?? webDir.map { URL(fileURLWithPath: $0).standardizedFileURL.deletingLastPathComponent().lastPathComponent } ?? "app"
            appId = CapacitorAppId.derived(from: name)
            printError("hostshell: no app id given; using \(appId) (its profile is kept under that name; --app-id sets it)")
        }
        let name = options.appName ?? config.appName ?? appId
        let originText: String
        let origin: Origin
        if let url = config.server.url, let server = Origin(url: url) {
            originText = server.description
            origin = server
        } else {
            guard let appOrigin = Origin(appScheme: config.server.iosScheme, host: config.server.hostname) else {
                throw UsageError("the app scheme \(config.appOrigin) cannot be used")
            }
            originText = config.appOrigin
            origin = appOrigin
        }
        var schemes = options.linkSchemes
        if schemes.isEmpty, let last = appId.split(separator: ".").last.map({ $0.lowercased() }),
           CapacitorURL.scheme(of: last + ":") == last, !CapacitorConfig.reservedSchemes.contains(last) {
            schemes = [last]
        }
        let info = CapacitorAppInfo(appId: appId, appName: name, appVersion: CapacitorProject.version(in: found.base)
                                        ?? options.webDir.flatMap(CapacitorProject.nearestVersion),
                                    deviceName: CapacitorHostFacts.deviceName(), apnsEnvironment: options.apns.rawValue,
                                    pluginConfig: config.plugins)
        let startURL = config.server.url ?? originText + "/"
        let source = found.file.map { "\($0)" } ?? "flags"
        return CapacitorLaunch(info: info, appId: appId, displayName: name, startURL: startURL, originText: originText, origin: origin,
                               webDir: webDir, device: options.device, source: source, linkSchemes: schemes,
                               plugins: plugins)
    }
}
