import CGtk
import CapacitorContract
import HostCore
import Push
import PushShell
import ShellKit

/// What `hostshell capacitor` decided about the app before anything is shown.
package struct CapacitorLaunch {
    /// Identity and configuration, for the plugins.
    let info: CapacitorAppInfo
    /// The app id its profile is named by.
    package let appId: String
    /// The name the window and the screens use.
    let displayName: String
    /// The first address the page loads: the app scheme's root, or the dev server.
    let startURL: String
    /// `location.origin` of the app's documents, and as an `Origin` for the navigation policy.
    let originText: String
    package let origin: Origin
    /// The web directory served on the app scheme (nil with a dev server).
    package let webDir: String?
    package let device: DeviceProfile
    /// Where the configuration came from, for `ctl state` and the first line printed.
    let source: String
    /// Schemes of links the app handles (`homesec` of `homesec://…`).
    let linkSchemes: [String]
    /// The plugins it runs with: Capacitor's own and those the command adds for the app.
    let plugins: CapacitorPluginSet

    /// A throw-away home for the profile instead of the user's data and cache directories
    /// (`replay`: `ROOT/data/…` and `ROOT/cache/…`).
    var profileRoot: String?

    /// The app's own profile: one per app id, under `hostshell/apps/`, apart from Studio's
    /// `hostshell/servers/`.
    package var dataDirectory: String { (profileRoot.map { $0 + "/data" } ?? String(cString: g_get_user_data_dir())) + "/hostshell/apps/" + appId }
    var cacheDirectory: String { (profileRoot.map { $0 + "/cache" } ?? String(cString: g_get_user_cache_dir())) + "/hostshell/apps/" + appId }
}

/// A Capacitor app as the host core sees it (`HostedApp`): its window (a `HostWindow` with a
/// `ScreenView`), its one `CapacitorPage` on the app's own profile, the loading screens
/// (`CapacitorLoading`), the app's lifecycle (`AppLifecycle`: the window's focus and
/// visibility from `CapacitorWindowWatch`, the system surfaces over the page, notifications
/// opened), and its control commands (`CapacitorApp+Control`).
@MainActor
package final class CapacitorApp: HostedApp {
    package let environment: AppEnvironment
    package let launch: CapacitorLaunch
    package let window: HostWindow
    package let page: CapacitorPage
    private let screenView: ScreenView
    private let loadingLoop: MachineLoop<CapacitorLoading>
    var loading: CapacitorLoading { loadingLoop.machine }
    private var windowWatch: CapacitorWindowWatch?
    /// The app's lifecycle as iOS would run it; its `source` says who drives the window's facts.
    private let lifecycle = MachineLoop(AppLifecycle())
    /// The desktop entry for its link schemes (`CapacitorDesktopLinks`), for `ctl state`.
    var desktopEntry: JSONValue = .null
    /// Links the app was asked to open, newest last (for `ctl state`).
    var linksOpened: [String] = []
    let scheme: CapacitorScheme?
    /// Set when the app runs as a kiosk (`--kiosk`).
    private(set) var kiosk: KioskWindow?
    private let kioskOptions: KioskOptions?
    private lazy var loadingTimers = TimerBank<CapacitorLoading.Timer> { [weak self] timer in self?.loadingEvent(.timerFired(timer)) }
    /// Called whenever the screen changes (`--check`).
    package var onScreenChanged: (() -> Void)?

    package var windowWidget: WidgetPointer { window.window }
    package var mainWebPage: WebPage { page.web }
    package var screen: Screen { loading.screen }
    package var hungProcessesEnded: Int { loading.hang.processesEnded }

    /// `prewarmed`: a fleet's pool slot to run on (its ephemeral session and running web process).
    package init(launch: CapacitorLaunch, scheme: CapacitorScheme?, environment: AppEnvironment, inspector: Bool = false, kiosk kioskOptions: KioskOptions? = nil,
                 prewarmed: PrewarmedView? = nil) {
        self.launch = launch
        self.environment = environment
        self.scheme = scheme
        self.kioskOptions = kioskOptions
        loadingLoop = MachineLoop(CapacitorLoading(appName: launch.displayName, kiosk: kioskOptions != nil))
        let session: NetworkSessionPointer
        if let prewarmed {
            g_mkdir_with_parents(launch.dataDirectory, 0o700)  // the app's own files (secrets, push, permissions)
            session = prewarmed.session
        } else {
            session = environment.automation?.networkSession ?? ProfileSession.make(data: launch.dataDirectory, cache: launch.cacheDirectory)
        }
        scheme?.serve(session: session)
        // A kiosk hands nothing to the desktop and asks no one.
        let trust = PageTrust(origin: launch.origin, handsOut: kioskOptions == nil, profileData: nil, handoff: environment.handoff,
                              attended: environment.attended && kioskOptions == nil, name: launch.displayName)
        var windowRef: (() -> WidgetPointer?)?
        var postRef: ((PluginHostEvent) -> Void)?
        var foregroundRef: (() -> Bool?)?
        var openedRef: ((PluginHostEvent) -> Void)?
        page = CapacitorPage(app: launch.info, origin: launch.originText, session: session, automation: environment.automation != nil,
                             prewarmed: prewarmed, environment: environment, trust: trust, plugins: launch.plugins) { page in
            CapacitorGlueContext(app: launch.info, dataDirectory: launch.dataDirectory, attended: environment.attended,
                                 environment: environment, window: { windowRef?() }, post: { postRef?($0) },
                                 inForeground: { foregroundRef?() }, permissions: page.web.permissions,
                                 page: { [weak page] in page?.web }, notificationOpened: { openedRef?($0) })
        }
        // Every permission answer is logged, so a replay can answer the question as it was.
        page.web.permissions.onAnswered = { [environment] kinds, grant, byApp in
            environment.record(CapacitorLog.permission(at: wallClockSeconds(), kinds: kinds.map(\.rawValue), granted: grant, byApp: byApp))
        }
        let settings = webkit_web_view_get_settings(page.view)
        webkit_settings_set_user_agent(settings, launch.device.userAgent)
        if inspector { webkit_settings_set_enable_developer_extras(settings, 1) }
        let webWidget = cgtk_widget(UnsafeMutableRawPointer(page.view))!
        gtk_widget_set_hexpand(webWidget, 1)
        gtk_widget_set_vexpand(webWidget, 1)
        screenView = ScreenView(content: webWidget)
        let size = launch.device.windowSize
        window = HostWindow(content: screenView.widget, title: launch.displayName, subtitle: launch.originText, size: size,
                            device: kioskOptions == nil ? environment.device : nil)
        windowRef = { [weak self] in self?.window.window }
        postRef = { [weak self] event in self?.page.post(event) }
        openedRef = { [weak self] response in self?.lifecycleEvent(.notificationOpened(response: response)) }
        page.web.onSystemSurface = { [weak self] id, shown in self?.lifecycleEvent(shown ? .surfaceShown(id) : .surfaceClosed(id)) }
        foregroundRef = { [weak self] in (self?.page.bridge.plugin(named: PushNotificationsPlugin.name) as? PushNotificationsPlugin)?.inForeground }
        page.host = self
        screenView.onRetry = { [weak self] in self?.loadingEvent(.retry) }
        page.web.onResponsivenessChange { [weak self] responsive in self?.loadingEvent(.processResponsive(responsive)) }
    }

    package func start() {
        screenView.show(loading.screen)
        kiosk = kioskOptions.map { KioskWindow(window, options: $0) }
        window.present()
        windowWatch = CapacitorWindowWatch(window: window.window) { [weak self] changes in
            for change in changes { self?.lifecycleEvent(.window(change)) }
        }
        loadingEvent(.start)
        page.load(launch.startURL)
    }

    /// A link for the app: as the launch URL before the page runs, else `appUrlOpen`.
    func openURL(_ url: String, launch isLaunch: Bool) {
        linksOpened.append(url)
        if linksOpened.count > 20 { linksOpened.removeFirst() }
        page.post(.openURL(url, launch: isLaunch))
    }

    /// Runs the app's lifecycle: the plugins are told each new state, and the window raised
    /// with the focus in the page when the system gives it back.
    func lifecycleEvent(_ event: AppLifecycle.Event) {
        lifecycle.send(event) { [weak self] effect in
            guard let self else { return }
            switch effect {
            case .post(let hostEvent): self.page.post(hostEvent)
            case .returnFocus:
                self.window.present()
                gtk_widget_grab_focus(cgtk_widget(UnsafeMutableRawPointer(self.page.view)))
            }
        }
    }

    package func close() {
        windowWatch = nil
        page.close()
    }

    func loadingEvent(_ event: CapacitorLoading.Event) {
        let before = loading.screen
        guard loadingLoop.send(event, perform: { self.performLoading($0) }) else { return }  // queued behind the effects running
        if loading.screen != before {
            screenView.show(loading.screen)
            onScreenChanged?()
        }
    }

    private func performLoading(_ effect: CapacitorLoading.Effect) {
        switch effect {
        case .reload: page.load(page.web.uri.flatMap { $0.isEmpty ? nil : $0 } ?? launch.startURL)
        case .endWebProcess: webkit_web_view_terminate_web_process(page.view)
        case .timer(let command): loadingTimers.perform(command)
        }
    }

    package func stateMembers() -> JSONObject {
        var app: JSONObject = ["id": .string(launch.appId), "name": .string(launch.displayName), "origin": .string(launch.originText),
                               "startUrl": .string(launch.startURL), "config": .string(launch.source),
                               "linkSchemes": .array(launch.linkSchemes.map(JSONValue.string)),
                               "apnsEnvironment": .string(launch.info.apnsEnvironment), "dataDirectory": .string(launch.dataDirectory)]
        app["webDir"] = launch.webDir.map(JSONValue.string) ?? .null
        app["version"] = launch.info.appVersion.map(JSONValue.string) ?? .null
        app["scheme"] = scheme?.json ?? .null
        app["kiosk"] = kiosk?.stateJSON ?? .null
        app["desktopEntry"] = desktopEntry
        app["failuresInARow"] = .number(Double(loading.failuresInARow))
        var capacitor = page.json
        capacitor["lifecycleSource"] = .string(lifecycle.machine.source.rawValue)
        var lifecycleState = lifecycle.machine.json.objectValue ?? [:]
        // Where the window's keyboard focus is (what the page gets once the window is active).
        lifecycleState["focusInPage"] = .bool(gtk_window_get_focus(cast(window.window)) == cgtk_widget(UnsafeMutableRawPointer(page.view)))
        capacitor["lifecycle"] = .object(lifecycleState)
        capacitor["window"] = windowWatch?.json ?? .null
        capacitor["linksOpened"] = .array(linksOpened.map(JSONValue.string))
        let push = PushNotificationsGlue.glue(forApp: launch.appId)
        capacitor["notifications"] = push.map { .object($0.notifications.json) } ?? .null
        capacitor["phone"] = push?.listener.map { .object(["token": .string($0.entry.token), "socket": .string($0.entry.socket),
                                                           "received": .number(Double($0.received))]) } ?? .null
        let size = window.size
        return ["app": .object(app), "capacitor": .object(capacitor), 
                "window": ["width": .number(Double(size.width)), "height": .number(Double(size.height))]]
    }
}

extension CapacitorApp: CapacitorPageHost {
    func capacitorPageCommitted(_ page: CapacitorPage, status: Int, uri: String) { loadingEvent(.committed(status: status, uri: uri)) }
    func capacitorPageFinished(_ page: CapacitorPage) { loadingEvent(.finished) }
    func capacitorPageFailed(_ page: CapacitorPage, reason: String, uri: String) { loadingEvent(.failed(reason: reason, uri: uri)) }
    func capacitorPageInterrupted(_ page: CapacitorPage, uri: String) { loadingEvent(.interrupted(uri: uri)) }
    func capacitorPageProcessEnded(_ page: CapacitorPage, reason: WebKitWebProcessTerminationReason) {
        let end: WebProcessEnd = switch reason {
        case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemory
        case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: .terminatedByHost
        default: .crashed
        }
        loadingEvent(.processEnded(end, at: monotonicSeconds()))
    }
}
