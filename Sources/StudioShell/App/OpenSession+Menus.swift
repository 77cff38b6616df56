import CGtk
import HostCore
import ShellKit
import StudioContract

/// The action menus across the session's two pages (§6): `MenuOwnership` says what each page
/// must hear when the other's menus changed — its armed menu taken by a newer arm, the menu
/// ids whose triggers the other page owns — and this carries it to them.
extension OpenSession {
    /// `page`'s armed menu or triggers changed (its session said `.menusChanged`).
    func menusChanged(on page: StudioPage) {
        let told = menuSlot.changed(page: role(of: page), armed: page.session.armedMenu != nil,
                                    triggers: Set(page.session.triggers.keys), among: [.main, .sheet])
        deliver(told)
    }

    /// A new sheet page: the one before it owns nothing any more, and this one learns main's triggers.
    func sheetPageMade(_ sheetPage: StudioPage) {
        deliver(menuSlot.forget(.sheet, among: [.main]))
        sheetPage.apply(.triggersElsewhere(menuSlot.triggerIdsElsewhere(for: .sheet)))
    }

    private func deliver(_ told: [(page: SessionPage, event: PageEvent)]) {
        for (role, event) in told { page(role)?.apply(event) }
    }

    /// The menus of the page the person is looking at, for `ctl state`: the armed menu (and
    /// which page holds the window's), the triggers by id with the box Studio gave and where
    /// the native button is, and the menu on screen with where it came from.
    var menusJSON: JSONValue {
        let menus = activePage.session
        let layer = activeMenus
        var anchors = JSONObject()
        for (menuId, trigger) in menus.triggers.sorted(by: { $0.key < $1.key }) {
            let r = trigger.rect
            anchors[menuId] = ["label": .string(trigger.menu.label),
                               "rect": ["x": .number(r.x), "y": .number(r.y), "width": .number(r.width), "height": .number(r.height)],
                               "button": layer.triggerBounds(menuId).map(Self.json) ?? .null]
        }
        let open = menus.shownMenu.flatMap { layer.shownId == $0.menu.menuId ? $0 : nil }
        return ["armed": menus.armedMenu.map { .string($0.menuId) } ?? .null,
                "armedPage": menuSlot.armedBy.map { .string($0 == .main ? "main" : "sheet") } ?? .null,
                "triggers": .array(menus.triggers.keys.sorted().map(JSONValue.string)),
                "anchors": .object(anchors),
                "viewport": Self.json(layer.size),
                "open": open.map { .string($0.menu.menuId) } ?? .null,
                "openFrom": open.map { .string($0.source.rawValue) } ?? .null]
    }

    private static func json(_ r: GdkRectangle) -> JSONValue {
        ["x": .number(Double(r.x)), "y": .number(Double(r.y)), "width": .number(Double(r.width)), "height": .number(Double(r.height))]
    }
}
