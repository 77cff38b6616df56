@testable import CapacitorContract
@testable import HomeSec
@testable import HostCore
@testable import Push
@testable import StudioContract

/// The `navigation/catalog` decoder as it was before the single-pass one (commit 72e5f6a), kept
/// here, and only here, as the oracle of `CatalogDifferentialTests`: one `FieldReader` lookup
/// per field, rules applied in the order the contract's implementation always used. Any
/// difference in outcome — value, or violation with its field path and problem — between this
/// and `NavigationCatalog.init(_:)` is a regression of the faster decoder.
enum ReferenceCatalogDecoder {
    static func decode(_ payload: FieldReader) throws(ContractViolation) -> NavigationCatalog {
        let rawGroups = try payload.array("groups", count: 0...NavigationCatalog.maxGroups)
        let groups = try FieldReader.each(rawGroups, of: "groups") { group throws(ContractViolation) in
            let rawItems = try group.array("items", count: 1...NavigationCatalog.maxItemsPerGroup)
            return DestinationGroup(
                id: try group.identifier("id"),
                title: try group.optionalString("title", length: 1...200),
                items: try FieldReader.each(rawItems, of: "items") { item throws(ContractViolation) in
                    Destination(
                        id: try item.identifier("id", maxLength: 128),
                        title: try item.string("title", length: 1...200),
                        icon: try item.token("icon", maxLength: 40),
                        placement: try item.optionalEnum("mobilePlacement", MobilePlacement.self) ?? .more)
                })
        }
        var ids: [String] = []
        for group in groups { for item in group.items { ids.append(item.id) } }
        guard ids.count <= NavigationCatalog.maxDestinations else {
            throw ContractViolation("groups", "holds \(ids.count) destinations; at most \(NavigationCatalog.maxDestinations) are allowed")
        }
        if let repeated = Patterns.firstRepeated(ids) {
            throw ContractViolation("groups", "destination id \"\(repeated)\" appears more than once")
        }
        return NavigationCatalog(groups: groups)
    }
}
