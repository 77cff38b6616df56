import BridgeRuntime
import CGtk

/// Carries out control requests on the running app: reads its native state and drives it the
/// way a user would (tap, back, switch server), so tests can assert what no DOM driver sees.
@MainActor
final class ControlHandler {
    private let app: ShellApp
    private let allowEval: Bool

    init(app: ShellApp, allowEval: Bool) {
        self.app = app
        self.allowEval = allowEval
        EventStream.shared.stateSource = { [weak app] in app.map(ShellState.json) ?? .null }
    }

    func handle(_ request: ControlRequest, answer: @escaping @MainActor (String) -> Void) {
        let id = request.id
        func ok(_ result: JSONValue = .null) { answer(ControlResponse.ok(id, result)) }
        func fail(_ message: String) { answer(ControlResponse.failure(id, ControlError(message))) }
        let page = app.session.page
        switch request.command {
        case .state:
            ok(ShellState.json(app))
        case .tap(let destination):
            let known = page.session.catalog?.destinations.map(\.id) ?? []
            guard known.contains(destination) else {
                return fail(known.isEmpty ? "there is no native navigation on this page (no catalog)"
                                          : "no destination \"\(destination)\" in the catalog; destinations: \(known.joined(separator: ", "))")
            }
            page.tap(destination: destination)
            ok()
        case .back:
            guard page.session.nativeChrome.backBar != nil else { return fail("this page has no back bar") }
            page.tapBack()
            ok()
        case .switchServer(let id):
            if let problem = app.switchTo(id) { return fail(problem) }
            ok()
        case .reload:
            app.session.verifyAndLoad()
            ok()
        case .signIn:
            guard !app.session.auth.signingIn else { return fail("a sign-in window is already open") }
            app.session.signIn()
            ok()
        case .cancelSignIn:
            guard app.session.auth.signingIn else { return fail("no sign-in window is open") }
            app.session.auth.cancelSignIn()
            ok()
        case .signOut:
            app.session.signOut()
            ok()
        case .alert(let actionId):
            guard let dialog = app.session.alertDialog else { return fail("no alert is showing") }
            guard dialog.press(actionId) else {
                return fail("the alert has no button \"\(actionId)\"; its buttons: \(dialog.request.actions.map(\.id).joined(separator: ", "))")
            }
            ok()
        case .share(let choice):
            guard let panel = app.session.sharePanel else { return fail("no share panel is open") }
            let offered = panel.choices
            guard panel.respond(choice) else { return fail("the share panel offers \(offered.joined(separator: ", ")), not \(choice)") }
            if choice.hasPrefix("copy") {
                SharePanel.clipboardText { text in ok(["clipboard": text.map(JSONValue.string) ?? .null]) }
            } else {
                ok()
            }
        case .menuOpen(let menuId):
            guard let menu = app.session.activePage.session.currentMenu(menuId) else {
                return fail("no menu \"\(menuId)\" is armed or has a trigger on this page")
            }
            let width = gtk_widget_get_width(app.session.activeMenus.widget), height = gtk_widget_get_height(app.session.activeMenus.widget)
            let rect = app.session.activePage.session.triggers[menuId]?.rect
            let shown = app.session.activeMenus.open(menu, at: GdkRectangle(x: Int32((rect?.x ?? 0.5) * Double(width)), y: Int32((rect?.y ?? 0.5) * Double(height)),
                                                                         width: max(1, Int32((rect?.width ?? 0) * Double(width))),
                                                                         height: max(1, Int32((rect?.height ?? 0) * Double(height)))))
            guard shown else {
                return fail("the menu could not be shown: GTK took it down at once (another application holds the pointer and keyboard); nothing was sent to Studio, ask again")
            }
            ok()
        case .menu(let actionId):
            let menus = app.session.activeMenus
            guard menus.openMenuId != nil else { return fail("no menu is open") }
            guard menus.shownMenuId != nil else { return fail("the menu is not on screen yet: wait for menus.open first") }
            guard let item = menus.item(actionId) else { return fail("the open menu has no item \"\(actionId)\"") }
            guard !item.disabled else { return fail("\"\(actionId)\" is disabled") }
            menus.choose(actionId)
            ok()
        case .menuClose:
            guard app.session.activeMenus.openMenuId != nil else { return fail("no menu is open") }
            app.session.activeMenus.close(report: true)
            ok()
        case .sheetAction(let actionId):
            guard app.session.presentations.pressAction(actionId) else { return fail("no sheet is shown") }
            ok()
        case .sheetDismiss:
            let sheets = app.session.presentations!
            guard sheets.isShowing else { return fail("no sheet is shown") }
            guard sheets.isDismissible else { return fail("the sheet is not dismissible") }
            sheets.dismiss()
            ok()
        case .events:
            fail("events streams on its own connection")  // the connection handles it; never here
        case .memoryPressure:
            MemoryPressure.shared.report()
            ok()
        case .resize(let width, let height):
            let window = cgtk_window(UnsafeMutableRawPointer(app.window.window))
            gtk_window_unmaximize(window)
            gtk_window_unfullscreen(window)
            gtk_window_set_default_size(window, Int32(width), Int32(height))
            ok()
        case .openURL(let url):
            let result = app.openURL(url)
            if result.opened { ok(["message": .string(result.message)]) } else { fail(result.message) }
        case .scan(let answer):
            guard let scan = app.session.qrScan else { return fail("no QR scan is open") }
            switch answer {
            case .value(let text): scan.finish(text)
            case .cancel: scan.finish(nil)
            case .image(let path):
                scan.use(image: path)
                if app.session.qrScan != nil { return fail("no QR code was found in \(path); the scan is still open") }
            }
            ok()
        case .pickFiles(let paths):
            app.session.pickFiles(paths)
            ok()
        case .cancelUploads:
            guard let uploader = app.session.uploader else { return fail("no upload is running") }
            uploader.cancel()
            ok()
        case .refreshCredential(let times):
            guard app.session.auth.credential != nil else { return fail("there is no credential to refresh: sign in first") }
            var results: [Bool] = []
            for _ in 0..<times {
                app.session.auth.refresh(studioSession: false) { refreshed in
                    results.append(refreshed)
                    if results.count == times { ok(["refreshed": .array(results.map(JSONValue.bool))]) }
                }
            }
        case .wait(let until, let timeout):
            wait(until, deadline: monotonicSeconds() + timeout, timeout: timeout, ok: ok, fail: fail)
        case .snapshot(let path, let target):
            let widget = target == .window ? app.window.window : cgtk_widget(UnsafeMutableRawPointer(page.view))!
            guard WindowSnapshot.savePNG(widget, to: path) else {
                return fail("could not write \(path): is its directory there and writable, and is the window shown?")
            }
            ok(["path": .string(path)])
        case .eval(let script, let inSheet):
            guard allowEval else {
                return fail("eval is refused: start the app with --allow-eval (for tests only)")
            }
            let target: StudioPage
            if inSheet {
                guard let sheetPage = app.session.presentations.shownPage else { return fail("no sheet is shown") }
                target = sheetPage
            } else {
                target = page
            }
            target.evaluate(script, done: { result in
                switch result {
                case .success(let value): ok(value)
                case .failure(let error): fail("the script failed: \(error.message)")
                }
            })
        }
    }

    /// Checks the predicate now and after every 25 ms until it holds or the time is up.
    private func wait(_ until: StatePredicate, deadline: Double, timeout: Double,
                      ok: @escaping @MainActor (JSONValue) -> Void, fail: @escaping @MainActor (String) -> Void) {
        let state = ShellState.json(app)
        if until.holds(in: state) { return ok(state) }
        guard monotonicSeconds() < deadline else {
            return fail("timed out after \(timeout) s: " + until.unmet(in: state).joined(separator: "; "))
        }
        MainLoop.after(milliseconds: 25) { [weak self] in
            guard let self else { return fail("the app is closing") }
            self.wait(until, deadline: deadline, timeout: timeout, ok: ok, fail: fail)
        }
    }
}
