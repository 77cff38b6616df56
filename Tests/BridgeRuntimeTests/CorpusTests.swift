import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
import Testing

@Suite("Conformance corpus")
struct CorpusTests {
    static let corpus = Checkout.loadCorpus()

    @Test("each case decodes with the stated outcome, fields and encoding", arguments: corpus.cases)
    func corpusCase(_ testCase: Corpus.Case) {
        let report = ConformanceRunner.run(Corpus.single(testCase))
        let result = report.cases[0]
        #expect(result.passed, "\(result.mismatches.map(\.description).joined(separator: "\n"))")
    }

    @Test("the whole corpus passes, with every listed field checked")
    func wholeCorpus() {
        let report = ConformanceRunner.run(Self.corpus)
        #expect(report.cases.count == 255)
        #expect(report.summaryLine == "255 passed, 0 failed")
        #expect(report.deepLinkFailures.isEmpty)
        #expect(report.deepLinkChecked == 30)
        #expect(report.uncheckedFields.isEmpty)
    }

    static let ownCorpus = Checkout.loadCorpus(Checkout.ownCorpusURL)

    @Test("the project's own cases (grapheme lengths, anchored menus, the newest capabilities, the system map) pass", arguments: ownCorpus.cases)
    func ownCase(_ testCase: Corpus.Case) {
        let result = ConformanceRunner.run(Corpus.single(testCase)).cases[0]
        #expect(result.passed, "\(result.mismatches.map(\.description).joined(separator: "\n"))")
    }

    @Test("the project's own corpus passes whole, every listed field checked, each map message both ways")
    func wholeOwnCorpus() {
        let report = ConformanceRunner.run(Self.ownCorpus)
        #expect(report.cases.count == 82)
        #expect(report.summaryLine == "82 passed, 0 failed")
        #expect(report.uncheckedFields.isEmpty)
        let types = Set(Self.ownCorpus.cases.compactMap { $0.message.objectValue?["type"]?.stringValue })
        #expect(types.isSuperset(of: ["system/map-present", "system/map-dismiss", "system/map-action", "system/map-dismissed",
                                      "action-menu/register-trigger", "action-menu/unregister-trigger"]))
        #expect(Self.ownCorpus.cases.contains { $0.direction == .reply && $0.expectations["hostCapabilities"]?.objectValue?["systemMap"] == .bool(true) })
    }

    static let sharedCorpus = Checkout.root.deletingLastPathComponent()
        .appendingPathComponent("shared/contracts/studio-bridge/messages-v1.json")

    @Test("the project's copy of the corpus is the shared contract's",
          .enabled(if: FileManager.default.fileExists(atPath: sharedCorpus.path), "the contract (../shared) is not beside this checkout"))
    func fixtureMatchesContract() throws {
        #expect(try Data(contentsOf: Self.sharedCorpus) == Data(contentsOf: Checkout.corpusURL))
    }

    @Test("a runner that is fed wrong expectations reports each one")
    func runnerDetectsWrongExpectations() throws {
        var corpus = Self.corpus
        corpus.cases[0].outcome = .malformed
        corpus.cases[7].expectations["destinationIds"] = ["overview"]
        corpus.deepLinkAccept.append("/login")
        let report = ConformanceRunner.run(corpus)
        #expect(report.failed == 3)
        #expect(report.summaryLine == "253 passed, 3 failed")
    }

    @Test("files that are not corpora are refused with a reason")
    func formatErrors() {
        for text in [#"[]"#, #"{"cases": 3}"#, #"{"schemaVersion": 2, "cases": []}"#,
                     #"{"cases": [{"name": "x", "direction": "sideways", "outcome": "accept", "message": {}}]}"#,
                     #"{"cases": [{"name": "x", "direction": "reply", "outcome": "maybe", "message": {}}]}"#,
                     #"{"cases": [{"direction": "reply", "outcome": "accept", "message": {}}]}"#,
                     #"{"cases": [{"name": "x", "direction": "reply", "outcome": "accept"}]}"#,
                     #"{"cases": [], "deepLinkPaths": {"accept": [1]}}"#] {
            #expect(throws: Corpus.FormatError.self, "\(text)") { try Corpus(try JSONParser.parse(text)) }
        }
    }
}

extension Corpus {
    static func single(_ testCase: Case) -> Corpus {
        var corpus = try! Corpus(try! JSONParser.parse(#"{"cases": []}"#))
        corpus.cases = [testCase]
        return corpus
    }
}
