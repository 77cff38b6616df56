@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract
import Foundation
import Testing

/// The single-pass catalog decoder against the per-field one it replaced
/// (`ReferenceCatalogDecoder`): on the corpus, on seeded text-level catalogs (`CatalogFuzzer`)
/// and on seeded mutations of real catalogs, both must produce the same catalog or the same
/// first violation — field path and problem, not only the reply code.
@Suite("Catalog decoder, differential")
struct CatalogDifferentialTests {
    /// Both decoders' outcomes for an envelope whose type is `navigation/catalog`; nil for any
    /// other text (not JSON, another type, a broken envelope), which never reaches either.
    static func outcomes(_ text: String) -> (fast: Result<NavigationCatalog, ContractViolation>,
                                             reference: Result<NavigationCatalog, ContractViolation>)? {
        try? EnvelopeReader.withTape(text) { (tape) throws(BridgeFailure) in
            let envelope = try EnvelopeReader.read(tape)
            guard envelope.type == StudioMessageType.navigationCatalog.rawValue else {
                throw BridgeFailure(.unknownType, reason: "not a catalog")
            }
            return (Result { () throws(ContractViolation) in try NavigationCatalog(envelope.payload) },
                    Result { () throws(ContractViolation) in try ReferenceCatalogDecoder.decode(envelope.payload) })
        }
    }

    /// Tallies what the compared inputs covered, so a generator that drifts into testing
    /// nothing (all rejected early, or all accepted) fails the suite.
    struct Tally {
        var accepted = 0
        var violations: [String: Int] = [:]

        mutating func compare(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard let (fast, reference) = CatalogDifferentialTests.outcomes(text) else { return }
            #expect(fast == reference, "\(text.prefix(600))", sourceLocation: sourceLocation)
            switch reference {
            case .success(let catalog):
                accepted += 1
                #expect(CatalogDifferentialTests.independentlyRead(text) == CatalogDifferentialTests.summary(catalog),
                        "\(text.prefix(600))", sourceLocation: sourceLocation)
            case .failure(let violation):
                // Group by the field's shape (indices dropped) and the problem's first words.
                let field = violation.path.filter { !$0.hasPrefix("[") }.joined(separator: ".")
                violations["\(field): \(violation.problem.prefix(16))", default: 0] += 1
            }
        }
    }

    /// An accepted catalog's fields as Foundation's `JSONSerialization` reads them: a parser
    /// that shares nothing with the tape, so the strings both decoders make (escapes, small and
    /// large strings, non-ASCII) are checked against an independent reading.
    static func independentlyRead(_ text: String) -> [[String]]? {
        guard let root = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let payload = root["payload"] as? [String: Any], let groups = payload["groups"] as? [Any]
        else { return nil }
        return groups.map { group in
            let g = group as? [String: Any] ?? [:]
            let items = (g["items"] as? [Any] ?? []).flatMap { item -> [String] in
                let i = item as? [String: Any] ?? [:]
                return [i["id"], i["title"], i["icon"], i["mobilePlacement"] ?? "more"].map { $0 as? String ?? "?" }
            }
            return [g["id"] as? String ?? "?", g["title"] as? String ?? "(none)"] + items
        }
    }

    static func summary(_ catalog: NavigationCatalog) -> [[String]] {
        catalog.groups.map { group in
            [group.id, group.title ?? "(none)"] + group.items.flatMap { [$0.id, $0.title, $0.icon, $0.placement.rawValue] }
        }
    }

    @Test("the corpus's catalog cases, and every corpus payload sent as a catalog")
    func corpus() {
        var tally = Tally()
        for testCase in Checkout.loadCorpus().cases {
            guard case .object(var message) = testCase.message else { continue }
            tally.compare(JSONWriter.string(.object(message)))
            message["type"] = .string(StudioMessageType.navigationCatalog.rawValue)
            tally.compare(JSONWriter.string(.object(message)))
        }
        #expect(tally.accepted >= 4)
        #expect(tally.violations.count >= 6, "\(tally.violations)")
    }

    @Test("20,000 seeded catalogs written as text: same catalog or same first violation")
    func generated() {
        var fuzzer = CatalogFuzzer(seed: 0xCA7A_1062)
        var tally = Tally()
        for _ in 0..<20_000 { tally.compare(fuzzer.next()) }
        #expect(tally.accepted > 3_000, "\(tally.accepted)")
        #expect(tally.violations.values.reduce(0, +) > 5_000)
        // Every rule is reached: each field with each kind of problem, counts and repeats.
        #expect(tally.violations.count >= 25, "\(tally.violations.keys.sorted())")
        for field in ["groups: holds", "groups: destination id", "groups: must have at", "groups.items: must have at",
                      "groups.id: must match", "groups.title: must be 1–200", "groups.items.id: must match",
                      "groups.items.title: must not be em", "groups.items.icon: must match", "groups.items.mobilePlacement: has an unknown",
                      "groups: must be an obj", "groups.items: must be an obj", "groups.items.id: is required"] {
            #expect(tally.violations.keys.contains { $0.hasPrefix(field) }, "\(field) never reached: \(tally.violations.keys.sorted())")
        }
    }

    @Test("10,000 seeded mutations of real catalogs (the robustness fuzzer's mutations)")
    func mutated() throws {
        let seeds = Checkout.loadCorpus().cases.map(\.message).filter {
            $0.objectValue?["type"]?.stringValue == StudioMessageType.navigationCatalog.rawValue
        } + [try JSONParser.parse(String(contentsOf: Checkout.fixture("bench/catalog-8.json"), encoding: .utf8))]
        var fuzzer = Fuzzer(rng: SeededGenerator(state: 0xD1FF_2026), seeds: seeds)
        var tally = Tally()
        for _ in 0..<10_000 {
            let mutated = fuzzer.mutate(fuzzer.pick(seeds))
            guard case .object(var message) = mutated else { continue }
            message["type"] = .string(StudioMessageType.navigationCatalog.rawValue)  // keep it a catalog
            tally.compare(JSONWriter.string(.object(message)))
        }
        #expect(tally.accepted > 300, "\(tally.accepted)")
        #expect(tally.violations.count >= 12, "\(tally.violations.keys.sorted())")
    }
}
