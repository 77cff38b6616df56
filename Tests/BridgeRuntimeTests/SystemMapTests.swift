import HostCore
import StudioContract
import Testing

/// The system map (§6 System map): decoding, capabilities, and the page session's map machine.
@Suite("System map")
struct SystemMapTests {
    static func point(_ id: String, _ extra: JSONObject = [:]) -> JSONValue {
        var p: JSONObject = ["id": .string(id), "title": .string("Point \(id)"), "latitude": 48.85, "longitude": 2.35]
        for member in extra.members { p[member.key] = member.value }
        return .object(p)
    }

    static func present(_ mapId: String = "fleet", points: [JSONValue] = [point("a", ["actionId": "open-a"]), point("b")],
                        id: String? = "m1", title: String = "Fleet") -> String {
        envelope("system/map-present", ["mapId": .string(mapId), "title": .string(title), "points": .array(points)], id: id)
    }

    static func session(studioMap: Bool = true, context: HostContext = .main,
                        available: Set<HostCapability> = [.systemMap, .nativeActionMenus]) -> PageSession {
        var session = PageSession(context: context, profile: .desktop, available: available)
        _ = session.reduce(.documentCommitted)
        PageSessionTests.post(&session, envelope("config/get"))
        PageSessionTests.post(&session, envelope("frontend/ready", ["capabilities": studioMap ? ["systemMap": true, "nativeActionMenus": true] : [:]]))
        return session
    }

    static func map(_ text: String) -> MapPresent? {
        guard case .mapPresent(let map)? = decoded(text, context: .main) else { return nil }
        return map
    }

    // MARK: capabilities

    @Test("systemMap is offered on main and false on a presentation page; frontend/ready reads it")
    func capabilities() throws {
        let main = ConfigReply(context: .main, capabilities: .offered(to: .main, available: [.systemMap])).payload
        let sheet = ConfigReply(context: .presentation, capabilities: .offered(to: .presentation, available: [.systemMap])).payload
        #expect(main["capabilities"]?.objectValue?["systemMap"] == .bool(true))
        #expect(sheet["capabilities"]?.objectValue?["systemMap"] == .bool(false))
        guard case .frontendReady(let ready)? = decoded(envelope("frontend/ready", ["capabilities": ["systemMap": true]])) else {
            Issue.record("frontend/ready was not decoded"); return
        }
        #expect(ready.capabilities.contains(.systemMap))
        guard case .frontendReady(let loose)? = decoded(envelope("frontend/ready", ["capabilities": ["systemMap": 1]])) else { return }
        #expect(!loose.capabilities.contains(.systemMap))
    }

    // MARK: decoding

    @Test("map-present decodes its points with their tones, subtitles and actions")
    func decodes() throws {
        let text = Self.present(points: [Self.point("a", ["subtitle": "Lobby", "tone": "critical", "actionId": "open-a"]), Self.point("b")])
        let map = try #require(Self.map(text))
        #expect(map.mapId == "fleet" && map.title == "Fleet" && map.points.count == 2)
        #expect(map.points[0] == MapPoint(id: "a", title: "Point a", subtitle: "Lobby", latitude: 48.85, longitude: 2.35, tone: .critical, actionId: "open-a"))
        #expect(map.points[1].tone == nil && map.points[1].effectiveTone == .default && map.points[1].actionId == nil)
        #expect(map.point(offering: "open-a")?.id == "a")
    }

    @Test("map-present and map-dismiss are strict and bounded", arguments: [
        // (what is wrong, the payload)
        ("unknown key", ["mapId": "m", "title": "T", "points": [point("a")], "extra": 1] as JSONValue),
        ("mapId pattern", ["mapId": "Fleet", "title": "T", "points": [point("a")]]),
        ("mapId 65", ["mapId": .string(repeated("m", 65)), "title": "T", "points": [point("a")]]),
        ("title empty", ["mapId": "m", "title": "", "points": [point("a")]]),
        ("title 201", ["mapId": "m", "title": .string(repeated("t", 201)), "points": [point("a")]]),
        ("no points", ["mapId": "m", "title": "T", "points": []]),
        ("501 points", ["mapId": "m", "title": "T", "points": .array((0..<501).map { point("p\($0)") })]),
        ("repeated point id", ["mapId": "m", "title": "T", "points": [point("a"), point("a")]]),
        ("point unknown key", ["mapId": "m", "title": "T", "points": [point("a", ["color": "red"])]]),
        ("point id 65", ["mapId": "m", "title": "T", "points": [point(repeated("a", 65))]]),
        ("point title 201", ["mapId": "m", "title": "T", "points": [point("a", ["title": .string(repeated("t", 201))])]]),
        ("subtitle empty", ["mapId": "m", "title": "T", "points": [point("a", ["subtitle": ""])]]),
        ("subtitle 201", ["mapId": "m", "title": "T", "points": [point("a", ["subtitle": .string(repeated("s", 201))])]]),
        ("latitude 90.5", ["mapId": "m", "title": "T", "points": [point("a", ["latitude": 90.5])]]),
        ("latitude string", ["mapId": "m", "title": "T", "points": [point("a", ["latitude": "48"])]]),
        ("longitude -180.1", ["mapId": "m", "title": "T", "points": [point("a", ["longitude": -180.1])]]),
        ("no longitude", ["mapId": "m", "title": "T", "points": [.object(["id": "a", "title": "A", "latitude": 1])]]),
        ("tone unknown", ["mapId": "m", "title": "T", "points": [point("a", ["tone": "danger"])]]),
        ("tone null", ["mapId": "m", "title": "T", "points": [point("a", ["tone": .null])]]),
        ("actionId pattern", ["mapId": "m", "title": "T", "points": [point("a", ["actionId": "Open"])]]),
        ("actionId 65", ["mapId": "m", "title": "T", "points": [point("a", ["actionId": .string(repeated("o", 65))])]]),
    ] as [(String, JSONValue)])
    func malformedPresent(_ problem: String, _ payload: JSONValue) {
        #expect(failureCode(envelope("system/map-present", payload, id: "x"), context: .main) == .malformed, "\(problem)")
    }

    @Test("bounds are inclusive: 500 points, 64-character ids, 200-character titles, ±90 and ±180")
    func boundsAccepted() {
        let edge = Self.point(repeated("p", 64), ["title": .string(repeated("t", 200)), "subtitle": .string(repeated("s", 200)),
                                                  "latitude": -90, "longitude": 180, "actionId": .string(repeated("a", 64))])
        let many: [JSONValue] = [edge] + (1..<500).map { Self.point("p\($0)", ["latitude": 90, "longitude": -180]) }
        let text = envelope("system/map-present", ["mapId": .string(repeated("m", 64)), "title": .string(repeated("t", 200)),
                                                   "points": .array(many)])
        #expect(Self.map(text)?.points.count == 500)
        // A title of 100 "é" written as e + U+0301 (200 scalars) is within 200 characters.
        #expect(Self.map(Self.present(title: repeated("e\u{301}", 100))) != nil)
    }

    @Test("map-dismiss is strict: {mapId} only")
    func dismissStrict() {
        #expect(decoded(envelope("system/map-dismiss", ["mapId": "fleet"]), context: .main) == .mapDismiss(mapId: "fleet"))
        #expect(failureCode(envelope("system/map-dismiss", ["mapId": "fleet", "why": "x"]), context: .main) == .malformed)
        #expect(failureCode(envelope("system/map-dismiss", [:]), context: .main) == .malformed)
        #expect(failureCode(envelope("system/map-dismiss", ["mapId": "Fleet"]), context: .main) == .malformed)
    }

    @Test("from a presentation page both are forbidden; the host's own types sent by Studio are unknown_type")
    func directions() {
        #expect(failureCode(Self.present(), context: .presentation) == .forbidden)
        #expect(failureCode(envelope("system/map-dismiss", ["mapId": "fleet"]), context: .presentation) == .forbidden)
        #expect(failureCode(envelope("system/map-action", ["mapId": "fleet", "actionId": "a"]), context: .main) == .unknownType)
        #expect(failureCode(envelope("system/map-dismissed", ["mapId": "fleet"]), context: .main) == .unknownType)
    }

    @Test("map-action and map-dismissed encode as Studio reads them, strictly")
    func hostMessages() throws {
        #expect(HostMessage.mapAction(mapId: "fleet", actionId: "open-a").envelope.text
            == #"{"version":1,"type":"system/map-action","payload":{"mapId":"fleet","actionId":"open-a"}}"#)
        #expect(HostMessage.mapDismissed(mapId: "fleet").envelope.text == #"{"version":1,"type":"system/map-dismissed","payload":{"mapId":"fleet"}}"#)
        #expect(try HostMessage.decode(text: #"{"version":1,"type":"system/map-dismissed","payload":{"mapId":"fleet"}}"#) == .mapDismissed(mapId: "fleet"))
        #expect(throws: BridgeFailure.self) {
            try HostMessage.decode(text: #"{"version":1,"type":"system/map-dismissed","payload":{"mapId":"fleet","x":1}}"#)
        }
    }

    // MARK: the page session's map

    @Test("without Studio's systemMap, or on a page not offered it: unavailable")
    func unavailable() {
        var noStudio = Self.session(studioMap: false)
        #expect(PageSessionTests.post(&noStudio, Self.present()) == [.reply(.failure(id: "m1", code: .unavailable))])
        var notOffered = Self.session(available: [])
        #expect(PageSessionTests.post(&notOffered, Self.present()) == [.reply(.failure(id: "m1", code: .unavailable))])
        #expect(notOffered.shownMap == nil)
    }

    @Test("one map at a time: the same mapId replaces its points in place; another mapId is unavailable")
    func oneAtATime() throws {
        var session = Self.session()
        let first = try #require(Self.map(Self.present()))
        #expect(PageSessionTests.post(&session, Self.present()) == [.reply(.ok("m1")), .showMap(first)])
        let moved = Self.present(points: [Self.point("a", ["tone": "warning", "actionId": "open-a"])], id: "m2")
        let replaced = try #require(Self.map(moved))
        #expect(PageSessionTests.post(&session, moved) == [.reply(.ok("m2")), .showMap(replaced)])
        #expect(session.shownMap == replaced)
        #expect(PageSessionTests.post(&session, Self.present("other", id: "m3")) == [.reply(.failure(id: "m3", code: .unavailable))])
        #expect(session.shownMap == replaced)
    }

    @Test("map-dismiss closes only the map with that id, and reports it dismissed")
    func studioDismiss() {
        var session = Self.session()
        _ = PageSessionTests.post(&session, Self.present())
        #expect(PageSessionTests.post(&session, envelope("system/map-dismiss", ["mapId": "other"], id: "d1")) == [.reply(.ok("d1"))])
        #expect(session.shownMap != nil)
        #expect(PageSessionTests.post(&session, envelope("system/map-dismiss", ["mapId": "fleet"], id: "d2"))
            == [.reply(.ok("d2")), .hideMap(mapId: "fleet"), .send(.mapDismissed(mapId: "fleet"))])
        #expect(session.shownMap == nil)
        #expect(PageSessionTests.post(&session, envelope("system/map-dismiss", ["mapId": "fleet"], id: "d3")) == [.reply(.ok("d3"))])
    }

    @Test("choosing a point's action closes the map, then sends map-action and map-dismissed; other choices send nothing")
    func choose() {
        var session = Self.session()
        _ = PageSessionTests.post(&session, Self.present())
        #expect(session.reduce(.mapChosen(mapId: "fleet", actionId: "open-b")) == [])  // not an action of this map
        #expect(session.reduce(.mapChosen(mapId: "other", actionId: "open-a")) == [])
        #expect(session.reduce(.mapChosen(mapId: "fleet", actionId: "open-a"))
            == [.hideMap(mapId: "fleet"), .send(.mapAction(mapId: "fleet", actionId: "open-a")), .send(.mapDismissed(mapId: "fleet"))])
        #expect(session.shownMap == nil)
        #expect(session.reduce(.mapChosen(mapId: "fleet", actionId: "open-a")) == [])  // late: the map is gone
        #expect(session.reduce(.mapClosed(mapId: "fleet")) == [])
    }

    @Test("closing the map (Done) sends map-dismissed once")
    func done() {
        var session = Self.session()
        _ = PageSessionTests.post(&session, Self.present())
        #expect(session.reduce(.mapClosed(mapId: "other")) == [])
        #expect(session.reduce(.mapClosed(mapId: "fleet")) == [.hideMap(mapId: "fleet"), .send(.mapDismissed(mapId: "fleet"))])
        #expect(session.reduce(.mapClosed(mapId: "fleet")) == [])
        // A new map may come now, with another id.
        #expect(PageSessionTests.post(&session, Self.present("other", id: "m4")).first == .reply(.ok("m4")))
    }

    @Test("withdrawn unreported when its document goes (navigation start or a new document)")
    func withdrawal() {
        var session = Self.session()
        _ = PageSessionTests.post(&session, Self.present())
        #expect(session.reduce(.navigationStarted).contains(.hideMap(mapId: "fleet")))
        #expect(session.shownMap == nil)
        #expect(!session.reduce(.navigationStarted).contains(.hideMap(mapId: "fleet")))
        var again = Self.session()
        _ = PageSessionTests.post(&again, Self.present())
        #expect(again.reduce(.documentCommitted).contains(.hideMap(mapId: "fleet")))
        #expect(again.shownMap == nil)
        // The new document has not said systemMap yet.
        PageSessionTests.post(&again, envelope("config/get"))
        #expect(PageSessionTests.post(&again, Self.present(id: "m5")) == [.reply(.failure(id: "m5", code: .unavailable))])
    }

    @Test("a map coming up closes the open menu first, reported dismissed")
    func closesMenu() {
        var session = Self.session()
        let menu = envelope("action-menu/arm", ["menuId": "row", "label": "Row", "groups": [["items": [["id": "x", "label": "X"]]]]])
        _ = PageSessionTests.post(&session, menu)
        _ = session.reduce(.menuOpenRequested(menuId: "row", source: .armed))
        let effects = PageSessionTests.post(&session, Self.present())
        // The armed menu goes with its dismissal (§6), then Studio hears it.
        #expect(effects.prefix(4) == [.reply(.ok("m1")), .hideMenu, .menusChanged, .send(.actionMenuDismissed(menuId: "row"))])
        #expect(effects.last.map { if case .showMap = $0 { true } else { false } } == true)
    }

    @Test("the machine alone: presenting before Studio is ready to be told still shows; choices then send nothing")
    func machineAlone() throws {
        var machine = SystemMap(offered: true)
        let map = try #require(Self.map(Self.present()))
        #expect(machine.reduce(.present(map, id: nil, studioAsked: true)) == [.reply(.ok(nil)), .showMap(map)])
        #expect(machine.reduce(.chosen(mapId: "fleet", actionId: "open-a", studioReady: false)) == [.hideMap(mapId: "fleet")])
    }

    // MARK: drawing rules

    @Test("the projection fits the points' bounds inside the margin, north up, centred, aspect kept")
    func projection() {
        let points = [MapPoint(id: "sw", title: "SW", latitude: 40, longitude: -10), MapPoint(id: "ne", title: "NE", latitude: 50, longitude: 10)]
        let projection = MapProjection(points: points, width: 400, height: 300, margin: 20)
        let sw = projection.place(latitude: 40, longitude: -10), ne = projection.place(latitude: 50, longitude: 10)
        #expect(ne.y < sw.y && ne.x > sw.x)  // north up, east right
        for p in [sw, ne] { #expect(p.x >= 20 - 1e-9 && p.x <= 380 + 1e-9 && p.y >= 20 - 1e-9 && p.y <= 280 + 1e-9) }
        // Fit on one axis, centred on the other.
        let touchesX = abs(sw.x - 20) < 1e-6 && abs(ne.x - 380) < 1e-6, touchesY = abs(ne.y - 20) < 1e-6 && abs(sw.y - 280) < 1e-6
        #expect(touchesX || touchesY)
        #expect(abs((sw.x + ne.x) / 2 - 200) < 1e-6 && abs((sw.y + ne.y) / 2 - 150) < 1e-6)
        // One degree of latitude and one of longitude (times the cosine) are the same length.
        #expect(abs((ne.x - sw.x) / (20 * projection.cosine) - (sw.y - ne.y) / 10) < 1e-6)
        #expect(projection.point(at: ne.x + 3, ne.y - 3, in: points, radius: 10)?.id == "ne")
        #expect(projection.point(at: 200, 150, in: points, radius: 10) == nil)
    }

    @Test("a single point is centred; close points get the minimum span; the graticule steps are round")
    func projectionEdges() {
        let one = MapProjection(points: [MapPoint(id: "a", title: "A", latitude: 90, longitude: 180)], width: 200, height: 100, margin: 10)
        let at = one.place(latitude: 90, longitude: 180)
        #expect(at.x.isFinite && at.y.isFinite && at.x >= 10 && at.x <= 190 && at.y >= 10 && at.y <= 90)
        #expect(one.bounds.north <= 90 && one.bounds.east <= 180)
        #expect(abs(one.bounds.north - one.bounds.south - MapProjection.minimumSpan) < 1e-9)
        #expect(MapProjection.gridLines(40, 50) == [40, 42, 44, 46, 48, 50])
        let small = MapProjection.gridLines(-0.3, 0.3, most: 4)
        #expect(small.count == 3 && zip(small, [-0.2, 0, 0.2]).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test("labels never overlap a dot or each other, stay on the canvas, and fall back to the left; the selected one always shows")
    func labels() {
        var placer = MapLabelPlacer(width: 200, height: 100)
        placer.reserve(MapRect(x: 90, y: 40, width: 12, height: 12))
        let right = MapRect(x: 106, y: 38, width: 60, height: 16), left = MapRect(x: 26, y: 38, width: 60, height: 16)
        #expect(placer.place([right, left]) == right)
        #expect(placer.place([right, left]) == left)  // the right is taken now
        #expect(placer.place([right, left]) == nil)
        #expect(placer.place([right], force: true) == right)
        #expect(placer.place([MapRect(x: 170, y: 0, width: 60, height: 16)]) == nil)  // off the canvas
        #expect(!placer.isFree(MapRect(x: 95, y: 45, width: 2, height: 2)))  // on the dot
        // Many points: every placed label is free of every other box.
        var many = MapLabelPlacer(width: 400, height: 300)
        var placed: [MapRect] = []
        for i in 0..<500 {
            let x = Double(i * 37 % 400), y = Double(i * 91 % 300)
            if let box = many.place([MapRect(x: x + 10, y: y - 8, width: 50, height: 16), MapRect(x: x - 60, y: y - 8, width: 50, height: 16)]) { placed.append(box) }
        }
        #expect(!placed.isEmpty)
        for i in placed.indices { for j in placed.indices where j > i { #expect(!placed[i].overlaps(placed[j])) } }
    }

    @Test("the surface is a bottom sheet in a compact window and a right-hand panel in a regular one")
    func layout() {
        #expect(MapSurfaceLayout.place(.compact, windowWidth: 400, windowHeight: 800) == SheetLayout(x: 0, y: 24, width: 400, height: 776))
        #expect(MapSurfaceLayout.place(.regular, windowWidth: 1280, windowHeight: 800) == SheetLayout(x: 720, y: 0, width: 560, height: 800))
        #expect(MapSurfaceLayout.place(.regular, windowWidth: 700, windowHeight: 600) == SheetLayout(x: 340, y: 0, width: 360, height: 600))
    }
}
