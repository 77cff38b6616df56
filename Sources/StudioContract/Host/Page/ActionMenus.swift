import HostCore

/// A page's native action menus (§4 Action menus): the armed menu (what the next context click
/// opens; the newest arm wins), the menus with a trigger control, and the one menu the person
/// has open. Only the open menu, as Studio last sent it, can report a choice or a dismissal; a
/// menu Studio withdraws closes without a report.
public struct ActionMenus: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// `action-menu/arm`, `register-trigger`, `disarm`, `unregister-trigger` (request `id`).
        case arm(ActionMenu, id: String?)
        case registerTrigger(ActionMenuTrigger, id: String?)
        case disarm(menuId: String, id: String?)
        case unregisterTrigger(menuId: String, id: String?)
        /// `action-menu/present`, the legacy menu: `unavailable`, so Studio falls back to its
        /// arm/trigger menus or its web menu.
        case legacyPresent(id: String?)
        /// The person opened `menuId` (a trigger's, or the armed one by a context click).
        /// `studioReady` (here and below): Studio said `frontend/ready`, so it may be told.
        case openRequested(menuId: String, studioReady: Bool)
        /// GTK could not put `menuId` on screen: nobody saw it, Studio hears nothing.
        case notShown(menuId: String)
        /// The person chose `actionId` in the open menu `menuId`, or closed it without a choice.
        case chosen(menuId: String, actionId: String, studioReady: Bool)
        case dismissed(menuId: String, studioReady: Bool)
        /// Another surface came up (an alert, a share panel, a QR scan, a sheet, on either page):
        /// the open menu closes, reported dismissed, as a click outside it would.
        case surfaceShown(studioReady: Bool)
        /// The document (or presentation) is gone: its menus go, the open one unreported.
        case withdrawAll
    }

    /// Replies, `.menusChanged`, `.showMenu`, `.hideMenu`, and `.send` of
    /// `action-menu/action` and `action-menu/dismissed`.
    public typealias Effect = PageEffect

    /// `nativeActionMenus` is offered to this page.
    public let offered: Bool
    /// The menu the next context click opens.
    public private(set) var armedMenu: ActionMenu?
    /// The menus with a trigger control, by menu id.
    public private(set) var triggers: [String: ActionMenuTrigger] = [:]
    /// The menu the person has open, if any (one at a time).
    public private(set) var openMenu: ActionMenu?

    public init(offered: Bool) { self.offered = offered }

    /// The menu `menuId` as it is now: armed, or with a trigger.
    public func currentMenu(_ menuId: String) -> ActionMenu? {
        if let armedMenu, armedMenu.menuId == menuId { return armedMenu }
        return triggers[menuId]?.menu
    }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .arm(let menu, let id):
            guard offered else { return [.reply(.failure(id: id, code: .unavailable))] }
            armedMenu = menu
            return [.reply(.ok(id)), .menusChanged]

        case .registerTrigger(let trigger, let id):
            guard offered else { return [.reply(.failure(id: id, code: .unavailable))] }
            triggers[trigger.menu.menuId] = trigger
            return [.reply(.ok(id)), .menusChanged]

        case .disarm(let menuId, let id):
            // Withdrawing something that is not there is ignored (§3).
            guard armedMenu?.menuId == menuId else { return [.reply(.ok(id))] }
            armedMenu = nil
            return [.reply(.ok(id)), .menusChanged] + closeWithdrawnMenu()

        case .unregisterTrigger(let menuId, let id):
            guard triggers.removeValue(forKey: menuId) != nil else { return [.reply(.ok(id))] }
            return [.reply(.ok(id)), .menusChanged] + closeWithdrawnMenu()

        case .legacyPresent(let id):
            return [.reply(.failure(id: id, code: .unavailable))]

        case .openRequested(let menuId, let studioReady):
            guard let menu = currentMenu(menuId) else { return [] }
            // Another menu open is dismissed by this one (as a click outside it would).
            let closing = openMenu.map { $0.menuId != menuId ? dismissOpenMenu(studioReady: studioReady) : [] } ?? []
            openMenu = menu
            return closing + [.showMenu(menu)]

        case .notShown(let menuId):
            if openMenu?.menuId == menuId { openMenu = nil }
            return []

        case .chosen(let menuId, let actionId, let studioReady):
            // Only the open menu, as Studio last sent it, and only an item it has that is enabled.
            guard openMenu?.menuId == menuId, let menu = currentMenu(menuId) else { return [] }
            guard menu.items.contains(where: { $0.id == actionId && !$0.disabled }) else { return [] }
            openMenu = nil
            return [.hideMenu] + (studioReady ? [.send(.actionMenuAction(menuId: menuId, actionId: actionId))] : [])

        case .dismissed(let menuId, let studioReady):
            guard openMenu?.menuId == menuId else { return [] }
            return dismissOpenMenu(studioReady: studioReady)

        case .surfaceShown(let studioReady):
            return dismissOpenMenu(studioReady: studioReady)

        case .withdrawAll:
            var effects: [PageEffect] = []
            if armedMenu != nil || !triggers.isEmpty {
                armedMenu = nil
                triggers = [:]
                effects.append(.menusChanged)
            }
            return effects + closeWithdrawnMenu()
        }
    }

    /// Closes the open menu without a choice, reporting it dismissed while Studio is still there.
    private mutating func dismissOpenMenu(studioReady: Bool) -> [PageEffect] {
        guard let menu = openMenu else { return [] }
        openMenu = nil
        return [.hideMenu] + (studioReady && currentMenu(menu.menuId) != nil ? [.send(.actionMenuDismissed(menuId: menu.menuId))] : [])
    }

    /// The open menu went (disarmed, unregistered, its document gone): it closes unreported.
    private mutating func closeWithdrawnMenu() -> [PageEffect] {
        guard let open = openMenu, currentMenu(open.menuId) == nil else { return [] }
        openMenu = nil
        return [.hideMenu]
    }
}
