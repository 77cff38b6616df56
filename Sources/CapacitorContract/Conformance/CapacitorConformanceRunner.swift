import HostCore

/// Runs a `CapacitorCorpus` against `CapacitorBridge`: each case on a fresh bridge made for the
/// corpus's app and plugins, each step's wire output compared with what the case expects.
public enum CapacitorConformanceRunner {
    public struct Report: Sendable {
        public var cases: [ConformanceCaseResult]
        /// The `pluginHeaders` check, when the corpus has one.
        public var headerFailure: ConformanceMismatch?
        public var passed: Int { cases.filter(\.passed).count }
        public var failed: Int { cases.count - passed + (headerFailure == nil ? 0 : 1) }
        public var summaryLine: String { "\(passed) passed, \(failed) failed" }
    }

    public static func run(_ corpus: CapacitorCorpus) -> Report {
        var headerFailure: ConformanceMismatch?
        if let expected = corpus.pluginHeaders {
            let actual = CapacitorPluginHeader.all(corpus.plugins)
            if actual != expected {
                headerFailure = .init(field: "pluginHeaders", expected: JSONWriter.string(expected), actual: JSONWriter.string(actual))
            }
        }
        let cases = corpus.cases.map { run($0, app: corpus.app, plugins: corpus.plugins) }
        return Report(cases: cases, headerFailure: headerFailure)
    }

    package static func run(_ scripted: CapacitorCorpus.Case, app: CapacitorAppInfo, plugins: [any CapacitorPlugin.Type]) -> ConformanceCaseResult {
        var bridge = CapacitorBridge(app: app, plugins: plugins)
        var mismatches: [ConformanceMismatch] = []
        for (number, step) in scripted.steps.enumerated() {
            let effects: [CapacitorBridge.Effect]
            switch step.step {
            case .post(let text): effects = bridge.reduce(.received(text))
            case .host(let event): effects = bridge.reduce(.host(event))
            case .reload: effects = bridge.reduce(.documentCommitted)
            }
            let actual = JSONValue.array(effects.compactMap(wire))
            let expected = JSONValue.array(step.expect)
            if actual != expected {
                mismatches.append(.init(field: "step \(number)", expected: JSONWriter.string(expected), actual: JSONWriter.string(actual)))
            }
            if let listeners = step.listeners, listeners != bridge.listeners.count {
                mismatches.append(.init(field: "step \(number) listeners", expected: "\(listeners)", actual: "\(bridge.listeners.count)"))
            }
            if let retained = step.retained, retained != bridge.retained.count {
                mismatches.append(.init(field: "step \(number) retained", expected: "\(retained)", actual: "\(bridge.retained.count)"))
            }
        }
        return .init(index: scripted.index, name: scripted.name, mismatches: mismatches)
    }

    /// An effect as the corpus names it; nil for what is not on the wire.
    static func wire(_ effect: CapacitorBridge.Effect) -> JSONValue? {
        switch effect {
        case .send(let result): return ["fromNative": result.json]
        case .refused: return ["refused": true]
        case .console(let level, let message): return ["console": ["level": .string(level), "message": .string(message)]]
        case .jsError(let message, let url, let line, let column):
            var error: JSONObject = ["message": .string(message)]
            if let url { error["url"] = .string(url) }
            if let line { error["line"] = .number(Double(line)) }
            if let column { error["col"] = .number(Double(column)) }
            return ["jsError": .object(error)]
        case .unhandled: return ["unhandled": true]
        case .ask, .note, .timer: return nil
        }
    }
}
