import HostCore

/// Runs a corpus against this implementation: the outcome of every case for its direction, every
/// decoded field a case lists, every `encodes` case, and the deep-link paths.
public enum ConformanceRunner {
    public typealias Mismatch = ConformanceMismatch
    public typealias CaseResult = ConformanceCaseResult

    public struct Report: Sendable {
        public var cases: [CaseResult]
        public var deepLinkFailures: [Mismatch]
        public var deepLinkChecked: Int
        /// Fields seen in cases that this runner does not know how to check.
        public var uncheckedFields: [String]

        public var passed: Int { cases.filter(\.passed).count }
        /// Failed cases plus failed deep-link paths.
        public var failed: Int { cases.count - passed + deepLinkFailures.count }
        public var summaryLine: String { "\(passed) passed, \(failed) failed" }
    }

    public static func run(_ corpus: Corpus) -> Report {
        var unchecked = Set<String>()
        let results = corpus.cases.map { check($0, unchecked: &unchecked) }
        var deepLinkFailures: [Mismatch] = []
        for path in corpus.deepLinkAccept {
            if let problem = DeepLink.checkPath(path) {
                deepLinkFailures.append(Mismatch(field: "deepLinkPaths.accept \(quoted(path))", expected: "accepted",
                                                 actual: "refused (\(problem))"))
            }
        }
        for path in corpus.deepLinkRefuse where DeepLink.checkPath(path) == nil {
            deepLinkFailures.append(Mismatch(field: "deepLinkPaths.refuse \(quoted(path))", expected: "refused", actual: "accepted"))
        }
        return Report(cases: results, deepLinkFailures: deepLinkFailures,
                      deepLinkChecked: corpus.deepLinkAccept.count + corpus.deepLinkRefuse.count,
                      uncheckedFields: unchecked.sorted())
    }

    /// What decoding one case produced.
    enum Decoded {
        case studio(InboundMessage)
        case host(HostMessage)
        case reply(DecodedReply)
    }

    static func check(_ testCase: Corpus.Case, unchecked: inout Set<String>) -> CaseResult {
        var mismatches: [Mismatch] = []
        let decoded: Result<Decoded, BridgeFailure>
        switch testCase.direction {
        case .frontendToNative:
            decoded = Result { () throws(BridgeFailure) in .studio(try StudioMessageDecoder.decode(value: testCase.message)) }
        case .nativeToFrontend:
            decoded = Result { () throws(BridgeFailure) in .host(try HostMessage.decode(value: testCase.message)) }
        case .reply:
            decoded = Result { () throws(BridgeFailure) in .reply(try Reply.decode(value: testCase.message)) }
        }
        let actualOutcome: String
        switch decoded {
        case .success: actualOutcome = Corpus.Outcome.accept.rawValue
        case .failure(let failure):
            switch failure.code {
            case .malformed: actualOutcome = "malformed (\(failure.reason))"
            case .unknownType: actualOutcome = "unknownType"
            case .unsupportedVersion: actualOutcome = "unsupportedVersion"
            case .forbidden, .unavailable: actualOutcome = failure.code.rawValue
            }
        }
        let outcomeMatches: Bool
        if case .failure(let failure) = decoded, failure.code == .malformed {
            outcomeMatches = testCase.outcome == .malformed
        } else {
            outcomeMatches = actualOutcome == testCase.outcome.rawValue
        }
        if !outcomeMatches {
            mismatches.append(Mismatch(field: "outcome", expected: testCase.outcome.rawValue, actual: actualOutcome))
        }
        for member in testCase.expectations.members {
            if Corpus.informationalFields.contains(member.key) { continue }
            guard let check = FieldChecks.all[member.key] else { unchecked.insert(member.key); continue }
            guard case .success(let value) = decoded else {
                mismatches.append(Mismatch(field: member.key, expected: JSONWriter.string(member.value),
                                           actual: "nothing (the message was not accepted)"))
                continue
            }
            if let mismatch = check(value, testCase.message, member.value) {
                mismatches.append(Mismatch(field: member.key, expected: mismatch.expected, actual: mismatch.actual))
            }
        }
        return CaseResult(index: testCase.index, name: testCase.name, mismatches: mismatches)
    }

    static func quoted(_ s: String) -> String { JSONWriter.string(.string(s.count > 80 ? String(s.prefix(77)) + "..." : s)) }
}
