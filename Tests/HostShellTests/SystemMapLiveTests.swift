import Foundation
import Testing

/// The system map (§6) in the running app, with the reference Studio's fleet map.
@Suite("System map (real WebKit)",
       .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil, "needs a display: scripts/test runs these under Xvfb"),
       .serialized)
struct SystemMapLiveTests {
    static let click = "document.getElementById('fleet-map').click(); true"

    /// The bridge messages the host sent, in order, read from the event stream until `last` came.
    static func sent(_ reader: ObservabilityTests.EventReader, until last: String) -> [(type: String, payload: [String: Any])] {
        let events = reader.events { event in
            (event["message"] as? [String: Any])?["type"] as? String == last && event["dir"] as? String == "host-to-studio"
        }
        return events.compactMap { event in
            guard event["dir"] as? String == "host-to-studio", let message = event["message"] as? [String: Any],
                  let type = message["type"] as? String else { return nil }
            return (type, message["payload"] as? [String: Any] ?? [:])
        }
    }

    @Test("the fleet map: shown with its points; the same mapId replaces them in place; a point's action sends map-action then map-dismissed; Done sends map-dismissed")
    func fleetMap() throws {
        let live = try LiveApp(["--allow-eval"])
        defer { live.finish() }
        let app = live.app
        _ = try app.state("screen=page", "negotiated=true", "frontendReady=true")
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.evalWhen("document.getElementById('fleet-map') !== null")
        #expect(try app.ctl("map", "done").error.contains("no map is shown"))

        #expect(try app.ctl("eval", Self.click).status == 0)
        var state = try app.state("map.mapId=\"fleet\"", "map.listReady=true")
        let map = try #require(state["map"] as? [String: Any])
        #expect(map["title"] as? String == "Fleet map")
        #expect((map["notice"] as? String)?.contains("Map tiles are not available offline") == true)
        #expect(map["style"] as? String == "panel")  // a desktop window: a panel beside the page
        let points = try #require(map["points"] as? [[String: Any]])
        #expect(points.map { $0["id"] as? String } == ["lobby-north", "cafeteria", "reception", "warehouse"])
        #expect(points.map { $0["tone"] as? String } == ["positive", "warning", "critical", "muted"])
        #expect(points[0]["actionId"] as? String == "open-lobby-north" && points[3]["actionId"] is NSNull)
        #expect((points[0]["latitude"] as? Double).map { abs($0 - 60.1712) < 1e-9 } == true)

        // Studio asks again while it shows: the same map, its points replaced in place.
        #expect(try app.ctl("eval", Self.click).status == 0)
        state = try app.state("map.points.1.tone=\"positive\"", "map.points.1.subtitle=\"Back online\"")
        #expect(try app.evalWhen("document.getElementById('fleet-map-status').dataset.shown === '2' && document.getElementById('fleet-map-status').textContent") as? String == "Map refreshed.")

        // Refusals: a point without an action, a point that is not there.
        #expect(try app.ctl("map", "choose", "warehouse").error.contains("offers no action"))
        #expect(try app.ctl("map", "choose", "nowhere").error.contains("no point \"nowhere\""))
        _ = try app.state("map.mapId=\"fleet\"")

        let events = try ObservabilityTests.EventReader(app, ["--kind", "bridge", "--timeout", "60"])
        #expect(try app.ctl("map", "choose", "lobby-north").status == 0)
        _ = try app.state("map=null")
        let chosen = Self.sent(events, until: "system/map-dismissed").filter { $0.type.hasPrefix("system/map-") }
        #expect(chosen.map(\.type) == ["system/map-action", "system/map-dismissed"])
        #expect(chosen.first?.payload["mapId"] as? String == "fleet" && chosen.first?.payload["actionId"] as? String == "open-lobby-north")
        #expect(chosen.last?.payload["mapId"] as? String == "fleet")
        // Studio took the action: it opened that screen.
        _ = try app.evalWhen("location.pathname === '/screens/lobby-north'")

        // Back on the screens, the map again, closed with Done.
        #expect(try app.ctl("tap", "screens").status == 0)
        _ = try app.evalWhen("document.getElementById('fleet-map') !== null && location.pathname === '/screens'")
        #expect(try app.ctl("eval", Self.click).status == 0)
        _ = try app.state("map.mapId=\"fleet\"")
        let closing = try ObservabilityTests.EventReader(app, ["--kind", "bridge", "--timeout", "60"])
        #expect(try app.ctl("map", "done").status == 0)
        _ = try app.state("map=null")
        let done = Self.sent(closing, until: "system/map-dismissed").filter { $0.type.hasPrefix("system/map-") }
        #expect(done.map(\.type) == ["system/map-dismissed"])
        _ = try app.evalWhen("document.getElementById('fleet-map-status').textContent === 'Map closed.' || document.getElementById('fleet-map-status').dataset.dismissed")
    }
}
