import HostCore

/// The main page's system map (§6 System map): one map at a time, owned by the main-page
/// document that presented it. The same `mapId` again replaces its points in place; another
/// `mapId` while one is shown is `unavailable`. Choosing a point's action closes the map, then
/// reports the action and the dismissal; closing it any other way (Done, Escape, Studio's
/// `map-dismiss`) reports the dismissal. A map withdrawn with its document (a main-frame
/// navigation starts, or a new document commits) goes unreported: Studio is leaving.
public struct SystemMap: Machine, Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// `system/map-present`; `studioAsked`: Studio said `systemMap` in `frontend/ready`.
        case present(MapPresent, id: String?, studioAsked: Bool)
        /// `system/map-dismiss`; `studioReady` (here and below): Studio may be told.
        case dismiss(mapId: String, id: String?, studioReady: Bool)
        /// The person chose the action `actionId` of a point of the map `mapId`.
        case chosen(mapId: String, actionId: String, studioReady: Bool)
        /// The person closed the map `mapId` (Done, Escape).
        case closed(mapId: String, studioReady: Bool)
        /// The document the map belongs to is going: take it away unreported.
        case withdraw
    }

    /// Replies, `.showMap`, `.hideMap`, and `.send` of `system/map-action` and `system/map-dismissed`.
    public typealias Effect = PageEffect

    /// `systemMap` is offered to this page (main only).
    public let offered: Bool
    /// The map shown now, as Studio last sent it.
    public private(set) var current: MapPresent?

    public init(offered: Bool) { self.offered = offered }

    public mutating func reduce(_ event: Event) -> [PageEffect] {
        switch event {
        case .present(let map, let id, let studioAsked):
            guard offered, studioAsked else { return [.reply(.failure(id: id, code: .unavailable))] }
            if let current, current.mapId != map.mapId { return [.reply(.failure(id: id, code: .unavailable))] }
            self.current = map
            return [.reply(.ok(id)), .showMap(map)]

        case .dismiss(let mapId, let id, let studioReady):
            guard current?.mapId == mapId else { return [.reply(.ok(id))] }  // not this map: nothing
            return [.reply(.ok(id))] + close(studioReady: studioReady)

        case .chosen(let mapId, let actionId, let studioReady):
            // Only an action of the map shown, as Studio last sent it.
            guard let map = current, map.mapId == mapId, map.point(offering: actionId) != nil else { return [] }
            current = nil
            return [.hideMap(mapId: mapId)]
                + (studioReady ? [.send(.mapAction(mapId: mapId, actionId: actionId)), .send(.mapDismissed(mapId: mapId))] : [])

        case .closed(let mapId, let studioReady):
            guard current?.mapId == mapId else { return [] }
            return close(studioReady: studioReady)

        case .withdraw:
            guard let map = current else { return [] }
            current = nil
            return [.hideMap(mapId: map.mapId)]
        }
    }

    private mutating func close(studioReady: Bool) -> [PageEffect] {
        guard let map = current else { return [] }
        current = nil
        return [.hideMap(mapId: map.mapId)] + (studioReady ? [.send(.mapDismissed(mapId: map.mapId))] : [])
    }
}
