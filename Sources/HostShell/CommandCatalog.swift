import HostCore

/// Every subcommand's usage, summary and options: what `hostshell help` and `hostshell COMMAND
/// --help` print, and what the dispatcher checks a command's options against
/// (`CommandLineRules`). A command whose options change changes its entry here.
enum CommandCatalog {
    static let device = OptionSpec("--device", value: "NAME", "the device imitated: iphone-se, iphone-16, iphone-16-pro, iphone-16-pro-max, ipad-mini, ipad-air, ipad-pro-13 (hostshell devices), phone, tablet or desktop")
    static let orientation = OptionSpec("--orientation", value: "portrait|landscape", "how a named device is held at the start (ctl rotate turns it)")
    static let timeout = OptionSpec("--timeout", value: "SECONDS", "how long to wait (0 < S ≤ 600)")
    static let credentialStore = OptionSpec("--credential-store", value: "auto|secret-service|file", "where the app's sign-in credential is kept")
    static let control = OptionSpec("--control", value: "SOCKET", "serve the control interface (hostshell ctl) on this Unix socket")
    static let allowEval = OptionSpec("--allow-eval", "let ctl eval run scripts in the page (with --control)")
    static let grant = OptionSpec("--grant", value: "KIND", "start with a privacy kind granted (repeatable; camera, microphone, location, notifications, photos, clipboard, motion or all)")
    static let revoke = OptionSpec("--revoke", value: "KIND", "start with a privacy kind denied (repeatable), as ctl privacy revoke")
    static let bridgeLog = OptionSpec("--bridge-log", value: "FILE", "append every bridge message, both ways, to FILE as JSON lines")

    /// The simulator's settings at launch (`open`, `capacitor`).
    static let deviceLaunch: [OptionSpec] = DeviceLaunchOptions.flags.map { OptionSpec($0.name, value: $0.value, $0.help) }

    /// What names a Capacitor app (`capacitor`, and `replay` of its log).
    static let capacitorApp: [OptionSpec] = [
        OptionSpec("--web-dir", value: "DIR", "serve DIR (overrides webDir)"),
        OptionSpec("--url", value: "URL", "load a live dev server instead (as server.url)"),
        OptionSpec("--app-id", value: "ID", "the bundle id (overrides appId; names the profile)"),
        OptionSpec("--app-name", value: "NAME", "the name shown (overrides appName)"),
        OptionSpec("--link-scheme", value: "SCHEME", "a link scheme the app handles (repeatable)"),
        OptionSpec("--apns-environment", value: "sandbox|production", "what HomeSecDevice reports"),
    ]

    /// The options of `open`; `kiosk` takes part of them.
    static let openOptions: [OptionSpec] = [
        device, orientation,
        OptionSpec("--inspector", "enable WebKit's web inspector"),
        control, allowEval, credentialStore, grant, revoke,
        OptionSpec("--open-url", value: "LINK", "open a tilecast-ios:// deep link once Studio is ready"),
        bridgeLog,
        OptionSpec("--no-prewarm", "load sheets when they open instead of keeping one ready"),
        OptionSpec("--automation", "let WebKitWebDriver drive the page (browserName \"hostshell\")"),
        OptionSpec("--check", "print what the window shows as JSON and exit (headless if need be)"),
        timeout,
    ] + deviceLaunch
    /// What `kiosk` refuses of `open`'s options: it runs unattended and opens nothing else.
    static let kioskRefuses: Set<String> = ["--orientation", "--inspector", "--check", "--automation", "--open-url", "--timeout", "--no-prewarm"]

    /// Words in lines of at most 96 columns, indented two spaces.
    static func listed(_ words: [String]) -> String {
        var lines = [""]
        for word in words {
            if !lines[lines.count - 1].isEmpty && lines[lines.count - 1].count + word.count + 2 > 94 { lines.append("") }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : ", ") + word
        }
        return lines.map { "  " + $0 }.joined(separator: ",\n")
    }

    static let all: [CommandSpec] = [
        CommandSpec("contract", usage: ["contract check FILE…"],
                    summary: "Run conformance corpora (the format of messages-v1.json) against this host's bridge codec;\nprints failures and \"N passed, N failed\".",
                    options: []),
        CommandSpec("server", usage: ["server add URL [--name NAME] [--allow-http] [--trust-root-cert FILE.pem]", "server list [--json]", "server remove ID"],
                    summary: "The saved servers: verified by their identity, stored under $XDG_CONFIG_HOME/hostshell/servers.json.",
                    options: [OptionSpec("--name", value: "NAME", "add: the name shown (default: the organisation's)"),
                              OptionSpec("--allow-http", "add: save a plain-http local address without asking"),
                              OptionSpec("--trust-root-cert", value: "FILE.pem", "add: check a server on a private CA against this root"),
                              OptionSpec("--json", "list: print the servers as JSON")]),
        CommandSpec("open", usage: ["open [SERVER-ID] [OPTIONS]"],
                    summary: "Open a saved server's Studio in the app window, with its own website data.",
                    options: openOptions),
        CommandSpec("capacitor", usage: ["capacitor [PROJECT-DIR] [--web-dir DIR | --url URL] [--app-id ID] [OPTIONS]", "capacitor --uninstall-links"],
                    summary: "Run a Capacitor app as its iOS shell does: its bundle from capacitor://localhost (or a dev\nserver), the Capacitor runtime and plugins, its own profile per app id.",
                    options: Array(capacitorApp.prefix(5)) + [OptionSpec("--open-url", value: "LINK", "start with LINK as the launch URL")]
                        + capacitorApp.suffix(1) + deviceLaunch + [credentialStore, device, orientation,
                              OptionSpec("--inspector", "enable WebKit's web inspector"),
                              control, allowEval, grant, revoke, bridgeLog,
                              OptionSpec("--automation", "let WebKitWebDriver drive the page (browserName \"hostshell\")"),
                              OptionSpec("--check", "print what the window shows as JSON and exit (headless if need be)"),
                              timeout,
                              OptionSpec("--kiosk", "run unattended: full screen, failures retried, nothing handed out"),
                              OptionSpec("--chrome", "with --kiosk: keep the header bar"),
                              OptionSpec("--cursor-timeout", value: "SECONDS", "with --kiosk: hide the pointer after this long without movement"),
                              OptionSpec("--uninstall-links", "remove the desktop entries HostShell wrote for Capacitor apps' links, and their defaults")]),
        CommandSpec("fleet", usage: ["fleet --control SOCKET [--pool K] [--headless]"],
                    summary: "Host many isolated apps in one process, opened and closed over SOCKET (hostshell fleet-ctl): each\nwith its own profile (or a throw-away one), network session, web process, window and control\nsocket (SOCKET.ID, for hostshell ctl). Ends on SIGTERM or Ctrl+C, closing every app.",
                    options: [OptionSpec("--control", value: "SOCKET", "the fleet's Unix socket (required)"),
                              OptionSpec("--pool", value: "K", "keep K prewarmed throw-away slots, so a throw-away open only loads its page (default 2, 0 to 8)"),
                              OptionSpec("--headless", "run the apps on the fleet's own Xvfb even when there is a display")]),
        CommandSpec("fleet-ctl", usage: ["fleet-ctl SOCKET open [--throw-away] -- open|capacitor ARGS…", "fleet-ctl SOCKET close ID", "fleet-ctl SOCKET list"],
                    summary: "Open an app in a fleet with the arguments hostshell open or capacitor takes (not --control,\n--check, --automation, --kiosk, --locale, --timezone or --trust-root-cert: the fleet gives the\nsocket, the rest are one per process) and print its id and control socket; close one app; list\nthem. --throw-away: a profile made for the app and removed when it closes (prewarmed slots of the\nfleet's --pool serve Capacitor apps).",
                    options: [OptionSpec("--throw-away", "open: on a throw-away profile")],
                    checksOptions: false),
        CommandSpec("kiosk", usage: ["kiosk [SERVER-ID] [--chrome] [--cursor-timeout S] [OPTIONS]"],
                    summary: "Run a saved server's Studio unattended: full screen, no native chrome, pointer hidden,\nfailures retried, screen kept awake.",
                    options: [OptionSpec("--chrome", "show the native chrome (tabs or sidebar)"),
                              OptionSpec("--cursor-timeout", value: "SECONDS", "hide the pointer after this long without movement")]
                        + openOptions.filter { !kioskRefuses.contains($0.name) }),
        CommandSpec("open-url", usage: ["open-url 'tilecast-ios://open?installation=…&path=…'"],
                    summary: "Open a deep link in the running app (or start it with the link).", options: []),
        CommandSpec("ctl", usage: ["ctl SOCKET COMMAND [ARGS…]"],
                    summary: "Read or drive a running app (open, capacitor or device hermes with --control SOCKET). The core's commands,\nwhich every app takes (an app says which it has no use for), then each app's own; the README tells what each does:\n"
                        + listed(ControlCommand.names) + CtlCommand.vocabularies.map { "\n\($0.title):\n" + listed($0.names) }.joined(),
                    options: [OptionSpec("--timeout", value: "SECONDS", "wait, events: how long to wait"),
                              OptionSpec("--page", "snapshot: the page only, without the native chrome"),
                              OptionSpec("--sheet", "eval: in the shown sheet's page"),
                              OptionSpec("--kind", value: "bridge|state", "events: which events (repeatable)"),
                              OptionSpec("--count", value: "N", "events: stop after N events"),
                              OptionSpec("--image", value: "FILE", "scan: decode a QR code from a picture"),
                              OptionSpec("--cancel", "scan: cancel the open scan")],
                    checksOptions: false),
        CommandSpec("replay", usage: ["replay LOG [SERVER-ID] [--device D] [--timeout S] [--verbose]",
                                      "replay LOG [PROJECT-DIR] [--web-dir DIR | --url URL] [--app-id ID] [OPTIONS]"],
                    summary: "Send a bridge log's messages again to a fresh run of its app and report every answer that\ndiffers from the recorded one: Studio's (open --bridge-log) to the saved server, a Capacitor\napp's plugin calls (capacitor --bridge-log) to the app, on a throw-away profile.",
                    options: [device, timeout, credentialStore, OptionSpec("--verbose", "print every reply, not only the differing ones")]
                        + capacitorApp),
        CommandSpec("serve", usage: ["serve --reference [OPTIONS]", "serve --homesec [OPTIONS]"],
                    summary: "Serve the reference Studio, or a HomeSec-like API, on loopback until interrupted.",
                    options: [OptionSpec("--reference", "the reference Studio"),
                              OptionSpec("--homesec", "the HomeSec-like API (see serve --homesec --help)"),
                              OptionSpec("--port", value: "N", "listen on 127.0.0.1:N, 1–65535 (default: a free port)"),
                              OptionSpec("--installation", value: "UUID", "reference: the installation id it reports"),
                              OptionSpec("--organization", value: "NAME", "reference: the organisation name it reports"),
                              OptionSpec("--fail", value: "PATH=STATUS", "answer PATH with an HTTP error (repeatable)"),
                              OptionSpec("--tls", value: "DIR", "reference: HTTPS with DIR/cert.pem and DIR/key.pem"),
                              OptionSpec("--root", value: "DIR", "reference: serve DIR's files in place of the reference Studio's (tests: media streams)"),
                              OptionSpec("--require-sign-in", "reference: Studio wants a sign-in"),
                              OptionSpec("--auto-approve", "reference: the approve page approves at once"),
                              OptionSpec("--auto-deny", "reference: the approve page denies at once"),
                              OptionSpec("--legacy-auth", "reference: the older sign-in exchange"),
                              OptionSpec("--token-lifetime", value: "SECONDS", "reference: credential lifetime, 1–86400"),
                              OptionSpec("--oauth-issuer", value: "URL", "reference: the issuer it names"),
                              OptionSpec("--bench-token", value: "TOKEN", "reference: a ready credential, for benchmarks"),
                              OptionSpec("--auth", value: "on|off", "homesec: whether the API wants the key"),
                              OptionSpec("--token", value: "T", "homesec: the API key"),
                              OptionSpec("--cors-origin", value: "ORIGIN", "homesec: allow this origin only (repeatable)"),
                              OptionSpec("--unhealthy", "homesec: the health check answers 503"),
                              OptionSpec("--web-dir", value: "DIR", "homesec: also serve a web app from DIR"),
                              OptionSpec("--apns-bundle-id", value: "ID", "homesec: push events to this app's devices"),
                              OptionSpec("--apns-base-url", value: "URL", "homesec: where the notifier posts (the APNs stand-in)"),
                              OptionSpec("--apns-environment", value: "sandbox|production", "homesec: the devices it pushes to"),
                              OptionSpec("--apns-key-id", value: "ID", "homesec: the signing key's id"),
                              OptionSpec("--apns-team-id", value: "ID", "homesec: the team id"),
                              OptionSpec("--apns-key", value: "PEM", "homesec: the signing key's file (.p8)")]),
        CommandSpec("apns", usage: ["apns serve --team ID --key KEYID=PUBLIC.pem… [OPTIONS]",
                                    "apns token --team ID --key-id KEYID --key-file AuthKey.p8 [--new]"],
                    summary: "Apple's push provider API on loopback (HTTP/1.1, h2c, h2 over TLS): provider tokens, headers\nand payloads checked as Apple does, every push recorded, faults injectable (apns serve --help).",
                    options: [OptionSpec("--team", value: "ID", "the team id provider tokens carry"),
                              OptionSpec("--key", value: "KEYID=PUBLIC.pem", "a signing key's public half (repeatable)"),
                              OptionSpec("--sandbox-port", value: "N", "the sandbox listener's port"),
                              OptionSpec("--production-port", value: "N", "the production listener's port"),
                              OptionSpec("--tls", value: "DIR", "also TLS (ALPN h2) with DIR/cert.pem and DIR/key.pem"),
                              OptionSpec("--topic", value: "BUNDLE-ID", "a bundle id the team may push to (repeatable)"),
                              OptionSpec("--device", value: "TOKEN=BUNDLE-ID[@ENV]", "a device token's app and environment (repeatable)"),
                              OptionSpec("--record", value: "FILE", "append one JSON line per request"),
                              OptionSpec("--fault", value: "WHO=WHAT", "inject a fault (repeatable)"),
                              OptionSpec("--seed", value: "N", "the seed for random faults"),
                              OptionSpec("--token-update-interval", value: "S", "shortest time between new provider tokens"),
                              OptionSpec("--verbose", "serve: say each request on stderr"),
                              OptionSpec("--key-id", value: "KEYID", "token: the signing key's id"),
                              OptionSpec("--key-file", value: "FILE", "token: the signing key (AuthKey_KEYID.p8)"),
                              OptionSpec("--new", "token: sign a new one rather than reuse the kept one")]),
        CommandSpec("hermes-gateway", usage: ["hermes-gateway serve --secret S --team ID --key-id K --key-file P8 --topic B --apns-sandbox URL …"],
                    summary: "The Hermes push gateway (/register, /push with hpc1 capabilities) in front of an APNs\nprovider API such as apns serve (hermes-gateway serve --help).",
                    options: [OptionSpec("--secret", value: "S", "the gateway secret"),
                              OptionSpec("--team", value: "ID", "the team id of its provider tokens"),
                              OptionSpec("--key-id", value: "KEYID", "the signing key's id"),
                              OptionSpec("--key-file", value: "FILE", "the signing key (AuthKey_KEYID.p8)"),
                              OptionSpec("--topic", value: "BUNDLE-ID", "the app's bundle id"),
                              OptionSpec("--apns-sandbox", value: "URL", "the provider API for sandbox tokens"),
                              OptionSpec("--apns-production", value: "URL", "the provider API for production tokens"),
                              OptionSpec("--port", value: "N", "listen on 127.0.0.1:N"),
                              OptionSpec("--no-token-cache", "keep the provider token in memory only")]),
        CommandSpec("hermes-server", usage: ["hermes-server serve --session-token T [--gateway URL] [--hub STATE] [--not-installed] [--port N]"],
                    summary: "A Hermes-like server with the hermes-push plugin (its routes, hub entry and sender) for\nthe emulated phone (hermes-server serve --help).",
                    options: [OptionSpec("--session-token", value: "T", "the app's X-Hermes-Session-Token"),
                              OptionSpec("--gateway", value: "URL", "the gateway's push URL (default: $HERMES_PUSH_GATEWAY_URL)"),
                              OptionSpec("--hub", value: "enabled|disabled|inactive|absent", "how the hub lists hermes-push"),
                              OptionSpec("--not-installed", "the plugin is not installed"),
                              OptionSpec("--port", value: "N", "listen on 127.0.0.1:N")]),
        CommandSpec("device", usage: ["device [--socket] SOCKET SIMCTL-COMMAND [ARGS…]", "device hermes --server URL --session-token T --control SOCKET [--name N] [--cold-start]"],
                    summary: "Xcode's simctl commands for a running app (privacy, ui, location, pbcopy, status_bar, erase,\nkeychain, io recordVideo, …) sent as ctl commands (device --help has the table); device hermes\nis Hermes' phone without a page (device hermes --help).",
                    options: [OptionSpec("--server", value: "URL", "the Hermes server"),
                              OptionSpec("--session-token", value: "T", "the signed-in session's token"),
                              OptionSpec("--control", value: "SOCKET", "the control socket (hostshell ctl SOCKET …)"),
                              OptionSpec("--name", value: "N", "the device's profile name (hermes)"),
                              OptionSpec("--environment", value: "sandbox|production", "the app build's APNs environment"),
                              OptionSpec("--bundle-id", value: "ID", "the app's bundle id, the topic of its pushes (com.example.hermes)"),
                              OptionSpec("--cold-start", "start as if launched from a notification: not ready until hermes ready")]),
        CommandSpec("demo", usage: ["demo [--headless] [--out DIR] [--device D]… [--step-timeout S]", "demo --capacitor [OPTIONS]"],
                    summary: "Run the bundled reference Studio; headless (automatic without a display) it runs a scripted\ntour and writes state.json and PNGs.",
                    options: [OptionSpec("--headless", "run the scripted tour on a private display"),
                              OptionSpec("--capacitor", "tour the reference Capacitor app instead (see demo --capacitor --help)"),
                              OptionSpec("--out", value: "DIR", "where the tour writes state.json and its pictures (demo-out)"),
                              OptionSpec("--device", value: "phone|tablet|desktop", "tour this device (repeatable; default all)"),
                              OptionSpec("--step-timeout", value: "SECONDS", "how long a step may take (0 < S ≤ 600)")]),
        CommandSpec("devices", usage: ["devices [--json]"],
                    summary: "List the iPhones and iPads --device can name: points, scale, status bar, home indicator and\nsafe-area insets; --json adds what a page sees here and why it differs (fidelity).",
                    options: [OptionSpec("--json", "print the catalogue as JSON, with the fidelity section")]),
        CommandSpec("probe", usage: ["probe (URL | --reference [--path PATH] [--host NAME]) [OPTIONS]"],
                    summary: "Open a Studio in a window, wait for negotiation and native chrome, print the native state\nas JSON (needs a display).",
                    options: [OptionSpec("--reference", "serve and open the reference Studio"),
                              OptionSpec("--path", value: "PATH", "with --reference: the path to open"),
                              OptionSpec("--host", value: "NAME", "with --reference: a local host name to load it under"),
                              device, timeout,
                              OptionSpec("--screenshot", value: "FILE.png", "save a picture of the window"),
                              OptionSpec("--until-title", value: "PREFIX", "wait until the page's title starts with PREFIX"),
                              OptionSpec("--profile", value: "DIR", "keep website data in DIR instead of a throw-away session")]),
        CommandSpec("bench", usage: ["bench codec [--seconds S | --count N] [--json] FILE…", "bench live URL",
                                     "bench upload ORIGIN FILE TOKEN", "bench capacitor WEB-DIR", "bench control SOCKET [--count N]", "bench rendering",
                                     "bench push CONTROL-SOCKET APNS-URL KEY.p8 KEYID TEAM [--count N]", "bench push --floor SOCKET [--count N]"],
                    summary: "Measurements for scripts/bench: the codec's throughput, the live host, uploads, the control\ninterface's round trip, a Capacitor app's start and plugin calls, the rendering set-up.",
                    options: [OptionSpec("--seconds", value: "S", "codec: measure for S seconds (0 < S ≤ 600)"),
                              OptionSpec("--count", value: "N", "codec: a fixed number of iterations; control: requests"),
                              OptionSpec("--json", "codec: one JSON line per file"),
                              OptionSpec("--floor", value: "SOCKET", "push: time bench/push_floor.c instead")]),
        CommandSpec("doctor", usage: ["doctor [--json]"],
                    summary: "Report what this machine has and lacks for HostShell (display, session bus, Secret Service,\nnotifications, WebDriver, GPU, sandbox) and what to install.",
                    options: [OptionSpec("--json", "one JSON object: {\"canRun\", \"checks\": [{name, status, found, advice}]}")]),
        CommandSpec("help", usage: ["help"], summary: "Show this help.", options: []),
        CommandSpec("push", usage: ["push [APP-ID|DEVICE-TOKEN] FILE.apns"],
                    summary: "Deliver a simctl-style payload file to an app on this machine as APNs would: a running app\nnow (foreground or background), an app not running at its next start (push --help).",
                    options: []),
    ]

    static func spec(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
