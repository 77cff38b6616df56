import CGtk
import Glibc
import HostCore

/// The simulator's controls of one running app (`ControlCommand.device`): the page's locale and
/// time zone, erase, private roots and the screen recording; their part of `ctl state` and their
/// events. One per app, made with its `AppEnvironment` (the launch options apply before any web
/// process starts).
@MainActor
package final class DeviceControls {
    /// The locale and time zone given at launch (erase goes back to them), and now.
    package private(set) var launchLocale: LocaleTag?
    package private(set) var launchTimeZone: String?
    package private(set) var locale: LocaleTag?
    package private(set) var timeZone: String?
    package let roots = TrustedRoots()
    package private(set) var recorder: WindowRecorder?
    private var launchRoots: [String] = []
    /// Where `device` events go (the environment's event stream).
    var events: EventStream?

    /// The environment's LANG, LANGUAGE and TZ before any control changed them.
    private let original: [(String, String?)] = ["LANG", "LANGUAGE", "TZ"].map { (name: String) in (name, getenv(name).map { String(cString: $0) }) }

    init() {}

    /// Applies `--locale`, `--timezone` and `--trust-root-cert` before the app's first page.
    package func launch(locale: String?, timeZone: String?, rootFiles: [String]) throws(UsageError) {
        if let locale {
            switch LocaleTag.parse(locale) {
            case .success(let tag): setLocale(tag)
            case .failure(let error): throw UsageError("--locale: \(error.message)")
            }
            launchLocale = self.locale
        }
        if let timeZone {
            if let problem = Self.zoneProblem(timeZone) { throw UsageError("--timezone: \(problem)") }
            setTimeZone(timeZone)
            launchTimeZone = timeZone
        }
        for file in rootFiles {
            if let problem = roots.add(file: file) { throw UsageError("--trust-root-cert: \(problem)") }
        }
        launchRoots = rootFiles
    }

    /// `ctl state`'s keys of these controls.
    package var stateMembers: JSONObject {
        [
            "locale": locale.map { .string($0.tag) } ?? .null,
            "timeZone": timeZone.map(JSONValue.string) ?? .null,
            "trustedRoots": roots.json,
            "recording": recorder.map { ScreenRecording.stateJSON(file: $0.file, since: $0.since) } ?? .null,
        ]
    }

    package func handle(_ control: DeviceControl, app: any HostedApp, ok: @escaping @MainActor (JSONValue) -> Void,
                        fail: @escaping @MainActor (String) -> Void) {
        switch control {
        case .locale(let tag):
            setLocale(tag)
            events?.device("locale", ["locale": .string(tag.tag)])
            restartPage(app)
            ok(["locale": .string(tag.tag), "message": .string("the page starts again in a new web process with \(tag.tag)")])
        case .timeZone(let zone):
            if let problem = Self.zoneProblem(zone) { return fail(problem) }
            setTimeZone(zone)
            events?.device("timezone", ["timeZone": .string(zone)])
            restartPage(app)
            ok(["timeZone": .string(zone), "message": .string("the page starts again in a new web process in \(zone)")])
        case .trustRootCert(let path):
            if let problem = roots.add(file: path) { return fail(problem) }
            events?.device("trusted-roots", ["count": .number(Double(roots.count))])
            // A page not shown (the certificate refused, or a retry of it under way) is loaded
            // again at once, as the person would retry.
            if app.screen.name != "page", let erasable = app as? any ErasableApp { erasable.restartAtStartPage() }
            ok(["trustedRoots": roots.json])
        case .clearRootCerts:
            roots.clear()
            events?.device("trusted-roots", ["count": 0])
            ok(["trustedRoots": roots.json, "message": .string(roots.allowedHosts.isEmpty ? "no private root is trusted now"
                : "no private root is trusted now; WebKit keeps the certificates it let through (\(roots.allowedHosts.joined(separator: ", "))) until the app restarts")])
        case .recordStart(let path):
            guard recorder == nil else { return fail("a recording is under way (\(recorder!.file)): ctl record stop first") }
            switch WindowRecorder.start(app.windowWidget, into: path, ended: { [weak self] problem in self?.recordingEnded(problem) }) {
            case .success(let started):
                recorder = started
                events?.device("recording-started", ["file": .string(path)])
                ok(["recording": ScreenRecording.stateJSON(file: path, since: started.since)])
            case .failure(let error):
                fail(error.message)
            }
        case .recordStop:
            guard let recorder else { return fail("nothing is being recorded: ctl record start FILE first") }
            recorder.stop { problem in
                if let problem { fail(problem) } else { ok(["file": .string(recorder.file)]) }
            }
        case .erase:
            erase(app, ok: ok, fail: fail)
        }
    }

    /// Ends a recording under way, its file finished, before the app exits.
    package func finish() { recorder?.finishNow() }

    private func recordingEnded(_ problem: String?) {
        guard let recorder else { return }
        self.recorder = nil
        var fields: JSONObject = ["file": .string(recorder.file), "seconds": .number(wallClockSeconds() - recorder.since)]
        if let problem { fields["problem"] = .string(problem) }
        events?.device("recording-stopped", fields)
    }

    /// Shut, wipe, reset, start again: the page's process ends first, so nothing it holds in
    /// memory survives; then its website data, secrets and every control go.
    private func erase(_ app: any HostedApp, ok: @escaping @MainActor (JSONValue) -> Void, fail: @escaping @MainActor (String) -> Void) {
        guard let erasable = app as? any ErasableApp else { return fail("this app cannot be erased") }
        webkit_web_view_terminate_web_process(app.mainWebPage.view)
        WebsiteDataEraser.clear(erasable.erasableSessions) { [weak self] in
            guard let self else { return }
            var removed: [JSONValue] = ["website data (cookies, local and session storage, IndexedDB, caches, service workers)"]
            removed += erasable.eraseSecrets().map(JSONValue.string)
            let forgotten = app.mainWebPage.permissions.forgetAll()
            removed.append(.string("remembered permissions (\(forgotten))"))
            if self.locale != self.launchLocale || self.timeZone != self.launchTimeZone {
                self.restoreOriginal()
                if let tag = self.launchLocale { self.setLocale(tag) }
                if let zone = self.launchTimeZone { self.setTimeZone(zone) }
                removed.append("locale and time zone (back to the launch's)")
            }
            self.roots.clear()
            for file in self.launchRoots { _ = self.roots.add(file: file) }
            removed.append("trusted roots (back to the launch's)")
            app.environment.simulator.reset(app: app)
            removed.append("privacy answers, appearance, contrast, text size, location and the pasteboard (back to their defaults)")
            let device = app.environment.device
            if device.isDevice {
                _ = device.setStatusBar(nil)
                if device.choice.orientation != device.startedIn { _ = device.rotate(to: device.startedIn) }
                removed.append("the status bar's override and the orientation (back to the launch's)")
            }
            erasable.restartAtStartPage()
            self.events?.device("erased", ["removed": .array(removed)])
            ok(["removed": .array(removed)])
        }
    }

    /// A new web process for the page (WebKit gives a process its locale and time zone when it
    /// starts), loading what it showed.
    private func restartPage(_ app: any HostedApp) {
        webkit_web_view_terminate_web_process(app.mainWebPage.view)
        app.handle(.reload, ok: { _ in }, fail: { _ in })
    }

    private func setLocale(_ tag: LocaleTag) {
        locale = tag
        withCStrings(tag.preferredLanguages) { webkit_web_context_set_preferred_languages(webkit_web_context_get_default(), constant($0)) }
        // The web process's own locale (ICU's default, Intl's when WebKit's languages are not asked).
        setenv("LANG", tag.posixName, 1)
        setenv("LANGUAGE", tag.tag.replacingUnderscores, 1)
    }

    /// The system's languages, locale and time zone again.
    private func restoreOriginal() {
        locale = nil
        timeZone = nil
        webkit_web_context_set_preferred_languages(webkit_web_context_get_default(), nil)
        for (name, value) in original {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        tzset()
    }

    private func setTimeZone(_ zone: String?) {
        timeZone = zone
        if let zone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
        tzset()
    }

    static func zoneProblem(_ zone: String) -> String? {
        var status = stat()
        let isFile = TimeZoneRule.shapeProblem(zone) == nil && stat(TimeZoneRule.zoneinfo + "/" + zone, &status) == 0
            && (status.st_mode & S_IFMT) == S_IFREG
        return TimeZoneRule.problem(zone, isZoneFile: isFile)
    }
}

private extension String {
    var replacingUnderscores: String { replacing("-", with: "_") }
}
