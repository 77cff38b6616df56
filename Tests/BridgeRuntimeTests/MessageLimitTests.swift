import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// Each limit of §3 at the limit and one past it, beyond what the corpus lists.
@Suite("Message limits and defaults")
struct MessageLimitTests {
    func catalog(groups: JSONValue) -> String { envelope("navigation/catalog", ["groups": groups]) }
    func item(_ id: String, title: String = "T", icon: String = "home") -> JSONValue { ["id": .string(id), "title": .string(title), "icon": .string(icon)] }
    func group(_ items: [JSONValue], id: String = "g", title: JSONValue? = nil) -> JSONValue {
        var o: JSONObject = ["id": .string(id), "items": .array(items)]
        if let title { o["title"] = title }
        return .object(o)
    }

    @Test("catalog: 32 groups, 64 items a group, 128 destinations, id and title lengths")
    func catalogLimits() {
        let items64 = (0..<64).map { item("d\($0)") }
        #expect(failureCode(catalog(groups: [group(items64)])) == nil)
        #expect(failureCode(catalog(groups: [group(items64 + [item("d64")])])) == .malformed)
        let groups32: [JSONValue] = (0..<32).map { g in group([item("g\(g)")], id: "g\(g)") }
        #expect(failureCode(catalog(groups: .array(groups32))) == nil)
        #expect(failureCode(catalog(groups: .array(groups32 + [group([item("x")], id: "x")]))) == .malformed)
        let two64 = [group((0..<64).map { item("a\($0)") }, id: "a"), group((0..<64).map { item("b\($0)") }, id: "b")]
        #expect(failureCode(catalog(groups: .array(two64))) == nil, "128 destinations")
        #expect(failureCode(catalog(groups: .array(two64 + [group([item("c")], id: "c")]))) == .malformed, "129")
        #expect(failureCode(catalog(groups: [group([item(repeated("d", 128))])])) == nil)
        #expect(failureCode(catalog(groups: [group([item(repeated("d", 129))])])) == .malformed)
        #expect(failureCode(catalog(groups: [group([item("d")], id: repeated("g", 64))])) == nil)
        #expect(failureCode(catalog(groups: [group([item("d")], id: repeated("g", 65))])) == .malformed)
        #expect(failureCode(catalog(groups: [group([item("d", title: repeated("t", 200))])])) == nil)
        #expect(failureCode(catalog(groups: [group([item("d", title: repeated("t", 201))])])) == .malformed)
        #expect(failureCode(catalog(groups: [group([item("d", icon: repeated("i", 40))])])) == nil)
        #expect(failureCode(catalog(groups: [group([item("d", icon: repeated("i", 41))])])) == .malformed)
        #expect(failureCode(catalog(groups: [group([item("d")], title: "")])) == .malformed)
        #expect(failureCode(catalog(groups: [group([item("d")], title: nil)])) == nil)
        #expect(failureCode(catalog(groups: [group([item("d")], title: .null)])) == .malformed, "null is not absent")
        #expect(failureCode(catalog(groups: [group([item("d", icon: "Home")])])) == .malformed)
        #expect(failureCode(catalog(groups: ["not an object"])) == .malformed)
    }

    @Test("titles count characters, grapheme clusters as the phone counts (§5)")
    func unicodeLengths() {
        let family = repeated("👩‍👩‍👧", 200)  // 200 characters, 1000 scalars, 1600 UTF-16 units
        #expect(failureCode(catalog(groups: [group([item("d", title: family)])])) == nil)
        #expect(failureCode(catalog(groups: [group([item("d", title: family + "x")])])) == .malformed)
        #expect(failureCode(catalog(groups: [group([item("d", title: repeated("😀", 200))])])) == nil, "400 UTF-16 units")
        #expect(failureCode(catalog(groups: [group([item("d", title: repeated("e\u{301}", 200))])])) == nil, "200 characters, 400 scalars")
        #expect(failureCode(catalog(groups: [group([item("d", title: repeated("e\u{301}", 201))])])) == .malformed, "201 characters")
        #expect(failureCode(catalog(groups: [group([item("d", title: repeated("é", 200))])])) == nil)
        #expect(failureCode(catalog(groups: [group([item("é")])])) == .malformed, "ids are ASCII only")
    }

    @Test("the catalog's decoded order and default placement")
    func catalogDecoding() throws {
        let text = catalog(groups: [group([item("b"), ["id": "a", "title": "A", "icon": "x", "mobilePlacement": "primary"]], title: "G")])
        guard case .navigationCatalog(let c)? = decoded(text) else { Issue.record("not decoded"); return }
        #expect(c.destinations.map(\.id) == ["b", "a"])
        #expect(c.destinations.map(\.placement) == [.more, .primary])
        #expect(c.groups[0].title == "G")
    }

    @Test("navigation/state: null destination, path rules for diagnostics")
    func navigationState() {
        #expect(failureCode(envelope("navigation/state", ["activeDestinationId": nil])) == nil)
        #expect(failureCode(envelope("navigation/state", ["activeDestinationId": "a", "path": .string("/" + repeated("p", 2047))])) == nil)
        #expect(failureCode(envelope("navigation/state", ["activeDestinationId": "a", "path": .string("/" + repeated("p", 2048))])) == .malformed)
        #expect(failureCode(envelope("navigation/state", ["activeDestinationId": "a", "path": ""])) == .malformed)
        #expect(failureCode(envelope("navigation/state", ["activeDestinationId": "", "path": "/"])) == .malformed)
        #expect(failureCode(envelope("navigation/state", ["activeDestinationId": "A"])) == .malformed)
    }

    @Test("navigation/state: the path is diagnostic only, not checked as a Studio path (§5); only corpus case 37's leading / is")
    func navigationStatePathIsDiagnostic() {
        func code(_ path: String) -> ReplyErrorCode? { failureCode(envelope("navigation/state", ["activeDestinationId": nil, "path": .string(path)])) }
        // Dot segments, //, backslash, white space, control, /__native: no Studio path, still a diagnostic one.
        for path in ["/a/../b", "/a/%2e%2e/b", "//evil.example", "/\\evil.example", "/a b", "/a\u{0}b", "/__native/modal",
                     "/\u{301}x", "/" + repeated("\u{1F600}", 2047)] {
            #expect(code(path) == nil, "\(path.unicodeScalars.prefix(12).map(\.value))")
        }
        #expect(code("/" + repeated("\u{1F600}", 2048)) == .malformed, "2049 scalars")
        // The shared corpus (case 37, "navigation/state with a relative path") keeps the leading /.
        #expect(code("layouts") == .malformed)
        #expect(code("\u{301}/x") == .malformed)
    }

    @Test("navigation/chrome is strict at both levels")
    func chrome() {
        #expect(failureCode(envelope("navigation/chrome", ["title": "T", "extra": 1])) == .malformed)
        #expect(failureCode(envelope("navigation/chrome", ["back": ["label": "L", "x": 1]])) == .malformed)
        #expect(failureCode(envelope("navigation/chrome", ["back": ["label": .string(repeated("l", 200))]])) == nil)
        #expect(failureCode(envelope("navigation/chrome", ["back": ["label": .string(repeated("l", 201))]])) == .malformed)
        #expect(failureCode(envelope("navigation/chrome", ["back": "Fleet"])) == .malformed)
    }

    @Test("presentation/open: path tree, 1024 limit, encoded dots in any case, defaults")
    func presentationOpen() {
        func open(_ path: String, _ extra: JSONObject = [:]) -> String {
            var p: JSONObject = ["presentationId": "p", "path": .string(path), "title": "T"]
            for m in extra.members { p[m.key] = m.value }
            return envelope("presentation/open", .object(p))
        }
        let root = "/__native/modal/"
        #expect(failureCode(open(root + repeated("a", 1024 - root.count))) == nil)
        #expect(failureCode(open(root + repeated("a", 1025 - root.count))) == .malformed)
        for bad in ["/__native/modal/%2E%2E/x", "/__native/modal/.%2e/x", "/__native/modal/%2e", "/__native/modal/./x",
                    "/__native/modal/..", "/__NATIVE/modal", "/__native/modal\u{00A0}x", "/__native/modal/\u{7F}",
                    "/__native/modal/\u{2028}", "//__native/modal", "__native/modal", "/__native/modal\t"] {
            #expect(failureCode(open(bad)) == .malformed, "\(bad)")
        }
        for good in ["/__native/modal", "/__native/modal?x=../y", "/__native/modal#..", "/__native/modal/%252e%252e",
                     "/__native/modal/...", "/__native/modal/.x", "/__native/modal/%2e%2e%2e", "/__native/modal/a%2Fb"] {
            #expect(failureCode(open(good)) == nil, "\(good)")
        }
        #expect(failureCode(open(root, ["subtitle": ""])) == .malformed)
        #expect(failureCode(open(root, ["size": .string(repeated("s", 32))])) == nil)
        #expect(failureCode(open(root, ["size": .string(repeated("s", 33))])) == .malformed)
        #expect(failureCode(open(root, ["size": nil])) == .malformed, "null is not absent")
        guard case .presentationOpen(let p)? = decoded(open(root, ["size": "compact-ish", "dismissible": false])) else {
            Issue.record("not decoded"); return
        }
        #expect(p.size == .full)
        #expect(p.dismissible == false)
    }

    @Test("presentation/update: header navigation, ids unique across actions and menu")
    func presentationUpdate() {
        func update(_ header: JSONValue) -> String { envelope("presentation/update", ["presentationId": "p", "header": header]) }
        let actions4: [JSONValue] = (0..<4).map { ["id": .string("a\($0)"), "label": "A", "icon": "home"] }
        #expect(failureCode(update(["title": "T", "actions": .array(actions4)])) == nil)
        let menu16: [JSONValue] = (0..<16).map { ["id": .string("m\($0)"), "label": "M"] }
        #expect(failureCode(update(["title": "T", "menu": .array(menu16)])) == nil)
        #expect(failureCode(update(["title": "T", "menu": [["id": "m", "label": "M", "disabled": "yes"]]])) == .malformed)
        #expect(failureCode(update(["title": "T", "navigationLabel": ""])) == .malformed)
        guard case .presentationUpdate(let u)? = decoded(update(["title": "T", "navigation": "dismiss"])) else {
            Issue.record("not decoded"); return
        }
        #expect(u.header?.navigation == .close, "an unknown navigation token is shown as close")
        guard case .presentationUpdate(let b)? = decoded(update(["title": "T", "navigation": "back"])) else { return }
        #expect(b.header?.navigation == .back)
    }

    @Test("alert/present: strict, 1–3 buttons, label ≤ 60, message ≤ 1000, roles")
    func alerts() {
        func alert(_ payload: JSONObject) -> String {
            var p: JSONObject = ["alertId": "a", "title": "T", "actions": [["id": "ok", "label": "OK"]]]
            for m in payload.members { p[m.key] = m.value }
            return envelope("alert/present", .object(p))
        }
        #expect(failureCode(alert(["message": .string(repeated("m", 1000))])) == nil)
        #expect(failureCode(alert(["message": ""])) == .malformed)
        #expect(failureCode(alert(["actions": [["id": "ok", "label": .string(repeated("l", 60))]]])) == nil)
        #expect(failureCode(alert(["actions": [["id": "ok", "label": "OK", "style": "x"]]])) == .malformed, "buttons are strict")
        #expect(failureCode(alert(["extra": true])) == .malformed)
        #expect(failureCode(alert(["actions": [["id": "a", "label": "A"], ["id": "b", "label": "B", "role": "cancel"], ["id": "c", "label": "C", "role": "destructive"]]])) == nil)
        #expect(failureCode(alert(["title": .string(repeated("t", 201))])) == .malformed)
        #expect(failureCode(envelope("alert/cancel", ["alertId": .string(repeated("a", 64))])) == nil)
    }

    @Test("system/haptic: known kinds map, unknown well-formed tokens are accepted with no effect")
    func haptics() {
        for kind in HapticFeedback.allCases {
            #expect(decoded(envelope("system/haptic", ["feedback": .string(kind.rawValue)])) == .haptic(kind))
        }
        #expect(decoded(envelope("system/haptic", ["feedback": .string(repeated("z", 32))])) == .haptic(nil))
        #expect(failureCode(envelope("system/haptic", ["feedback": "-x"])) == .malformed)
        #expect(failureCode(envelope("system/haptic", ["feedback": ""])) == .malformed)
    }

    @Test("system/share: lengths, needs text or url, null is not absent")
    func shareLimits() {
        #expect(failureCode(envelope("system/share", ["text": .string(repeated("t", 2000))])) == nil)
        #expect(failureCode(envelope("system/share", ["text": ""])) == .malformed)
        #expect(failureCode(envelope("system/share", ["title": "T", "text": nil])) == .malformed)
        let url = "https://example.org/" + repeated("p", 2048 - 20)
        #expect(failureCode(envelope("system/share", ["url": .string(url)])) == nil)
        #expect(failureCode(envelope("system/share", ["url": .string(url + "p")])) == .malformed)
    }

    @Test("system/media-intake: kinds filtered, repeats removed, nothing usable means both")
    func mediaIntake() {
        func kinds(_ accept: JSONValue) -> [MediaKind]? {
            guard case .mediaIntake(let m)? = decoded(envelope("system/media-intake", ["requestId": "r", "accept": accept])) else { return nil }
            return m.kinds
        }
        #expect(kinds(["video", "image", "video"]) == [.video, .image])
        #expect(kinds([]) == [.image, .video])
        #expect(kinds(["audio"]) == [.image, .video])
        #expect(kinds([.string(repeated("k", 16))]) == [.image, .video])
        #expect(kinds([.string(repeated("k", 17))]) == nil)
        #expect(kinds([1]) == nil)
        #expect(kinds("image") == nil)
        #expect(failureCode(envelope("system/media-intake", ["requestId": "r", "multiple": 1])) == .malformed)
    }

    @Test("system/scan-qr: strict, request id up to 128")
    func scanQR() {
        #expect(failureCode(envelope("system/scan-qr", ["requestId": .string(repeated("q", 128))])) == nil)
        #expect(failureCode(envelope("system/scan-qr", ["requestId": .string(repeated("q", 129))])) == .malformed)
    }

    @Test("action menus: groups, items, 24 in all, unique ids, roles, trigger rects")
    func actionMenus() {
        func menu(_ groups: [[JSONValue]], extra: JSONObject = [:], type: String = "action-menu/arm") -> String {
            var p: JSONObject = ["menuId": "m", "label": "Actions",
                                 "groups": .array(groups.map { ["items": .array($0)] })]
            for m in extra.members { p[m.key] = m.value }
            return envelope(type, .object(p))
        }
        func items(_ prefix: String, _ n: Int) -> [JSONValue] { (0..<n).map { ["id": .string("\(prefix)\($0)"), "label": "L"] } }
        #expect(failureCode(menu([items("a", 16), items("b", 8)])) == nil, "24 items")
        #expect(failureCode(menu([items("a", 16), items("b", 9)])) == .malformed, "25 items")
        #expect(failureCode(menu([items("a", 17)])) == .malformed)
        #expect(failureCode(menu((0..<8).map { items("g\($0)-", 1) })) == nil)
        #expect(failureCode(menu((0..<9).map { items("g\($0)-", 1) })) == .malformed)
        guard case .actionMenuArm(let m)? = decoded(menu([[["id": "x", "label": "X", "role": "cancel", "icon": "trash"]]])) else {
            Issue.record("not decoded"); return
        }
        #expect(m.items[0].role == .default)
        #expect(m.items[0].icon == "trash")
        let rect: JSONObject = ["x": 0.1, "y": 0.2, "width": 0.3, "height": 0.4]
        let trigger = "action-menu/register-trigger"
        #expect(failureCode(menu([items("a", 1)], extra: ["rect": .object(rect)], type: trigger)) == nil)
        #expect(failureCode(menu([items("a", 1)], type: trigger)) == .malformed, "a trigger needs its rect")
        for bad: JSONObject in [["x": 0.95, "y": 0, "width": 0.2, "height": 0.1], ["x": -0.1, "y": 0, "width": 0.1, "height": 0.1],
                                ["x": 0, "y": 0, "width": 0, "height": 0.1], ["x": 0, "y": 0, "width": 0.1], ["x": "0", "y": 0, "width": 0.1, "height": 0.1]] {
            #expect(failureCode(menu([items("a", 1)], extra: ["rect": .object(bad)], type: trigger)) == .malformed, "\(bad)")
        }
        #expect(failureCode(menu([items("a", 1)], extra: ["rect": ["x": 0, "y": 0, "width": 1, "height": 1]], type: trigger)) == nil)
        #expect(failureCode(envelope("action-menu/unregister-trigger", ["menuId": "m"])) == nil)
        #expect(failureCode(envelope("action-menu/disarm", [:])) == .malformed)
    }

    @Test("host messages encode to what Studio's decoder accepts")
    func hostMessagesRoundTrip() throws {
        let messages: [HostMessage] = [
            .navigationRequest(destinationId: "plugin:forms:approvals"), .navigationBack, .navigationOpenPath(path: "/a?b=c#d"),
            .signOutRequest, .presentationShow(presentationId: "p", path: "/__native/modal/x"),
            .presentationAction(presentationId: "p", actionId: "back"), .presentationDismissed(presentationId: "p"),
            .presentationEnded(presentationId: "p"), .alertAction(alertId: "a", actionId: "ok"),
            .mediaIntakeCompleted(requestId: "r", outcome: .partial, uploadedCount: 2),
            .qrScanResult(requestId: "q", outcome: .scanned, value: "hello"), .qrScanResult(requestId: "q", outcome: .cancelled, value: nil),
            .actionMenuAction(menuId: "m", actionId: "x"), .actionMenuDismissed(menuId: "m"),
            .mapAction(mapId: "fleet", actionId: "open-a"), .mapDismissed(mapId: "fleet"),
        ]
        for message in messages {
            let text = message.envelope.text
            #expect(try HostMessage.decode(value: try JSONParser.parse(text)) == message, "\(text)")
        }
        #expect(Set(messages.map(\.type)) == Set(HostMessage.types))
    }

    @Test("scan results are bounded before sending: empty is cancelled, too long is unavailable")
    func boundedQR() {
        #expect(HostMessage.boundedQRResult(requestId: "q", value: "") == .qrScanResult(requestId: "q", outcome: .cancelled, value: nil))
        #expect(HostMessage.boundedQRResult(requestId: "q", value: nil) == .qrScanResult(requestId: "q", outcome: .cancelled, value: nil))
        #expect(HostMessage.boundedQRResult(requestId: "q", value: repeated("v", 4096)) == .qrScanResult(requestId: "q", outcome: .scanned, value: repeated("v", 4096)))
        #expect(HostMessage.boundedQRResult(requestId: "q", value: repeated("v", 4097)) == .qrScanResult(requestId: "q", outcome: .unavailable, value: nil))
        #expect(HostMessage.mediaIntakeCompleted(requestId: "r", outcome: .completed, uploadedCount: 5000).payload["uploadedCount"] == 1000)
    }
}
