import CGtk
import HostCore
import ShellKit
import StudioContract

/// The Studio app's control commands: the native side of Studio a test drives as a person
/// would — tabs and back, servers, sign-in, alerts, share, menus, sheets, QR scans, uploads,
/// deep links. The host core's own commands (state, wait, events, snapshots, eval, resize,
/// memory pressure) never come here.
extension ShellApp {
    /// Studio's own commands on the control socket, besides the core's.
    package var controlVocabularies: [any ControlVocabulary.Type] { [StudioControl.self] }
}

extension ShellApp {
    /// The core's commands it hands on (back, reload, links, the sheet's eval, permission
    /// answers, app actions, downloads, lifecycle) and Studio's own (`StudioControl`).
    package func handle(_ command: ControlCommand, ok: @escaping @MainActor (JSONValue) -> Void,
                fail: @escaping @MainActor (String) -> Void) {
        let page = session.page
        switch command {
        case .app(let request):
            do throws(ControlError) { handle(try StudioControl.decode(request), ok: ok, fail: fail) } catch { fail(error.message) }
        case .back:
            guard page.session.nativeChrome.backBar != nil else { return fail("this page has no back bar") }
            page.tapBack()
            ok(.null)
        case .reload:
            session.verifyAndLoad()
            ok(.null)
        case .openURL(let url):
            let result = openURL(url)
            if result.opened { ok(["message": .string(result.message)]) } else { fail(result.message) }
        case .eval(let script, true):
            guard let sheetPage = session.presentations.shownPage else { return fail("no sheet is shown") }
            sheetPage.web.evaluate(script) { result in
                switch result {
                case .success(let value): ok(value)
                case .failure(let error): fail("the script failed: \(error.message)")
                }
            }
        case .permission(let grant):
            // WebKit's permission question open on the page shown (or the next one asked).
            ok(["message": .string(session.activePage.web.permissions.controlAnswer(grant))])
        case .action(let name, let windowId):
            guard let action = AppAction(rawValue: name) else {
                return fail("no action \"\(name)\"; actions: \(AppAction.names.joined(separator: ", "))")
            }
            if kiosk != nil { return fail("a kiosk offers no app actions") }
            let target: StudioWindow
            if let windowId, windowId != 1 {
                guard let second = secondWindows.first(where: { $0.id == windowId }) else {
                    return fail("no window \(windowId); windows: \(([1] + secondWindows.map(\.id)).map(String.init).joined(separator: ", "))")
                }
                target = second.window
            } else {
                target = window
            }
            // Answered first: quitting ends the app (and its control socket) on the way.
            guard target.actions.activate(action) else { return fail("this window does not offer \(name)") }
            ok(.null)
        case .download(let id, let choice):
            if let problem = environment.downloads.open(id, choice: choice) { return fail(problem) }
            ok(.null)
        case .lifecycle(let change):
            // The window's focus as a person would change it (for download notifications).
            if let problem = environment.downloadNotifier.simulate(change) { return fail(problem) }
            ok(["message": .string("the app's windows count as \(change == .focus ? "active" : "inactive") from now on")])
        case .state, .wait, .events, .snapshot, .eval, .resize, .memoryPressure, .rotate, .statusBar, .simulator, .device:
            fail("the host answers this command itself")  // never sent here
        }
    }

    private func handle(_ command: StudioControlCommand, ok: @escaping @MainActor (JSONValue) -> Void,
                        fail: @escaping @MainActor (String) -> Void) {
        let page = session.page
        switch command {
        case .tap(let destination):
            let known = page.session.catalog?.destinations.map(\.id) ?? []
            guard known.contains(destination) else {
                return fail(known.isEmpty ? "there is no native navigation on this page (no catalog)"
                                          : "no destination \"\(destination)\" in the catalog; destinations: \(known.joined(separator: ", "))")
            }
            page.tap(destination: destination)
            ok(.null)
        case .switchServer(let id):
            if let problem = switchTo(id) { return fail(problem) }
            ok(.null)
        case .serversChanged:
            followStore { result in
                switch result {
                case .success(let summary): ok(["message": .string(summary)])
                case .failure(let error): fail(error.message)
                }
            }
        case .signIn:
            guard !session.auth.signingIn else { return fail("a sign-in window is already open") }
            session.signIn()
            ok(.null)
        case .cancelSignIn:
            guard session.auth.signingIn else { return fail("no sign-in window is open") }
            session.auth.cancelSignIn()
            ok(.null)
        case .signOut:
            session.signOut()
            ok(.null)
        case .alert(let actionId):
            guard let dialog = session.alertDialog else { return fail("no alert is showing") }
            guard dialog.press(actionId) else {
                return fail("the alert has no button \"\(actionId)\"; its buttons: \(dialog.request.actions.map(\.id).joined(separator: ", "))")
            }
            ok(.null)
        case .share(let choice):
            guard let panel = session.sharePanel else { return fail("no share panel is open") }
            let offered = panel.choices
            guard panel.respond(choice) else { return fail("the share panel offers \(offered.joined(separator: ", ")), not \(choice)") }
            if choice.hasPrefix("copy") {
                SharePanel.clipboardText { text in ok(["clipboard": text.map(JSONValue.string) ?? .null]) }
            } else {
                ok(.null)
            }
        case .menuOpen(let menuId):
            let menus = session.activePage.session
            guard let source: MenuSource = menus.triggers[menuId] != nil ? .trigger : menus.armedMenu?.menuId == menuId ? .armed : nil else {
                return fail("no menu \"\(menuId)\" is armed or has a trigger on this page")
            }
            let open: @MainActor () -> Bool = { [weak self] in
                guard let self else { return false }
                let menus = self.session.activePage.session
                guard source == .trigger ? menus.triggers[menuId] != nil : menus.armedMenu?.menuId == menuId else { return false }
                self.session.activeMenus.requestOpen(menuId, from: source)
                return true
            }
            _ = open()
            whenShown(menuId, again: open, ok: { ok(.null) }, fail: fail)
        case .trigger(let menuId, let actionId):
            let triggers = session.activePage.session.triggers
            guard triggers[menuId] != nil, session.activeMenus.clickTrigger(menuId) else {
                return fail("no trigger \"\(menuId)\" on this page; its triggers: \(triggers.keys.sorted().joined(separator: ", "))")
            }
            let click: @MainActor () -> Bool = { [weak self] in
                guard let self, self.session.activePage.session.triggers[menuId] != nil else { return false }
                return self.session.activeMenus.clickTrigger(menuId)
            }
            whenShown(menuId, again: click, ok: { [weak self] in
                guard let actionId else { return ok(.null) }
                self?.choose(actionId, ok: ok, fail: fail)
            }, fail: fail)
        case .menu(let actionId):
            choose(actionId, ok: ok, fail: fail)
        case .menuClose:
            let page = session.activePage
            guard let open = page.session.openMenu else { return fail("no menu is open") }
            page.menuDismissed(open.menuId)
            ok(.null)
        case .sheetAction(let actionId):
            guard session.presentations.isShowing else { return fail("no sheet is shown") }
            guard session.presentations.pressAction(actionId) else {
                return fail("the sheet's header offers no action \"\(actionId)\" (or it is disabled)")
            }
            ok(.null)
        case .sheetDismiss:
            let sheets = session.presentations!
            guard sheets.isShowing else { return fail("no sheet is shown") }
            guard sheets.isDismissible else { return fail("the sheet is not dismissible") }
            sheets.dismiss()
            ok(.null)
        case .sheetRetry:
            guard session.presentations.isShowing else { return fail("no sheet is shown") }
            guard session.presentations.retry() else { return fail("the sheet shown has not failed") }
            ok(.null)
        case .scan(let answer):
            guard let scan = session.qrScan else { return fail("no QR scan is open") }
            switch answer {
            case .value(let text): scan.finish(text)
            case .cancel: scan.finish(nil)
            case .image(let path):
                scan.use(image: path)
                if session.qrScan != nil { return fail("no QR code was found in \(path); the scan is still open") }
            }
            ok(.null)
        case .mapChoose(let pointId):
            if let problem = session.chooseOnMap(pointId) { return fail(problem) }
            ok(.null)
        case .mapDone:
            if let problem = session.closeMap() { return fail(problem) }
            ok(.null)
        case .pickFiles(let paths):
            session.pickFiles(paths)
            ok(.null)
        case .cancelUploads:
            guard let uploader = session.uploader else { return fail("no upload is running") }
            uploader.cancel()
            ok(.null)
        case .refreshCredential(let times):
            guard session.auth.credential != nil else { return fail("there is no credential to refresh: sign in first") }
            var results: [Bool] = []
            for _ in 0..<times {
                session.auth.refresh(studioSession: false) { refreshed in
                    results.append(refreshed)
                    if results.count == times { ok(["refreshed": .array(results.map(JSONValue.bool))]) }
                }
            }
        }
    }

    private static let notShown = "the menu could not be shown: GTK took it down at once, \(ActionMenus.grabAttempts) times (another application holds the pointer and keyboard); nothing was sent to Studio, ask again"

    /// The menu `menuId` is open in the session and on screen.
    /// Answers once `menuId` is on screen. GTK takes a menu down at once while another
    /// application holds the pointer (another worker's menu on a shared display): it is asked
    /// for again (`again`, false once the menu is gone) until `ActionMenus.grabAttempts` ran out.
    private func whenShown(_ menuId: String, attempt: Int = 1, again: @escaping @MainActor () -> Bool,
                           ok: @escaping @MainActor () -> Void, fail: @escaping @MainActor (String) -> Void) {
        if menuShown(menuId) { return ok() }
        guard attempt < ActionMenus.grabAttempts else { return fail(Self.notShown) }
        MainLoop.after(milliseconds: ActionMenus.grabRetryMilliseconds) { [weak self] in
            guard let self else { return }
            guard again() else { return fail("the menu \"\(menuId)\" went away before it could be shown") }
            self.whenShown(menuId, attempt: attempt + 1, again: again, ok: ok, fail: fail)
        }
    }

    private func menuShown(_ menuId: String) -> Bool {
        session.activePage.session.openMenu?.menuId == menuId && session.activeMenus.shownId == menuId
    }

    /// Clicks the item `actionId` of the menu on screen, as a person would.
    private func choose(_ actionId: String, ok: @escaping @MainActor (JSONValue) -> Void, fail: @escaping @MainActor (String) -> Void) {
        guard let open = session.activePage.session.openMenu else { return fail("no menu is open") }
        guard session.activeMenus.shownId == open.menuId else { return fail("the menu is not on screen yet: wait for menus.open first") }
        guard let item = open.items.first(where: { $0.id == actionId }) else { return fail("the open menu has no item \"\(actionId)\"") }
        guard !item.disabled else { return fail("\"\(actionId)\" is disabled") }
        guard session.activeMenus.choose(actionId) else { return fail("the item \"\(actionId)\" could not be clicked") }
        ok(.null)
    }
}
