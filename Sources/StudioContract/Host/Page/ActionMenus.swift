import HostCore

/// Where a menu on screen came from: the armed menu (a context click or long press), or a
/// trigger — the native button laid over one of Studio's "…" buttons (§6).
public enum MenuSource: String, Sendable, Equatable {
    case armed, trigger
}

/// The menu a person has on screen: the menu as it was when shown, and where it came from.
public struct ShownMenu: Sendable, Equatable {
    public var menu: ActionMenu
    public var source: MenuSource
}

/// A page's native action menus (§6): the armed menu (one for the whole window — another page's
/// arm takes it away), the page's triggers (each menu id owned by one page), and the one menu on
/// screen. Choosing from the armed menu clears it and the armed one; a trigger is kept after a
/// choice and never reports a dismissal. A menu Studio withdraws closes without a report.
public struct ActionMenus: Machine, Sendable, Equatable {
    /// While another application holds the pointer and keyboard (another worker's menu on a
    /// shared display), GTK takes a new menu down at once: a menu asked for over the control
    /// interface is tried again this often, this far apart, before the request fails.
    public static let grabAttempts = 12
    public static let grabRetryMilliseconds: UInt32 = 150

    public enum Event: Sendable, Equatable {
        /// `action-menu/arm`, `register-trigger`, `disarm`, `unregister-trigger` (request `id`).
        /// `studioAsked`: Studio's `frontend/ready` in this document said `nativeActionMenus`.
        case arm(ActionMenu, id: String?, studioAsked: Bool)
        case registerTrigger(ActionMenuTrigger, id: String?, studioAsked: Bool)
        case disarm(menuId: String, id: String?)
        case unregisterTrigger(menuId: String, id: String?)
        /// `action-menu/present`, the legacy menu: `unavailable`, so Studio falls back to its
        /// arm/trigger menus or its web menu.
        case legacyPresent(id: String?)
        /// The person opened `menuId` from `source` (a trigger's button, or a context click).
        /// `studioReady` (here and below): Studio said `frontend/ready`, so it may be told.
        case openRequested(menuId: String, source: MenuSource, studioReady: Bool)
        /// GTK could not put `menuId` on screen: nobody saw it, Studio hears nothing.
        case notShown(menuId: String)
        /// The person chose `actionId` in the menu on screen `menuId`, or closed it without a choice.
        case chosen(menuId: String, actionId: String, studioReady: Bool)
        case dismissed(menuId: String, studioReady: Bool)
        /// Another surface came up (an alert, a share panel, a QR scan, a sheet, on either page):
        /// the menu on screen closes, as a click outside it would.
        case surfaceShown(studioReady: Bool)
        /// Another page armed a menu: this page's armed menu goes, and the armed menu on screen
        /// with it (cancelled: a late choice from it is ignored).
        case armedElsewhere
        /// The menu ids whose triggers other pages own now: this page may not register them.
        case triggersElsewhere(Set<String>)
        /// The document (or presentation) is gone, or a navigation started: its menus go, the
        /// one on screen unreported.
        case withdrawAll
    }

    /// Replies, `.menusChanged`, `.showMenu`, `.hideMenu`, and `.send` of
    /// `action-menu/action` and `action-menu/dismissed`.
    public typealias Effect = PageEffect

    /// `nativeActionMenus` is offered to this page.
    public let offered: Bool
    /// The menu the next context click opens (the window's one armed menu, when this page armed it).
    public private(set) var armedMenu: ActionMenu?
    /// The menus with a trigger control, by menu id.
    public private(set) var triggers: [String: ActionMenuTrigger] = [:]
    /// The menu on screen, if any (one at a time).
    public private(set) var shown: ShownMenu?
    /// Menu ids whose triggers another page owns.
    public private(set) var triggerIdsElsewhere: Set<String> = []

    public init(offered: Bool) { self.offered = offered }

    /// The menu on screen, as it was shown.
    public var openMenu: ActionMenu? { shown?.menu }

    /// The menu `menuId` as it is now: armed, or with a trigger.
    public func currentMenu(_ menuId: String) -> ActionMenu? {
        if let armedMenu, armedMenu.menuId == menuId { return armedMenu }
        return triggers[menuId]?.menu
    }

    /// The menu `menuId` from `source`, as it is now.
    func menu(_ menuId: String, from source: MenuSource) -> ActionMenu? {
        switch source {
        case .armed: return armedMenu?.menuId == menuId ? armedMenu : nil
        case .trigger: return triggers[menuId]?.menu
        }
    }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .arm(let menu, let id, let studioAsked):
            guard offered, studioAsked else { return [.reply(.failure(id: id, code: .unavailable))] }
            // A new arm replaces the armed menu and cancels it on screen (a late choice is ignored).
            let cancelled = cancelShown(from: .armed)
            armedMenu = menu
            return [.reply(.ok(id)), .menusChanged] + cancelled

        case .registerTrigger(let trigger, let id, let studioAsked):
            guard offered, studioAsked, !triggerIdsElsewhere.contains(trigger.menu.menuId) else {
                return [.reply(.failure(id: id, code: .unavailable))]
            }
            // The same page again: its menu and box are replaced.
            triggers[trigger.menu.menuId] = trigger
            return [.reply(.ok(id)), .menusChanged]

        case .disarm(let menuId, let id):
            // Only the page that armed it, and only that menu; the menu on screen stays (§6).
            guard armedMenu?.menuId == menuId else { return [.reply(.ok(id))] }
            armedMenu = nil
            return [.reply(.ok(id)), .menusChanged]

        case .unregisterTrigger(let menuId, let id):
            guard triggers.removeValue(forKey: menuId) != nil else { return [.reply(.ok(id))] }
            var effects: [PageEffect] = [.reply(.ok(id)), .menusChanged]
            if shown?.source == .trigger, shown?.menu.menuId == menuId { effects += cancelShown(from: .trigger) }
            return effects

        case .legacyPresent(let id):
            return [.reply(.failure(id: id, code: .unavailable))]

        case .openRequested(let menuId, let source, let studioReady):
            guard let menu = menu(menuId, from: source) else { return [] }
            // The same menu again (a second long press): nothing more.
            if shown?.source == source, shown?.menu.menuId == menuId { return [] }
            // Another menu on screen is closed by this one, as a click outside it would.
            let closing = closeShown(studioReady: studioReady)
            shown = ShownMenu(menu: menu, source: source)
            return closing + [.showMenu(menu)]

        case .notShown(let menuId):
            if shown?.menu.menuId == menuId { shown = nil }
            return []

        case .chosen(let menuId, let actionId, let studioReady):
            guard let open = shown, open.menu.menuId == menuId else { return [] }
            // A trigger's menu counts as Studio last sent it; the armed menu as it was shown.
            let menu = open.source == .trigger ? triggers[menuId]?.menu : open.menu
            guard let menu, menu.items.contains(where: { $0.id == actionId && !$0.disabled }) else { return [] }
            shown = nil
            var effects: [PageEffect] = [.hideMenu]
            if open.source == .armed, armedMenu != nil {
                // Choosing clears both the shown menu and the armed one (§6).
                armedMenu = nil
                effects.append(.menusChanged)
            }
            return effects + (studioReady ? [.send(.actionMenuAction(menuId: menuId, actionId: actionId))] : [])

        case .dismissed(let menuId, let studioReady):
            guard shown?.menu.menuId == menuId else { return [] }
            return closeShown(studioReady: studioReady)

        case .surfaceShown(let studioReady):
            return closeShown(studioReady: studioReady)

        case .armedElsewhere:
            guard armedMenu != nil || shown?.source == .armed else { return [] }
            let cancelled = cancelShown(from: .armed)
            let changed = armedMenu != nil
            armedMenu = nil
            return (changed ? [.menusChanged] : []) + cancelled

        case .triggersElsewhere(let ids):
            triggerIdsElsewhere = ids
            return []

        case .withdrawAll:
            var effects: [PageEffect] = []
            if armedMenu != nil || !triggers.isEmpty {
                armedMenu = nil
                triggers = [:]
                effects.append(.menusChanged)
            }
            if shown != nil {
                shown = nil
                effects.append(.hideMenu)
            }
            return effects
        }
    }

    /// Closes the menu on screen without a choice (dismissed by the person, or by a surface or
    /// another menu coming up). The armed menu's dismissal clears the armed menu too and is
    /// reported while Studio is there; a trigger's is never reported (§6).
    private mutating func closeShown(studioReady: Bool) -> [PageEffect] {
        guard let open = shown else { return [] }
        shown = nil
        guard open.source == .armed else { return [.hideMenu] }
        var effects: [PageEffect] = [.hideMenu]
        if armedMenu != nil {
            armedMenu = nil
            effects.append(.menusChanged)
        }
        return effects + (studioReady ? [.send(.actionMenuDismissed(menuId: open.menu.menuId))] : [])
    }

    /// Takes the menu on screen away unreported when it came from `source`.
    private mutating func cancelShown(from source: MenuSource) -> [PageEffect] {
        guard shown?.source == source else { return [] }
        shown = nil
        return [.hideMenu]
    }
}
