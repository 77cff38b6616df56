import HostCore
import StudioContract
import Foundation
import Testing

/// HostShell's own Studio corpus (`fixtures/contracts/studio-bridge/hostshell-v1.json`): the
/// contract's §6 rules the shared 255-case corpus predates, in the same format.
@Suite("Conformance corpus: HostShell's own cases")
struct HostCorpusTests {
    static let url = Checkout.fixture("contracts/studio-bridge/hostshell-v1.json")
    static let corpus = try! Corpus(try! JSONParser.parse(bytes: [UInt8](Data(contentsOf: url))))

    @Test("each case decodes with the stated outcome, fields and encoding", arguments: corpus.cases)
    func corpusCase(_ testCase: Corpus.Case) {
        let result = ConformanceRunner.run(Corpus.single(testCase)).cases[0]
        #expect(result.passed, "\(result.mismatches.map(\.description).joined(separator: "\n"))")
    }

    @Test("the whole corpus passes with every field checked, and covers each map message both ways")
    func wholeCorpus() {
        let report = ConformanceRunner.run(Self.corpus)
        #expect(report.failed == 0 && report.uncheckedFields.isEmpty)
        let types = Set(Self.corpus.cases.compactMap { $0.message.objectValue?["type"]?.stringValue })
        #expect(types.isSuperset(of: ["system/map-present", "system/map-dismiss", "system/map-action", "system/map-dismissed"]))
        #expect(Self.corpus.cases.contains { $0.direction == .reply && $0.expectations["hostCapabilities"]?.objectValue?["systemMap"] == .bool(true) })
    }
}
