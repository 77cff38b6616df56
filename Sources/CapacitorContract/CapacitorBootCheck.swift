import HostCore

/// `hostshell capacitor --check`: when the app has booted, so the report says what it did. A
/// Capacitor app's page is shown once its document has loaded, but its code (a React app's
/// first effects) talks to the bridge from then on: reporting at the load would say nothing of
/// what the app does. The check reports, whichever comes first:
/// - once the app made its first bridge call and the page is shown, when the bridge has been
///   quiet for `quiet` seconds (a boot is a burst of calls), at most `settleLimit` after the
///   page showed with calls made;
/// - once the page loaded and painted without any bridge call, `firstCallWait` later (an app
///   that never calls the bridge);
/// - an error screen at once; nothing shown within the check's limit (`--timeout`): a failure.
public struct CapacitorBootCheck: Machine, Sendable, Equatable {
    public enum Timer: Hashable, Sendable {
        /// The whole check's limit (`--timeout`).
        case limit
        /// After load and first paint, how long an app has to make its first bridge call.
        case firstCall
        /// The bridge quiet since the last call.
        case quiet
        /// The most a boot's calls are waited for once the page shows.
        case settleLimit
    }

    public enum Event: Sendable, Equatable {
        case start
        /// The page is shown (its document loaded).
        case pageShown
        /// The page has painted (or, false, did not within the glue's wait).
        case painted(Bool)
        case errorShown
        /// The page made a bridge call (any plugin, known or not).
        case bridgeCall
        case timerFired(Timer)
    }

    public enum Verdict: String, Sendable {
        /// It made bridge calls and the bridge went quiet (or the settle limit came).
        case booted
        /// It loaded and painted and made no bridge call within `firstCallWait`.
        case noBridgeCall = "no-bridge-call"
        /// The page showed but was still busy at the check's limit.
        case stillBusy = "still-busy"
        /// An error screen.
        case error
        /// Nothing shown within the check's limit.
        case timedOut = "timed-out"

        /// Whether the check passes (exit 0): the page showed.
        public var passed: Bool { self != .error && self != .timedOut }
    }

    public enum Effect: Sendable, Equatable {
        case timer(TimerCommand<Timer>)
        /// Tell `.painted` once the page has painted.
        case waitForPaint
        case report(Verdict)
    }

    public static let firstCallWait = 2.0
    public static let quiet = 0.5
    public static let settleLimit = 5.0

    /// The check's limit in seconds (`--timeout`).
    public let limit: Double
    public private(set) var timers = TimerSet<Timer>()
    public private(set) var calls = 0
    public private(set) var shown = false
    public private(set) var verdict: Verdict?

    public init(limit: Double) { self.limit = limit }

    public mutating func reduce(_ event: Event) -> [Effect] {
        guard verdict == nil else { return [] }
        switch event {
        case .start:
            return [.timer(timers.start(.limit, after: limit))]
        case .errorShown:
            return report(.error)
        case .pageShown:
            guard !shown else { return [] }
            shown = true
            return calls > 0 ? settle() : [.waitForPaint]
        case .painted:
            guard shown, calls == 0 else { return [] }
            return [.timer(timers.start(.firstCall, after: Self.firstCallWait))]
        case .bridgeCall:
            calls += 1
            guard shown else { return [] }
            var effects = timers.cancel(.firstCall).map { [Effect.timer($0)] } ?? []
            if calls == 1 { effects += settle() } else { effects.append(.timer(timers.start(.quiet, after: Self.quiet))) }
            return effects
        case .timerFired(let timer):
            guard timers.fire(timer) else { return [] }
            switch timer {
            case .limit: return report(shown ? .stillBusy : .timedOut)
            case .firstCall: return report(.noBridgeCall)
            case .quiet, .settleLimit: return report(.booted)
            }
        }
    }

    private mutating func settle() -> [Effect] {
        [.timer(timers.start(.quiet, after: Self.quiet)), .timer(timers.start(.settleLimit, after: Self.settleLimit))]
    }

    private mutating func report(_ verdict: Verdict) -> [Effect] {
        self.verdict = verdict
        return timers.cancelAll().map(Effect.timer) + [.report(verdict)]
    }

    /// What the app did, for the check's report: its verdict, its plugin calls by
    /// `Plugin.method`, its console errors and script errors (`console` entries as the page
    /// keeps them), and the calls no plugin implements.
    public static func report(verdict: Verdict, seconds: Double, calls: [String: Int], console: [JSONValue], unimplemented: [String: Int]) -> JSONValue {
        let errors = console.filter { ["error", "js.error"].contains($0.objectValue?["level"]?.stringValue ?? "") }
        return ["verdict": .string(verdict.rawValue), "seconds": .number((seconds * 10).rounded() / 10),
                "calls": counts(calls), "consoleErrors": .array(errors), "unimplemented": counts(unimplemented)]
    }

    /// Counts by name, in name order.
    private static func counts(_ counts: [String: Int]) -> JSONValue {
        .object(JSONObject(counts.keys.sorted().map { ($0, JSONValue.number(Double(counts[$0]!))) }))
    }

    /// The report in a line for a person (standard error).
    public static func summary(verdict: Verdict, seconds: Double, calls: [String: Int], consoleErrors: Int, unimplemented: [String: Int]) -> String {
        func list(_ counts: [String: Int]) -> String {
            counts.keys.sorted().map { counts[$0]! > 1 ? "\($0) ×\(counts[$0]!)" : $0 }.joined(separator: ", ")
        }
        let total = calls.values.reduce(0, +)
        var text = switch verdict {
        case .booted: "booted"
        case .noBridgeCall: "loaded and painted, and made no bridge call within \(String(format1: firstCallWait)) s"
        case .stillBusy: "shown, still calling the bridge at the limit"
        case .error: "an error screen"
        case .timedOut: "nothing shown"
        }
        text += " after \(String(format1: seconds)) s: \(total) plugin call\(total == 1 ? "" : "s")"
        if total > 0 { text += " (\(list(calls)))" }
        text += ", \(consoleErrors) console error\(consoleErrors == 1 ? "" : "s")"
        let missing = unimplemented.values.reduce(0, +)
        text += ", \(missing) unimplemented call\(missing == 1 ? "" : "s")"
        if missing > 0 { text += " (\(list(unimplemented)))" }
        return text
    }
}
