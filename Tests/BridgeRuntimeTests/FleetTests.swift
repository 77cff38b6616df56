import HostCore
import Testing

@Suite("Fleet: requests, rules and the book of apps")
struct FleetTests {
    static let kinds = ["open", "capacitor"]

    func decode(_ line: String) throws(ControlError) -> FleetCommand {
        let request: ControlRequest
        switch ControlRequest.decode(line) {
        case .success(let decoded): request = decoded
        case .failure(let failure): throw failure.error
        }
        return try FleetCommand.decode(request.command, kinds: Self.kinds)
    }

    func refusal(_ line: String) -> String? {
        do throws(ControlError) { _ = try decode(line); return nil } catch { return error.message }
    }

    @Test("open, close and list decode with their members")
    func decodes() throws {
        #expect(try decode(#"{"command":"list"}"#) == .list)
        #expect(try decode(#"{"command":"close","id":"3"}"#) == .close(id: "3"))
        #expect(try decode(#"{"command":"open","app":"capacitor","arguments":["--web-dir","/w"],"throwAway":true}"#)
            == .open(kind: "capacitor", arguments: ["--web-dir", "/w"], throwAway: true))
        #expect(try decode(#"{"command":"open","app":"open"}"#) == .open(kind: "open", arguments: [], throwAway: false))
    }

    @Test("bad requests are refused with what to send")
    func refusesBadRequests() {
        #expect(refusal(#"{"command":"state"}"#)?.contains("an app's commands go to its own socket") == true)
        #expect(refusal(#"{"command":"launch"}"#)?.contains("unknown fleet command \"launch\"") == true)
        #expect(refusal(#"{"command":"close"}"#)?.contains("close needs \"id\"") == true)
        #expect(refusal(#"{"command":"close","id":7}"#)?.contains("close needs \"id\"") == true)
        #expect(refusal(#"{"command":"open"}"#)?.contains("open needs \"app\": open or capacitor") == true)
        #expect(refusal(#"{"command":"open","app":"kiosk"}"#)?.contains("runs open or capacitor apps, not kiosk") == true)
        #expect(refusal(#"{"command":"open","app":"capacitor","arguments":"--web-dir x"}"#)?.contains("list of strings") == true)
        #expect(refusal(#"{"command":"open","app":"capacitor","arguments":[1]}"#)?.contains("list of strings") == true)
        #expect(refusal(#"{"command":"open","app":"capacitor","throwAway":"yes"}"#)?.contains("true or false") == true)
        let many = "[" + Array(repeating: "\"x\"", count: FleetRules.maxArguments + 1).joined(separator: ",") + "]"
        #expect(refusal(#"{"command":"open","app":"capacitor","arguments":"# + many + "}")?.contains("more than") == true)
        #expect(refusal("not json") != nil)
    }

    @Test("fleet-ctl's words become the request lines the fleet decodes")
    func words() throws {
        #expect(try decode(FleetCommand.line(fromArguments: ["list"])) == .list)
        #expect(try decode(FleetCommand.line(fromArguments: ["close", "2"])) == .close(id: "2"))
        #expect(try decode(FleetCommand.line(fromArguments: ["open", "--throw-away", "--", "capacitor", "--web-dir", "d", "--allow-eval"]))
            == .open(kind: "capacitor", arguments: ["--web-dir", "d", "--allow-eval"], throwAway: true))
        #expect(try decode(FleetCommand.line(fromArguments: ["open", "capacitor", "p"])) == .open(kind: "capacitor", arguments: ["p"], throwAway: false))
        for bad in [[], ["lst"], ["list", "x"], ["close"], ["close", "1", "2"], ["open"], ["open", "--fast", "capacitor"], ["open", "--"]] {
            #expect(throws: ControlError.self, "\(bad)") { try FleetCommand.line(fromArguments: bad) }
        }
        do { _ = try FleetCommand.line(fromArguments: ["lst"]); Issue.record("lst was taken") } catch {
            #expect(error.message.contains("did you mean list?"))
        }
    }

    @Test("an app's arguments may not carry what the fleet gives or what is one per process")
    func refusedArguments() throws {
        try FleetRules.check(arguments: ["--web-dir", "d", "--allow-eval", "--device", "phone", "--grant", "camera"])
        for option in ["--control", "--check", "--automation", "--kiosk", "--locale", "--timezone", "--trust-root-cert", "--help"] {
            do { try FleetRules.check(arguments: ["--web-dir", "d", option]); Issue.record("\(option) was taken") } catch {
                #expect(error.message.hasPrefix("open: \(option) is not for an app in a fleet: "), "\(error.message)")
            }
        }
    }

    @Test("control commands that change the process's settings are refused in a fleet, the rest are the app's")
    func refusedControl() {
        #expect(FleetRules.refusal(of: .device(.timeZone("Europe/Paris")))?.contains("time zone") == true)
        #expect(FleetRules.refusal(of: .device(.clearRootCerts)) != nil)
        #expect(FleetRules.refusal(of: .simulator(.location(.clear))) != nil)
        #expect(FleetRules.refusal(of: .state) == nil)
        #expect(FleetRules.refusal(of: .device(.erase)) == nil)
        #expect(FleetRules.refusal(of: .simulator(.appearance(.dark))) == nil)
    }

    @Test("an app's socket is beside the fleet's, refused when too long for a Unix socket")
    func sockets() {
        #expect(FleetRules.appSocket(fleetSocket: "/run/f.sock", id: "12", maxBytes: 107) == "/run/f.sock.12")
        #expect(FleetRules.appSocket(fleetSocket: "/" + String(repeating: "a", count: 104), id: "12", maxBytes: 107) == nil)
    }

    @Test("ids in order and never reused; one app per profile; the limit; unknown ids named")
    func book() throws {
        var book = FleetBook(limit: 2)
        #expect(book.nextId == "1")
        let first = try book.reserve(kind: "capacitor", name: "A", profile: "/p/a", socket: "/s.1", throwAway: false)
        #expect(first.id == "1" && !first.open)
        do { _ = try book.reserve(kind: "capacitor", name: "A again", profile: "/p/a", socket: "/s.2", throwAway: false); Issue.record("profile shared") } catch {
            #expect(error.message.contains("app 1 (A) already runs on that profile"))
        }
        book.opened("1")
        _ = try book.reserve(kind: "open", name: "B", profile: "/p/b", socket: "/s.2", throwAway: true)
        do { _ = try book.reserve(kind: "open", name: "C", profile: "/p/c", socket: "/s.3", throwAway: true); Issue.record("over the limit") } catch {
            #expect(error.message.contains("holds 2 apps"))
        }
        #expect(try book.remove("1").name == "A")
        do { try book.remove("1"); Issue.record("removed twice") } catch { #expect(error.message == "no app 1 in this fleet; open: 2") }
        let third = try book.reserve(kind: "capacitor", name: "A", profile: "/p/a", socket: "/s.3", throwAway: false)
        #expect(third.id == "3", "an id is never given twice")
        let apps = book.json.objectValue?["apps"]?.arrayValue ?? []
        #expect(apps.compactMap { $0.objectValue?["id"]?.stringValue } == ["2", "3"])
        #expect(apps.first?.objectValue?["throwAway"] == .bool(true) && apps.first?.objectValue?["open"] == .bool(false))
    }
}
