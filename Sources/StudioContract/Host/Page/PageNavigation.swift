import HostCore

/// A page's native navigation (§4 Navigation): Studio's catalog and the tabs or sidebar drawn
/// from it, the optimistic selection and its roll-back, the back bar, and the window's size
/// class. Only the main page draws it; a presentation page keeps none of it on screen.
public struct PageNavigation: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// `navigation/catalog` (request `id`); an empty catalog withdraws it, and the back bar with it.
        case catalog(NavigationCatalog, id: String?)
        /// `navigation/state`: Studio's own answer to "where am I" settles the selection.
        case state(NavigationState, id: String?)
        /// `navigation/chrome`: the title and back label of the page shown.
        case chrome(NavigationChrome, id: String?)
        /// A `navigation/catalog` from this page failed decoding as malformed (§3).
        case catalogMalformed
        /// The person chose a destination natively; `studioReady`: Studio said `frontend/ready`.
        case tapDestination(String, studioReady: Bool)
        /// The person pressed the native back button.
        case tapBack(studioReady: Bool)
        /// Studio's receiver did not take `navigation/request` for `destinationId`.
        case requestRefused(destinationId: String)
        /// The window's size class changed: the chrome is drawn for it; nothing else changes.
        case sizeClassChanged(SizeClass)
        /// The document is gone: it negotiates again, and sends its catalog again.
        case documentGone
    }

    /// Replies, and `.send` of `navigation/request` and `navigation/back`. The chrome itself is
    /// read (`nativeChrome(negotiated:)`); its owner reports when it changed.
    public typealias Effect = PageEffect

    public let context: HostContext
    /// The window's size class now: tabs or a sidebar.
    public private(set) var sizeClass: SizeClass
    public private(set) var catalog: NavigationCatalog?
    /// Studio's own answer to "where am I": authoritative for the selection.
    public private(set) var activeDestinationId: String?
    /// The destination the person chose natively, shown until the next `navigation/state`.
    public private(set) var pendingDestinationId: String?
    /// The page's title and back label, from `navigation/chrome`.
    public private(set) var chrome: NavigationChrome?

    public init(context: HostContext, sizeClass: SizeClass) {
        self.context = context
        self.sizeClass = sizeClass
    }

    /// The native chrome as it should be drawn now. Without negotiation (`config/get` in this
    /// document), off the main page, or without a catalog there is none: Studio draws its own.
    public func nativeChrome(negotiated: Bool) -> NativeChrome {
        guard negotiated, context == .main, let catalog, !catalog.isEmpty else { return NativeChrome() }
        let selected = pendingDestinationId ?? activeDestinationId
        let backBar = chrome.flatMap { c in c.backLabel.map { BackBar(title: c.title, backLabel: $0) } }
        return NativeChrome(layout: NavigationLayout.make(catalog: catalog, sizeClass: sizeClass),
                            selectedDestinationId: selected, backBar: backBar)
    }

    /// Whether Studio has a catalog with destinations (a deep link needs one to land).
    public var hasDestinations: Bool { !(catalog?.isEmpty ?? true) }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .catalog(let newCatalog, let id):
            if newCatalog.isEmpty {
                reset()  // withdrawn: the back bar resets too
            } else {
                catalog = newCatalog
                let ids = Set(newCatalog.destinations.map(\.id))
                if let active = activeDestinationId, !ids.contains(active) { activeDestinationId = nil }
                if let pending = pendingDestinationId, !ids.contains(pending) { pendingDestinationId = nil }
            }
            return [.reply(.ok(id))]

        case .state(let state, let id):
            activeDestinationId = state.activeDestinationId
            pendingDestinationId = nil  // settle: Studio's answer wins, which may roll the tap back
            return [.reply(.ok(id))]

        case .chrome(let newChrome, let id):
            chrome = newChrome
            return [.reply(.ok(id))]

        case .catalogMalformed:
            // A malformed catalog from the main page also drops the current one (§3).
            if context == .main { reset() }
            return []

        case .tapDestination(let id, let studioReady):
            guard studioReady, context == .main, let catalog, catalog.destinations.contains(where: { $0.id == id }) else {
                return []
            }
            pendingDestinationId = id
            return [.send(.navigationRequest(destinationId: id))]

        case .tapBack(let studioReady):
            guard studioReady, context == .main, chrome?.backLabel != nil else { return [] }
            return [.send(.navigationBack)]

        case .requestRefused(let id):
            // Nobody took the request: roll the optimistic selection back at once.
            if pendingDestinationId == id { pendingDestinationId = nil }
            return []

        case .sizeClassChanged(let next):
            sizeClass = next  // the chrome follows; the selection and back bar are kept
            return []

        case .documentGone:
            reset()
            return []
        }
    }

    private mutating func reset() {
        catalog = nil
        activeDestinationId = nil
        pendingDestinationId = nil
        chrome = nil
    }
}
