import HostCore

/// `hostshell replay LOG` for a Capacitor app: once a fresh run of the app shows its page, the
/// page posts each recorded plugin call again, one at a time, and the answers on its callback
/// id are compared with the recorded ones (events on it are counted, not compared). Pure: the
/// glue posts, reports what the page was answered, prints `.report` lines and ends with
/// `.finish`.
///
/// A replayed call gets a callback id of the replay's own (`idPrefix` + its number), so no
/// answer can be taken for one of the app's own calls; a `removeListener`'s `options.callbackId`
/// is mapped the same way. Answers are compared as the log keeps them: redacted, and with the
/// recorded callback id.
public struct CapacitorReplaySession: Machine, Sendable, Equatable {
    public enum Timer: Hashable, Sendable { case ready, answer }

    public enum Event: Sendable, Equatable {
        /// The run started; the page must show within `readyWithin` seconds.
        case start(readyWithin: Double)
        /// The app's page is shown.
        case ready
        /// The app will not show its page (an error screen), and why.
        case failed(String)
        /// The page posted the call just asked for, or could not.
        case posted
        case postFailed(String)
        /// The host sent the page a result (`CapacitorResult.json`), for any callback id.
        case answered(JSONValue)
        case timerFired(Timer)
        /// The app asks a permission question (its kinds' names), waiting for an answer.
        case questionOpened(kinds: [String], byApp: Bool)
    }

    public enum Effect: Sendable, Equatable {
        /// Post this message from the page, as the page's own code does.
        case post(JSONValue)
        case timer(TimerCommand<Timer>)
        /// A line for the person.
        case report(String)
        /// Answer the open permission question as the recorded session did.
        case answerQuestion(grant: Bool)
        /// Done: true when every call was answered as recorded.
        case finish(success: Bool)
    }

    /// How long one replayed call may take to get the answers recorded for it.
    public static let answerTimeout = 10.0
    public static let idPrefix = "hostshell-replay-"

    public let calls: [CapacitorReplayCall]
    public let verbose: Bool
    /// The recorded permission answers not given yet, in order.
    public private(set) var permissions: [CapacitorReplayPermission]
    public private(set) var timers = TimerSet<Timer>()
    /// The call being replayed; nil before the page shows and after the last.
    public private(set) var current: Int?
    private var posted = false
    private var started = false
    private var finished = false
    /// Answers (normalised) and events seen on each replayed call, by its index.
    private var answers: [Int: [JSONValue]] = [:]
    private var events: [Int: Int] = [:]
    /// Which calls were answered as recorded, by index, once judged.
    public private(set) var verdicts: [Int: Bool] = [:]

    public init(calls: [CapacitorReplayCall], verbose: Bool = false, permissions: [CapacitorReplayPermission] = []) {
        self.calls = calls
        self.verbose = verbose
        self.permissions = permissions
    }

    /// The callback id the replay gives call `index` ("-1" stays: nobody waits).
    public func replayId(_ index: Int) -> String {
        calls[index].callbackId == CapacitorCall.nobodyWaits ? CapacitorCall.nobodyWaits : Self.idPrefix + String(index + 1)
    }

    public mutating func reduce(_ event: Event) -> [Effect] {
        guard !finished else { return [] }
        switch event {
        case .start(let seconds):
            guard !started else { return [] }
            started = true
            return [.timer(timers.start(.ready, after: seconds))]
        case .ready:
            guard started, current == nil, verdicts.isEmpty else { return [] }
            return (timers.cancel(.ready).map { [.timer($0)] } ?? []) + send(0)
        case .failed(let why):
            return end([.report("hostshell replay: the app did not start: \(why)")], success: false)
        case .posted:
            guard current != nil else { return [] }
            posted = true
            return judgeIfAnswered()
        case .postFailed(let why):
            guard let index = current else { return [] }
            return judge(index, note: "not sent (\(why))")
        case .answered(let result):
            guard let id = result.objectValue?["callbackId"]?.stringValue, id.hasPrefix(Self.idPrefix),
                  let number = Int(id.dropFirst(Self.idPrefix.count)), calls.indices.contains(number - 1) else { return [] }
            let index = number - 1
            if result.objectValue?["save"] == .bool(true) {
                events[index, default: 0] += 1
            } else {
                var object = result.objectValue!
                object["callbackId"] = .string(calls[index].callbackId)
                answers[index, default: []].append(BridgeLog.redact(.object(object)))
            }
            return index == current ? judgeIfAnswered() : []
        case .questionOpened(let kinds, let byApp):
            let asked = kinds.sorted()
            let words = asked.joined(separator: " and ")
            guard let index = permissions.firstIndex(where: { $0.kinds == asked && $0.byApp == byApp }) else {
                return [.report("hostshell replay: the app asks for \(words), which the log records no answer for: it stays unanswered"
                                + " (record the session again with this HostShell, which logs permission answers)")]
            }
            let answer = permissions.remove(at: index)
            return (verbose ? [.report("answered \(words): \(answer.granted ? "granted" : "denied"), as recorded")] : [])
                + [.answerQuestion(grant: answer.granted)]
        case .timerFired(let timer):
            guard timers.fire(timer) else { return [] }
            switch timer {
            case .ready:
                return end([.report("hostshell replay: the app's page did not show within the time given (--timeout)")], success: false)
            case .answer:
                guard let index = current else { return [] }
                return judge(index, note: posted ? "not answered within \(Int(Self.answerTimeout)) s" : "not sent within \(Int(Self.answerTimeout)) s")
            }
        }
    }

    /// Posts call `index` (or ends after the last).
    private mutating func send(_ index: Int) -> [Effect] {
        guard index < calls.count else { return finish() }
        current = index
        posted = false
        var message = calls[index].message
        message["callbackId"] = .string(replayId(index))
        // A listener named by its callback id is the replayed one.
        if var options = message["options"]?.objectValue, let listener = options["callbackId"]?.stringValue,
           let named = calls[..<index].lastIndex(where: { $0.callbackId == listener && $0.callbackId != CapacitorCall.nobodyWaits }) {
            options["callbackId"] = .string(replayId(named))
            message["options"] = .object(options)
        }
        return [.post(.object(message)), .timer(timers.start(.answer, after: Self.answerTimeout))]
    }

    private mutating func judgeIfAnswered() -> [Effect] {
        guard let index = current, posted, answers[index, default: []].count >= calls[index].answers.count else { return [] }
        return judge(index, note: nil)
    }

    /// Compares call `index`'s answers so far with the recorded ones, reports, and goes on.
    private mutating func judge(_ index: Int, note: String?) -> [Effect] {
        let call = calls[index]
        let now = answers[index, default: []]
        let same = note == nil && now == call.answers
        verdicts[index] = same
        var effects = timers.cancel(.answer).map { [Effect.timer($0)] } ?? []
        if same {
            if verbose { effects.append(.report("same line \(call.line) \(call.name)")) }
        } else {
            effects += differs(call, now: now, note: note)
        }
        return effects + send(index + 1)
    }

    private func differs(_ call: CapacitorReplayCall, now: [JSONValue], note: String?) -> [Effect] {
        func shown(_ answers: [JSONValue]) -> String { answers.isEmpty ? "(no answer)" : answers.map { JSONWriter.string($0) }.joined(separator: " then ") }
        return [.report("DIFF line \(call.line) \(call.name)\(note.map { ": " + $0 } ?? "")\(call.redacted ? " (the log redacted part of it)" : "")"),
                .report("  recorded: \(shown(call.answers))"), .report("  now:      \(shown(now))")]
    }

    /// After the last call: an answer that came later for a call the log has fewer answers
    /// for is a difference too; then the summary.
    private mutating func finish() -> [Effect] {
        current = nil
        var effects: [Effect] = []
        for index in calls.indices where verdicts[index] == true && answers[index, default: []].count > calls[index].answers.count {
            verdicts[index] = false
            effects += differs(calls[index], now: answers[index, default: []], note: "answered more often than recorded")
        }
        let same = verdicts.values.filter { $0 }.count
        let recordedEvents = calls.reduce(0) { $0 + $1.events }, seenEvents = events.values.reduce(0, +)
        effects.append(.report("\(calls.count) replayed: \(same) same, \(calls.count - same) differed"
                               + " (listener events not compared: \(recordedEvents) recorded, \(seenEvents) now)"))
        return end(effects, success: same == calls.count)
    }

    private mutating func end(_ effects: [Effect], success: Bool) -> [Effect] {
        finished = true
        current = nil
        return effects + timers.cancelAll().map { .timer($0) } + [.finish(success: success)]
    }
}
