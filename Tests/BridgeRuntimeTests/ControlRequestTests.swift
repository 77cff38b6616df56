import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// The app command `line` decodes to, read by `vocabulary`.
func appCommand<V: ControlVocabulary>(_ line: String, _ vocabulary: V.Type) throws -> V.Command {
    guard case .app(let command) = try ControlRequest.decode(line).get().command else { throw ControlError("not an app command: \(line)") }
    return try vocabulary.decode(command)
}

/// `ctl`'s words as every contract's vocabulary reads them.
func ctlLine(_ words: [String]) throws(ControlError) -> String {
    try ControlRequest.line(fromArguments: words, vocabularies: [StudioControl.self, PushControl.self, HermesControl.self])
}

@Suite("Control interface requests")
struct ControlRequestTests {
    @Test("every command decodes with its arguments and the id is kept as given")
    func decodes() throws {
        #expect(try ControlRequest.decode(#"{"command":"state","id":7}"#).get() == ControlRequest(id: 7, command: .state))
        #expect(try appCommand(#"{"command":"tap","destination":"media"}"#, StudioControl.self) == .tap(destination: "media"))
        #expect(try appCommand(#"{"command":"switch-server","server":"north","id":3}"#, StudioControl.self) == .switchServer(id: "north"))
        #expect(try ControlRequest.decode(#"{"command":"tap","destination":"media"}"#).get().command == .app(AppCommand("tap", ["destination": "media"])))
        #expect(try ControlRequest.decode(#"{"command":"snapshot","path":"/screenshots/a.png","target":"page"}"#).get().command
            == .snapshot(path: "/screenshots/a.png", target: .page))
        let wait = try ControlRequest.decode(#"{"command":"wait","until":{"screen":"page"},"timeout":2.5}"#).get()
        #expect(wait.command == .wait(until: StatePredicate(["screen": "page"]), timeout: 2.5))
        #expect(try ControlRequest.decode(#"{"command":"eval","script":"1"}"#).get().command == .eval(script: "1", inSheet: false))
        #expect(try ControlRequest.decode(#"{"command":"eval","script":"1","page":"sheet"}"#).get().command == .eval(script: "1", inSheet: true))
        #expect(try ControlRequest.decode(#"{"command":"memory-pressure"}"#).get().command == .memoryPressure)
        let sheetEval = try ControlRequest.line(fromArguments: ["eval", "--sheet", "document.title"])
        #expect(try ControlRequest.decode(sheetEval).get().command == .eval(script: "document.title", inSheet: true))
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["memory-pressure", "now"]) }
        #expect(try appCommand(ctlLine(["servers-changed"]), StudioControl.self) == .serversChanged)
        #expect(throws: ControlError.self) { try ctlLine(["servers-changed", "north"]) }
        let resize = try ControlRequest.line(fromArguments: ["resize", "900", "700"])
        #expect(try ControlRequest.decode(resize).get().command == .resize(width: 900, height: 700))
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["resize", "900"]) }
        // A word that is not a number reaches the request's own check, which names the field.
        let wordy = try ControlRequest.line(fromArguments: ["resize", "wide", "700"])
        guard case .failure(let failure) = ControlRequest.decode(wordy) else { Issue.record("resize wide was accepted"); return }
        #expect(failure.error.message.contains("\"width\" is a whole number of pixels"))
    }

    @Test("bad requests are refused with a reason, keeping a readable id", arguments: [
        ("{nope", "not JSON"), ("[1]", "must be a JSON object"), (#"{"id":1}"#, "\"command\" is required"),
        (#"{"command":""}"#, "\"command\" is required"), (#"{"command":"wait","until":{}}"#, "wait needs \"until\""),
        (#"{"command":"wait","until":{"a":1},"timeout":0}"#, "timeout"), (#"{"command":"wait","until":{"a":1},"timeout":601}"#, "timeout"),
        (#"{"command":"eval","script":"1","page":"tab"}"#, "main or sheet"), (#"{"command":"snapshot","path":"rel.png"}"#, "absolute"), (#"{"command":"snapshot","path":"/a.png","target":"tab"}"#, "window or page"),
        (#"{"command":"resize","width":800}"#, "\"height\" is a whole number"), (#"{"command":"resize","width":199,"height":600}"#, "from 200 to 8192"),
        (#"{"command":"resize","width":800.5,"height":600}"#, "whole number"), (#"{"command":"resize","width":800,"height":8193}"#, "\"height\""),
    ])
    func refuses(_ line: String, _ reason: String) {
        guard case .failure(let failure) = ControlRequest.decode(line) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(failure.error.message.contains(reason), "\(failure.error.message)")
        let answer = ControlResponse.failure(failure.id, failure.error)
        #expect(answer.contains(#""ok":false"#))
    }

    @Test("an app's own command is refused by its vocabulary with a reason; one no vocabulary of the app owns is unknown, listing the app's")
    func appCommandsRefused() throws {
        #expect(throws: ControlError.self) { try appCommand(#"{"command":"tap"}"#, StudioControl.self) }
        do { _ = try appCommand(#"{"command":"tap","destination":""}"#, StudioControl.self) } catch let error as ControlError {
            #expect(error.message.contains("non-empty"))
        }
        let fly = AppCommand("fly")
        #expect(fly.refusal(by: [StudioControl.self])?.message.contains("unknown command \"fly\"") == true)
        #expect(fly.refusal(by: [StudioControl.self])?.message.contains("sheet-dismiss") == true)
        #expect(AppCommand("push").refusal(by: [StudioControl.self]) != nil, "a Studio takes no push commands")
        #expect(AppCommand("push").refusal(by: [PushControl.self]) == nil)
        #expect(AppCommand("tap").refusal(by: [PushControl.self])?.message.contains("push-token") == true)
    }

    @Test("each contract's vocabulary names its own commands, none of them the core's")
    func vocabulariesApart() {
        for vocabulary in [StudioControl.self, PushControl.self, HermesControl.self] as [any ControlVocabulary.Type] {
            #expect(Set(vocabulary.names).isDisjoint(with: ControlCommand.names), "\(vocabulary.title)")
            #expect(!vocabulary.names.isEmpty)
        }
        #expect(Set(ControlRequest.coreCommands.map(\.name)) == Set(ControlCommand.names))
    }

    @Test("predicates follow object keys and array indices; a missing path is null")
    func predicates() throws {
        let state = try JSONParser.parse(#"{"screen":"page","navigation":{"tabs":[{"id":"a"},{"id":"b"}],"selected":null}}"#)
        #expect(StatePredicate(["navigation.tabs.1.id": "b", "screen": "page"]).holds(in: state))
        #expect(StatePredicate(["navigation.selected": nil, "nothing.here": nil]).holds(in: state))
        let unmet = StatePredicate(["screen": "error", "navigation.tabs.5.id": "x"]).unmet(in: state)
        #expect(unmet.sorted() == [#"navigation.tabs.5.id is null, not "x""#, #"screen is "page", not "error""#])
    }

    @Test("ctl words become request lines, and bad words say what is expected")
    func ctlWords() throws {
        #expect(try ctlLine(["tap", "media"]) == #"{"command":"tap","destination":"media"}"#)
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["tap", "media"]) }  // no vocabulary given
        let wait = try ControlRequest.line(fromArguments: ["wait", "screen=page", "negotiated=true", "n=3", "--timeout", "4"])
        #expect(try ControlRequest.decode(wait).get().command
            == .wait(until: StatePredicate(["screen": "page", "negotiated": true, "n": 3]), timeout: 4))
        #expect(try ControlRequest.line(fromArguments: ["snapshot", "/screenshots/x.png", "--page"]).contains(#""target":"page""#))
        #expect(throws: ControlError.self) { try ctlLine(["tap"]) }
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["wait", "=x"]) }
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["state", "extra"]) }
        #expect(throws: ControlError.self) { try ControlRequest.line(fromArguments: ["launch"]) }
    }

    @Test("issue 32 item 2: ctl resolves a relative path against its own working directory; an absolute one is left alone")
    func relativePaths() throws {
        func line(_ words: [String]) throws -> JSONValue {
            try JSONParser.parse(ControlRequest.line(fromArguments: words, vocabularies: [StudioControl.self], workingDirectory: "/home/me/ci"))
        }
        #expect(try line(["snapshot", "shots/a.png"]).objectValue?["path"] == "/home/me/ci/shots/a.png")
        #expect(try line(["snapshot", "/shots/a.png", "--page"]).objectValue?["path"] == "/shots/a.png")
        #expect(try line(["pick-files", "a.jpg", "/b.jpg"]).objectValue?["paths"] == ["/home/me/ci/a.jpg", "/b.jpg"])
        #expect(try line(["scan", "--image", "qr.png"]).objectValue?["image"] == "/home/me/ci/qr.png")
        #expect(try line(["tap", "media"]).objectValue?["destination"] == "media", "not a path: untouched")
        #expect(ControlRequest.absolute("x.png", from: "/") == "/x.png")
        // The request decodes: the app sees an absolute path.
        let decoded = try ControlRequest.decode(ControlRequest.line(fromArguments: ["snapshot", "a.png"], workingDirectory: "/w")).get()
        #expect(decoded.command == .snapshot(path: "/w/a.png", target: .window))
    }

    @Test("a wait gives up after 10 s unless told; ctl waits for the answer that long plus 20 s for a busy app")
    func answerTimeouts() throws {
        let plain = try ControlRequest.decode(#"{"command":"wait","until":{"screen":"page"}}"#).get()
        #expect(plain.command == .wait(until: StatePredicate(["screen": "page"]), timeout: ControlRequest.defaultWaitSeconds))
        #expect(ControlRequest.defaultWaitSeconds == 10 && ControlRequest.answerMargin == 20)
        #expect(plain.answerTimeout == 30)
        let long = try ControlRequest.decode(try ControlRequest.line(fromArguments: ["wait", "screen=page", "--timeout", "600"])).get()
        #expect(long.answerTimeout == 620)
        #expect(try ControlRequest.decode(#"{"command":"state"}"#).get().answerTimeout == 30)
        #expect(try ControlRequest.decode(#"{"command":"snapshot","path":"/shots/a.png"}"#).get().answerTimeout == 30)
        #expect(ControlRequest.answerTimeout(forLine: #"{"command":"wait","until":{"a":1},"timeout":5}"#) == 25)
        #expect(ControlRequest.answerTimeout(forLine: #"{"command":"launch"}"#) == 30)
        #expect(ControlRequest.answerTimeout(forLine: "not json") == 30)
    }
}

@Suite struct CapacitorControlWordsTests {
    @Test func lifecyclePermissionAndToken() throws {
        func decode(_ words: [String]) throws -> ControlCommand {
            try ControlRequest.decode(try ctlLine(words)).get().command
        }
        func push(_ words: [String]) throws -> PushControlCommand { try appCommand(try ctlLine(words), PushControl.self) }
        #expect(try decode(["lifecycle", "background"]) == .lifecycle(.background))
        #expect(try decode(["lifecycle", "focus"]) == .lifecycle(.focus))
        #expect(try decode(["permission", "grant"]) == .permission(grant: true))
        #expect(try decode(["permission", "deny"]) == .permission(grant: false))
        #expect(try push(["push-token", "rotate"]) == .rotatePushToken)
        #expect(try push(["push", "deliver", #"{"aps":{"alert":"Hi"},"route":"/live"}"#]) == .push(tap: false, payload: ["aps": ["alert": "Hi"], "route": "/live"]))
        #expect(try push(["push", "tap", "{}"]) == .push(tap: true, payload: [:]))
        #expect(try push(["notification", "activate", "n-1"]) == .notification(activate: true, id: "n-1"))
        #expect(throws: ControlFailure.self) { try decode(["lifecycle", "asleep"]) }
        #expect(throws: ControlFailure.self) { try decode(["permission", "maybe"]) }
        #expect(throws: ControlError.self) { try push(["push-token", "forget"]) }
        #expect(throws: ControlError.self) { try decode(["lifecycle"]) }
    }
}
