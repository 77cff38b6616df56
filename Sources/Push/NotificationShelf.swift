import HostCore

/// An app's notifications as the desktop holds them (what `ctl state` shows under
/// `notifications`): each shown one with its whole payload until a person opens or dismisses
/// it, and whether the desktop showed it or only the state records it (no notification server
/// on the session bus, as in CI). One shown with the `apns-collapse-id` of another replaces it,
/// as iOS does. Bounded like a notification centre; the oldest go first.
public struct NotificationShelf: Sendable, Equatable {
    public static let limit = 64

    public struct Item: Sendable, Equatable {
        public var id: String
        public var title: String
        public var body: String
        /// The whole push payload (what activation hands to the page as `data`).
        public var payload: JSONObject
        /// The desktop showed it; false: recorded here only.
        public var onDesktop: Bool
        /// Its push's `apns-collapse-id`, if it had one.
        public var collapseID: String?

        public init(id: String, title: String, body: String, payload: JSONObject, onDesktop: Bool, collapseID: String? = nil) {
            self.id = id; self.title = title; self.body = body; self.payload = payload; self.onDesktop = onDesktop
            self.collapseID = collapseID
        }
    }

    public private(set) var items: [Item] = []
    /// How each item that left the shelf went, newest last (bounded): `{id, outcome}`.
    public private(set) var history: [(id: String, outcome: String)] = []

    public init() {}

    /// Shows `item`; returns the ids of those it replaced (same collapse id), which leave as
    /// "replaced".
    @discardableResult
    public mutating func show(_ item: Item) -> [String] {
        let replaced = item.collapseID == nil ? [] : items.filter { $0.id != item.id && $0.collapseID == item.collapseID }.map(\.id)
        for id in replaced { _ = take(id, "replaced") }
        items.removeAll { $0.id == item.id }
        items.append(item)
        if items.count > Self.limit { note(items.removeFirst().id, "dropped") }
        return replaced
    }

    /// A person opened it: the item (nil when there is none by that id).
    public mutating func activate(_ id: String) -> Item? { take(id, "activated") }

    /// A person dismissed it.
    public mutating func dismiss(_ id: String) -> Item? { take(id, "dismissed") }

    /// The app took them away itself.
    public mutating func withdraw(_ ids: [String]) {
        for id in ids { _ = take(id, "withdrawn") }
    }

    private mutating func take(_ id: String, _ outcome: String) -> Item? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        note(id, outcome)
        return items.remove(at: index)
    }

    private mutating func note(_ id: String, _ outcome: String) {
        history.append((id, outcome))
        if history.count > Self.limit { history.removeFirst() }
    }

    public static func == (a: NotificationShelf, b: NotificationShelf) -> Bool {
        a.items == b.items && a.history.map(\.id) == b.history.map(\.id) && a.history.map(\.outcome) == b.history.map(\.outcome)
    }

    /// `{shown: [{id, title, body, onDesktop, data}], history: [{id, outcome}]}`.
    public var json: JSONObject {
        ["shown": .array(items.map { .object(["id": .string($0.id), "title": .string($0.title), "body": .string($0.body),
                                              "onDesktop": .bool($0.onDesktop), "collapseId": $0.collapseID.map(JSONValue.string) ?? .null,
                                              "data": .object($0.payload)]) }),
         "history": .array(history.map { .object(["id": .string($0.id), "outcome": .string($0.outcome)]) })]
    }
}
