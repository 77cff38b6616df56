import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Foundation
import Testing

@Suite("Capacitor wire corpus")
struct CapacitorCorpusTests {
    static let url = Checkout.fixture("contracts/capacitor-shell/wire-v1.json")
    static let document: JSONValue = try! JSONParser.parse(bytes: [UInt8](try! Data(contentsOf: url)))
    static let corpus = try! CapacitorCorpus(document)

    @Test("every case of the project's Capacitor corpus passes, and the plugin headers match")
    func wholeCorpus() {
        let report = CapacitorConformanceRunner.run(Self.corpus)
        for result in report.cases where !result.passed {
            Issue.record("case \(result.index) \(result.name): \(result.mismatches.map(\.description).joined(separator: "\n"))")
        }
        #expect(report.headerFailure == nil, "\(report.headerFailure?.description ?? "")")
        #expect(report.cases.count >= 40)
        #expect(report.failed == 0)
    }

    @Test("the corpus covers calls, results, errors, listener events, retention, stale ids and refusals")
    func coverage() {
        let text = String(decoding: try! Data(contentsOf: Self.url), as: UTF8.self)
        for needle in ["\"reload\"", "\"refused\"", "\"console\"", "\"jsError\"", "UNIMPLEMENTED", "\"save\": true",
                       "\"retained\": 1", "removeAllListeners", "\"launch\": true", "\"-1\""] {
            #expect(text.contains(needle), "no case with \(needle)")
        }
    }

    /// Replaces the first `fromNative` expectation of case `index` with `value`.
    static func mutated(_ index: Int, _ change: (inout JSONObject) -> Void) throws -> CapacitorCorpus {
        guard case .object(var root) = document, case .array(var cases)? = root["cases"],
              case .object(var scripted) = cases[index] else { throw CorpusError.shape }
        change(&scripted)
        cases[index] = .object(scripted)
        root["cases"] = .array(cases)
        return try CapacitorCorpus(.object(root))
    }
    enum CorpusError: Error { case shape }

    @Test("a wrong expectation fails its case and names the step, with expected and actual")
    func wrongExpectationFails() throws {
        let corpus = try Self.mutated(0) { scripted in
            scripted["steps"] = [["post": ["type": "message", "callbackId": "1", "pluginId": "App", "methodName": "getState"],
                                  "expect": [["refused": true]]]]
        }
        let report = CapacitorConformanceRunner.run(corpus)
        #expect(report.failed == 1)
        let failure = try #require(report.cases.first { !$0.passed })
        #expect(failure.index == 0)
        #expect(failure.mismatches.first?.field == "step 0")
        #expect(failure.mismatches.first?.actual.contains("\"isActive\":true") == true)
    }

    @Test("a wrong listener count fails its case")
    func wrongCountFails() throws {
        let corpus = try Self.mutated(0) { scripted in
            scripted["steps"] = [["post": ["type": "message", "callbackId": "1", "pluginId": "App", "methodName": "addListener",
                                           "options": ["eventName": "pause"]], "expect": [], "listeners": 2]]
        }
        let report = CapacitorConformanceRunner.run(corpus)
        #expect(report.cases[0].mismatches.map(\.field) == ["step 0 listeners"])
    }

    @Test("a header the plugins do not produce fails the corpus")
    func wrongHeaderFails() throws {
        guard case .object(var root) = Self.document else { return }
        root["pluginHeaders"] = [["name": "App", "methods": []]]
        let report = CapacitorConformanceRunner.run(try CapacitorCorpus(.object(root)))
        #expect(report.headerFailure?.field == "pluginHeaders")
        #expect(report.failed == 1)
    }

    @Test("documents that are not Capacitor corpora are refused with the reason", arguments: [
        (#"{"cases": []}"#, "contract"),
        (#"{"contract": "capacitor-shell", "schemaVersion": 2, "plugins": ["App"], "cases": []}"#, "schemaVersion 2"),
        (#"{"contract": "capacitor-shell", "cases": []}"#, "\"plugins\""),
        (#"{"contract": "capacitor-shell", "plugins": ["Camera"], "cases": []}"#, "no plugin \"Camera\""),
        (#"{"contract": "capacitor-shell", "plugins": ["App"]}"#, "no \"cases\""),
        (#"{"contract": "capacitor-shell", "plugins": ["App"], "cases": [{"name": "x", "steps": []}]}"#, "non-empty"),
        (#"{"contract": "capacitor-shell", "plugins": ["App"], "cases": [{"name": "x", "steps": [{"post": {}}]}]}"#, "\"expect\""),
        (#"{"contract": "capacitor-shell", "plugins": ["App"], "cases": [{"name": "x", "steps": [{"expect": []}]}]}"#, "one of"),
        (#"{"contract": "capacitor-shell", "plugins": ["App"], "cases": [{"name": "x", "steps": [{"host": {"lifecycle": "asleep"}, "expect": []}]}]}"#, "lifecycle is one of"),
    ])
    func refused(_ text: String, _ reason: String) throws {
        let document = try JSONParser.parse(text)
        #expect(throws: Corpus.FormatError.self) { try CapacitorCorpus(document) }
        do { _ = try CapacitorCorpus(document) } catch { #expect(error.description.contains(reason), "\(error.description)") }
    }

    @Test("a Studio corpus is not taken for a Capacitor one")
    func kinds() {
        #expect(CapacitorCorpus.isCapacitorCorpus(Self.document))
        #expect(!CapacitorCorpus.isCapacitorCorpus(try! JSONParser.parse(bytes: [UInt8](try! Data(contentsOf: Checkout.corpusURL)))))
    }
}
