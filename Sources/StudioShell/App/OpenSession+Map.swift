import HostCore
import StudioContract

/// The system map (§6): Studio's `system/map-present` shows it over main's page (a sheet in a
/// compact window, a panel in a regular one), the same `mapId` replaces its points in place,
/// and the person's choice — a point's action, or Done — goes back to main's session, which
/// decides what Studio is told. The control interface chooses and closes as a person would.
extension OpenSession {
    /// Shows `map`, or replaces the points of the one shown (the session allowed it).
    func showMap(_ map: MapPresent) {
        if let surface = mapSurface, surface.map.mapId == map.mapId {
            surface.show(map)
        } else {
            mapSurface?.close()
            // Timed from the message's arrival to the canvas's first draw (the map bench).
            let arrived = page.lastArrival
            let surface = MapSurface(map, overlay: view.widget, sizeClass: adaptive.sizeClass)
            surface.canvas.onDrawn = { [weak surface] in
                guard let surface, surface.firstPaintMilliseconds == nil else { return }
                surface.firstPaintMilliseconds = (monotonicSeconds() - arrived) * 1000
                surface.canvas.onDrawn = nil
            }
            let mapId = map.mapId
            surface.onChoose = { [weak self] actionId in self?.page.apply(.mapChosen(mapId: mapId, actionId: actionId)) }
            surface.onDone = { [weak self] in self?.page.apply(.mapClosed(mapId: mapId)) }
            mapSurface = surface
        }
        onScreenChanged?()
    }

    /// Takes the map `mapId` away (chosen, closed, dismissed by Studio, or withdrawn).
    func hideMap(_ mapId: String) {
        guard let surface = mapSurface, surface.map.mapId == mapId else { return }
        mapSurface = nil
        surface.close()
        onScreenChanged?()
    }

    /// `ctl map choose POINT`: the point's action, chosen through its row as Enter on it does.
    func chooseOnMap(_ pointId: String) -> String? {
        guard let surface = mapSurface else { return "no map is shown" }
        guard let point = surface.map.points.first(where: { $0.id == pointId }) else {
            let ids = surface.map.points.prefix(20).map(\.id).joined(separator: ", ")
            return "the map has no point \"\(pointId)\"; its points: \(ids)\(surface.map.points.count > 20 ? ", …" : "")"
        }
        guard point.actionId != nil else { return "the point \"\(pointId)\" offers no action" }
        // Through the list, as the keyboard chooses: the row's activation is what reports it.
        guard surface.activate(pointId) else { return "the map's list is not filled yet: wait for map.listReady" }
        return nil
    }

    /// `ctl map done`: Done, as the person would press it.
    func closeMap() -> String? {
        guard let surface = mapSurface else { return "no map is shown" }
        page.apply(.mapClosed(mapId: surface.map.mapId))
        return nil
    }

    /// For state dumps: the map on screen, with its points, or null.
    var mapJSON: JSONValue { mapSurface?.stateJSON ?? .null }
}
