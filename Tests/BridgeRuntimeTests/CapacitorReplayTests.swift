import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// `hostshell replay` of a Capacitor app's bridge log: which kind a log is, the calls read from
/// it with their recorded answers, and the replay's steps and verdicts.
@Suite("Capacitor bridge log replay")
struct CapacitorReplayTests {
    static func result(_ id: String, _ plugin: String, _ method: String, save: Bool = false, _ outcome: CapacitorResult.Outcome) -> CapacitorResult {
        CapacitorResult(callbackId: id, pluginId: plugin, methodName: method, save: save, outcome: outcome)
    }

    static func message(_ id: String, _ plugin: String, _ method: String, _ options: String = "{}") -> String {
        #"{"type":"message","callbackId":"\#(id)","pluginId":"\#(plugin)","methodName":"\#(method)","options":\#(options)}"#
    }

    /// A session as `capacitor --bridge-log` writes it: a promise answered at once, one answered
    /// by the host's glue, a listener with an event, console output, its removal, and a rejected call.
    static let log = [
        CapacitorLog.inbound(at: 1, text: message("101", "App", "getState"), results: [result("101", "App", "getState", .success(["isActive": true]))], latencyMicroseconds: 5),
        // Answered while the message was handled: the answer's record comes first.
        CapacitorLog.outbound(at: 2, result: result("102", "HomeSecAuth", "getServerBaseUrl", .success(["value": nil]))),
        CapacitorLog.inbound(at: 2.1, text: message("102", "HomeSecAuth", "getServerBaseUrl"), results: [], latencyMicroseconds: 5),
        CapacitorLog.console(at: 2.5, level: "log", message: "booting"),
        CapacitorLog.inbound(at: 2.6, text: message("-1", "Console", "log", #"{"level":"log","message":"booting"}"#), results: [], latencyMicroseconds: 1),
        CapacitorLog.inbound(at: 4, text: message("103", "App", "addListener", #"{"eventName":"resume"}"#), results: [], latencyMicroseconds: 5),
        CapacitorLog.outbound(at: 5, result: result("103", "App", "addListener", save: true, .success([:]))),
        CapacitorLog.inbound(at: 6, text: message("-1", "App", "removeListener", #"{"callbackId":"103","eventName":"resume"}"#), results: [], latencyMicroseconds: 5),
        CapacitorLog.note(at: 6.5, kind: "js.error", text: "boom"),
        CapacitorLog.inbound(at: 7, text: message("104", "HomeSecAuth", "setServerBaseUrl", #"{"value":"ftp://x"}"#), results: [
            result("104", "HomeSecAuth", "setServerBaseUrl", .failure(CapacitorError("Invalid HomeSec server URL: ftp://x", code: "HOMESEC_AUTH_STORAGE_ERROR")))],
            latencyMicroseconds: 5),
    ].joined(separator: "\n") + "\n"

    @Test("a log's kind comes from its first record; an empty or foreign file says what to record")
    func kinds() throws {
        #expect(BridgeLogKind.detect("\n" + Self.log) == .success(.capacitor))
        let studio = #"{"t":1,"dir":"studio-to-host","context":"main","message":{},"reply":{}}"#
        #expect(BridgeLogKind.detect(studio) == .success(.studio))
        guard case .failure(let empty) = BridgeLogKind.detect(" \n\n") else { Issue.record("an empty log has a kind"); return }
        #expect(empty.message.contains("--bridge-log"))
        guard case .failure(let other) = BridgeLogKind.detect("hello\n") else { Issue.record("text has a kind"); return }
        #expect(other.message.contains("line 1"))
    }

    @Test("calls are read with every answer on their callback id, events counted apart; console output and notes are not calls")
    func parse() throws {
        let calls = try CapacitorReplayCall.parse(Self.log).get()
        #expect(calls.map(\.name) == ["App.getState", "HomeSecAuth.getServerBaseUrl", "App.addListener", "App.removeListener", "HomeSecAuth.setServerBaseUrl"])
        #expect(calls.map(\.line) == [1, 3, 6, 8, 10])
        #expect(calls[0].answers == [Self.result("101", "App", "getState", .success(["isActive": true])).json])
        #expect(calls[1].answers.count == 1 && calls[1].answers[0].objectValue?["data"] == ["value": nil], "an answer logged before its call belongs to it")
        #expect(calls[2].answers.isEmpty && calls[2].events == 1)
        #expect(calls[3].callbackId == "-1" && calls[3].answers.isEmpty)
        #expect(calls[4].answers[0].objectValue?["success"] == false)
        let hidden = calls.filter { $0.redacted }.count
        #expect(hidden == 0)
        let secret = CapacitorLog.inbound(at: 1, text: Self.message("9", "X", "y", #"{"password":"pw"}"#), results: [], latencyMicroseconds: 1)
        #expect(try CapacitorReplayCall.parse(secret).get().first?.redacted == true)
        guard case .failure(let problem) = CapacitorReplayCall.parse(Self.log + #"{"t":1,"dir":"studio-to-host","context":"main"}"#) else {
            Issue.record("a Studio record was taken"); return
        }
        #expect(problem.message.contains("line 11") && problem.message.contains("capacitor --bridge-log"))
    }

    /// Runs a replay, answering each posted call with `answer` (nil: no answer at all).
    static func replay(_ calls: [CapacitorReplayCall], verbose: Bool = false, answer: (Int, JSONObject) -> [CapacitorResult]?) -> (posted: [JSONObject], reports: [String], success: Bool?) {
        var session = CapacitorReplaySession(calls: calls, verbose: verbose)
        var posted: [JSONObject] = [], reports: [String] = [], success: Bool?
        var queue: [CapacitorReplaySession.Event] = [.start(readyWithin: 30), .ready]
        while !queue.isEmpty {
            for effect in session.reduce(queue.removeFirst()) {
                switch effect {
                case .post(let message):
                    let object = message.objectValue!
                    posted.append(object)
                    queue.append(.posted)
                    if let results = answer(posted.count - 1, object) { queue += results.map { .answered($0.json) } } else { queue.append(.timerFired(.answer)) }
                case .report(let line): reports.append(line)
                case .finish(let ok): success = ok
                case .timer, .answerQuestion: break
                }
            }
        }
        return (posted, reports, success)
    }

    /// The answers the recorded session got, on the ids the replay posts with.
    static func asRecorded(_ calls: [CapacitorReplayCall]) -> (Int, JSONObject) -> [CapacitorResult]? {
        { index, message in
            let id = message["callbackId"]!.stringValue!
            return calls[index].answers.map { recorded in
                let object = recorded.objectValue!
                return result(id, object["pluginId"]!.stringValue!, object["methodName"]!.stringValue!,
                              object["success"] == true ? .success(object["data"]?.objectValue) : .failure(CapacitorError(object["error"]!.objectValue!["message"]!.stringValue!, code: object["error"]!.objectValue!["code"]!.stringValue!)))
            } + (calls[index].events > 0 ? [result(id, calls[index].pluginId, calls[index].methodName, save: true, .success([:]))] : [])
        }
    }

    @Test("answered as recorded: every call posted in order on the replay's own ids, a listener's removal names the replayed listener, exit 0")
    func same() throws {
        let calls = try CapacitorReplayCall.parse(Self.log).get()
        let run = Self.replay(calls, verbose: true, answer: Self.asRecorded(calls))
        #expect(run.posted.map { $0["callbackId"] } == ["hostshell-replay-1", "hostshell-replay-2", "hostshell-replay-3", "-1", "hostshell-replay-5"])
        #expect(run.posted[3]["options"]?.objectValue?["callbackId"] == "hostshell-replay-3")
        #expect(run.posted[4]["options"] == ["value": "ftp://x"] && run.posted[4]["methodName"] == "setServerBaseUrl")
        #expect(run.success == true)
        #expect(run.reports.filter { $0.hasPrefix("same line") }.count == 5)
        #expect(run.reports.last == "5 replayed: 5 same, 0 differed (listener events not compared: 1 recorded, 1 now)")
    }

    @Test("a different answer, no answer, or an answer more than recorded is a DIFF naming the line, with both answers; exit 1")
    func differs() throws {
        let calls = try CapacitorReplayCall.parse(Self.log).get()
        let recorded = Self.asRecorded(calls)
        let run = Self.replay(calls) { index, message in
            switch index {
            case 0: [Self.result(message["callbackId"]!.stringValue!, "App", "getState", .success(["isActive": false]))]
            case 1: nil
            case 2: recorded(index, message)! + [Self.result(message["callbackId"]!.stringValue!, "App", "addListener", .success([:]))]
            default: recorded(index, message)
            }
        }
        #expect(run.success == false)
        #expect(run.reports.contains("DIFF line 1 App.getState"))
        #expect(run.reports.contains { $0.hasPrefix("  recorded: ") && $0.contains(#""isActive":true"#) })
        #expect(run.reports.contains { $0.hasPrefix("  now:      ") && $0.contains(#""isActive":false"#) && $0.contains(#""callbackId":"101""#) })
        #expect(run.reports.contains("DIFF line 3 HomeSecAuth.getServerBaseUrl: not answered within 10 s"))
        #expect(run.reports.contains("DIFF line 6 App.addListener: answered more often than recorded"))
        #expect(run.reports.last?.hasPrefix("5 replayed: 2 same, 3 differed") == true)
    }

    @Test("answers for other callback ids are not the replay's; a page that never shows or fails ends it with 1")
    func others() throws {
        let calls = try CapacitorReplayCall.parse(Self.log).get()
        var session = CapacitorReplaySession(calls: calls)
        _ = session.reduce(.start(readyWithin: 30))
        _ = session.reduce(.ready)
        _ = session.reduce(.posted)
        #expect(session.reduce(.answered(Self.result("101", "App", "getState", .success(["isActive": true])).json)).isEmpty, "the app's own call")
        #expect(session.current == 0)
        var late = CapacitorReplaySession(calls: calls)
        _ = late.reduce(.start(readyWithin: 30))
        let ended = late.reduce(.timerFired(.ready))
        #expect(ended.contains(.finish(success: false)) && ended.contains { if case .report(let line) = $0 { line.contains("--timeout") } else { false } })
        #expect(late.reduce(.ready).isEmpty, "nothing after the end")
        var failed = CapacitorReplaySession(calls: calls)
        _ = failed.reduce(.start(readyWithin: 30))
        #expect(failed.reduce(.failed("HTTP 500")).contains(.report("hostshell replay: the app did not start: HTTP 500")))
        var unsent = CapacitorReplaySession(calls: calls)
        _ = unsent.reduce(.start(readyWithin: 30))
        _ = unsent.reduce(.ready)
        #expect(unsent.reduce(.postFailed("the page is gone")).contains(.report("DIFF line 1 App.getState: not sent (the page is gone)")))
        #expect(unsent.current == 1)
    }

    @Test("a permission question the log answered is answered the same, in order, per kind; one it did not answer is said")
    func permissionAnswers() {
        let text = Self.log + [
            CapacitorLog.permission(at: 8, kinds: ["notifications"], granted: true, byApp: true),
            CapacitorLog.permission(at: 9, kinds: ["geolocation"], granted: false, byApp: false),
            CapacitorLog.permission(at: 10, kinds: ["notifications"], granted: false, byApp: true),
        ].joined(separator: "\n") + "\n"
        let recorded = CapacitorReplayPermission.parse(text)
        #expect(recorded == [.init(kinds: ["notifications"], granted: true, byApp: true), .init(kinds: ["geolocation"], granted: false, byApp: false),
                             .init(kinds: ["notifications"], granted: false, byApp: true)])
        #expect(BridgeLogKind.detect(text) == .success(.capacitor))
        #expect((try? CapacitorReplayCall.parse(text).get())?.count == (try? CapacitorReplayCall.parse(Self.log).get())?.count, "answers are not calls")
        var session = CapacitorReplaySession(calls: [], verbose: true, permissions: recorded)
        #expect(session.reduce(.questionOpened(kinds: ["notifications"], byApp: true))
                == [.report("answered notifications: granted, as recorded"), .answerQuestion(grant: true)])
        #expect(session.reduce(.questionOpened(kinds: ["geolocation"], byApp: false)).last == .answerQuestion(grant: false))
        #expect(session.reduce(.questionOpened(kinds: ["notifications"], byApp: true)).last == .answerQuestion(grant: false))
        let none = session.reduce(.questionOpened(kinds: ["notifications"], byApp: true))
        #expect(none.count == 1 && { if case .report(let line) = none[0] { line.contains("records no answer") } else { false } }())
    }
}

