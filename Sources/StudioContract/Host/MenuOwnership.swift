/// The action-menu rules across a window's pages (main and its sheet page, CONTRACT.md §6): one
/// armed menu for the whole window — a page that arms takes it from the page that had it — and
/// each trigger's menu id owned by one page, so another page registering it is `unavailable`.
/// Each page's `ActionMenus` keeps its own menus; this says what the other pages must be told
/// when one page's menus changed (`PageEvent.armedElsewhere`, `.triggersElsewhere`).
public struct MenuOwnership<Page: Hashable & Sendable>: Sendable, Equatable {
    /// The page whose armed menu is the window's.
    public private(set) var armedBy: Page?
    /// The menu ids of each page's triggers.
    public private(set) var triggerIds: [Page: Set<String>] = [:]

    public init() {}

    /// The menu ids `page` may not register: the other pages' triggers.
    public func triggerIdsElsewhere(for page: Page) -> Set<String> {
        var ids = Set<String>()
        for (owner, owned) in triggerIds where owner != page { ids.formUnion(owned) }
        return ids
    }

    /// `page`'s menus are now these (its session's armed menu and triggers, after any event):
    /// returns, in order of `pages`, what each other page must be told.
    public mutating func changed(page: Page, armed: Bool, triggers: Set<String>, among pages: [Page]) -> [(page: Page, event: PageEvent)] {
        var told: [(page: Page, event: PageEvent)] = []
        if armed, armedBy != page {
            // A new arm from this page replaces the window's armed menu wherever it was.
            if let previous = armedBy { told.append((previous, .armedElsewhere)) }
            armedBy = page
        } else if !armed, armedBy == page {
            armedBy = nil
        }
        let before = pages.map(triggerIdsElsewhere(for:))
        triggerIds[page] = triggers.isEmpty ? nil : triggers
        for (other, was) in zip(pages, before) where other != page {
            let now = triggerIdsElsewhere(for: other)
            if now != was { told.append((other, .triggersElsewhere(now))) }
        }
        return told
    }

    /// `page` is gone (a sheet page let go of): it owns nothing any more.
    public mutating func forget(_ page: Page, among pages: [Page]) -> [(page: Page, event: PageEvent)] {
        changed(page: page, armed: false, triggers: [], among: pages)
    }
}
