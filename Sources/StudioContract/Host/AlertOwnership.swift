/// One native alert at a time across an app's pages (main and its sheet page, CONTRACT.md §4
/// "Alerts"): the page whose alert shows owns the alert slot, and every other page's
/// `alert/present` is `unavailable` until the owner's alert is answered or withdrawn.
public struct AlertOwnership<Page: Hashable & Sendable>: Sendable, Equatable {
    public private(set) var owner: Page?

    public init() {}

    /// Whether `page` must refuse an alert now because another page's shows.
    public func shownElsewhere(for page: Page) -> Bool { owner != nil && owner != page }

    /// `page`'s alert now shows; returns the pages whose "shown elsewhere" changed, with the new value.
    public mutating func shown(by page: Page, among pages: [Page]) -> [(page: Page, elsewhere: Bool)] {
        change(to: page, among: pages)
    }

    /// `page`'s alert was answered or withdrawn (a report from another page changes nothing).
    public mutating func ended(by page: Page, among pages: [Page]) -> [(page: Page, elsewhere: Bool)] {
        guard owner == page else { return [] }
        return change(to: nil, among: pages)
    }

    private mutating func change(to newOwner: Page?, among pages: [Page]) -> [(page: Page, elsewhere: Bool)] {
        let before = pages.map(shownElsewhere(for:))
        owner = newOwner
        return zip(pages, before).compactMap { page, was in
            let now = shownElsewhere(for: page)
            return now == was ? nil : (page, now)
        }
    }
}
