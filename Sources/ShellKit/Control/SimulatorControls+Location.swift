import CGtk
import HostCore

/// The simulated location through WebKit's geolocation manager (the default web context's,
/// every page's): while a location is set, its "start" is answered by HostShell and each of
/// `SimulatedLocation`'s positions goes to `webkit_geolocation_manager_update_position`, so
/// `navigator.geolocation` gets them (given the location permission). With none set, "start" is
/// left to WebKit, which asks the desktop's location service (GeoClue) as before.
extension SimulatorControls {
    var locationJSON: JSONValue { location?.machine.json ?? SimulatedLocation().json }

    private var geolocationManager: OpaquePointer? {
        webkit_web_context_get_geolocation_manager(webkit_web_context_get_default())
    }

    /// Takes WebKit's geolocation manager's "start"/"stop" (before any page asks, so a page
    /// that watches first gets the simulated positions from the start).
    package func attachLocation() {
        guard location == nil else { return }
        location = MachineLoop(SimulatedLocation())
        locationTimers = TimerBank { [weak self] name in self?.sendLocation(.timerFired(name)) }
        guard let manager = geolocationManager else { return }
        let instance = UnsafeMutableRawPointer(manager)
        geolocationSignals = [
            SignalConnection(instance, cgtk_connect_bool(instance, "start", { _, data in
                let body = Callback<@MainActor () -> Bool>.body(data)
                return MainActor.assumeIsolated { body() } ? 1 : 0
            }, Callback.retained({ [weak self] () -> Bool in self?.geolocationStart() ?? false }), CallbackRelease.closureNotify)),
            onSignal(instance, "stop") { [weak self] in self?.geolocationStarted = false },
        ]
    }

    func locate(_ request: SimulatorCommand.LocationRequest) {
        attachLocation()
        switch request {
        case .set(let point, let accuracy): sendLocation(.set(point, accuracy: accuracy))
        case .route(let route, let accuracy): sendLocation(.route(route, accuracy: accuracy))
        case .clear: sendLocation(.clear)
        }
    }

    /// WebKit starts watching: HostShell provides the positions when a location is set (the
    /// current one goes out once WebKit has its watcher), else WebKit's own provider does.
    private func geolocationStart() -> Bool {
        guard let fix = location?.machine.fix else { return false }
        geolocationStarted = true
        MainLoop.after(milliseconds: 0) { [weak self] in
            guard let self, self.geolocationStarted, self.location?.machine.fix == fix else { return }
            self.report(fix)
        }
        return true
    }

    private func sendLocation(_ event: SimulatedLocation.Event) {
        location?.send(event) { [weak self] effect in
            guard let self else { return }
            switch effect {
            case .position(let fix): self.report(fix)
            case .unavailable:
                if self.geolocationStarted, let manager = self.geolocationManager {
                    webkit_geolocation_manager_failed(manager, "no simulated location (ctl location clear)")
                }
            case .timer(let command): self.locationTimers?.perform(command)
            }
        }
    }

    private func report(_ fix: SimulatedLocation.Fix) {
        guard let manager = geolocationManager,
              let position = webkit_geolocation_position_new(fix.coordinate.latitude, fix.coordinate.longitude, fix.accuracy) else { return }
        if let heading = fix.heading { webkit_geolocation_position_set_heading(position, heading) }
        if let speed = fix.speed { webkit_geolocation_position_set_speed(position, speed) }
        webkit_geolocation_manager_update_position(manager, position)
        webkit_geolocation_position_free(position)
    }
}
