import HostCore
/// Decoding `navigation/catalog`, the largest message Studio sends and one it repeats on every
/// document, so it is read schema-first: each group and item object is walked once, its
/// members recognised by key as they come, instead of one lookup over all members per field.
///
/// What must not change with that (and `CatalogDifferentialTests` holds it to the per-field
/// decoder it replaced): a repeated key counts with its last value, unknown keys are ignored,
/// and the rules run in the same order, so the first violation — its field and problem — is
/// the same: the groups array; then per group its items array, id, title, and each item; per
/// item id, title, icon, placement; then the destination count; then repeated ids.
extension NavigationCatalog {
    init(_ payload: FieldReader) throws(ContractViolation) {
        let rawGroups = try payload.array("groups", count: 0...Self.maxGroups)
        var destinations = 0
        groups = try FieldReader.each(rawGroups, of: "groups") { (group) throws(ContractViolation) -> DestinationGroup in
            let decoded = try DestinationGroup(group)
            destinations += decoded.items.count
            return decoded
        }
        guard destinations <= Self.maxDestinations else {
            throw ContractViolation("groups", "holds \(destinations) destinations; at most \(Self.maxDestinations) are allowed")
        }
        if let repeated = Self.firstRepeatedId(groups, count: destinations) {
            throw ContractViolation("groups", "destination id \"\(repeated)\" appears more than once")
        }
    }

    /// The destination id that `Patterns.firstRepeated` would name for all ids in display
    /// order, or nil when all are distinct. Up to its linear limit (32) the same pairwise search
    /// runs here over the ids' lengths, noted on the stack, and compares two ids only when their
    /// UTF-8 lengths (stored, so free to read) are equal: the common answer, no repeat, then
    /// costs no string compare and no copy of the ids.
    static func firstRepeatedId(_ groups: [DestinationGroup], count: Int) -> String? {
        guard count > 1 else { return nil }
        guard count <= 32 else { return Patterns.firstRepeated(groups.flatMap { $0.items.map(\.id) }) }
        return withUnsafeTemporaryAllocation(of: (group: Int, item: Int, length: Int).self, capacity: count) { ids in
            var n = 0, g = 0
            for group in groups {
                var k = 0
                for item in group.items where n < count {
                    ids[n] = (g, k, item.id.utf8.count)
                    n += 1
                    k += 1
                }
                g += 1
            }
            for i in 0..<n {
                for j in i + 1 ..< n where ids[j].length == ids[i].length {
                    let id = groups[ids[i].group].items[ids[i].item].id
                    if groups[ids[j].group].items[ids[j].item].id == id { return id }
                }
            }
            return nil
        }
    }
}

extension DestinationGroup {
    /// One pass over the members finds `id`, `title` and `items`; the rules then run in order.
    init(_ group: FieldReader) throws(ContractViolation) {
        var id: Int? = nil, title: Int? = nil, items: Int? = nil
        let tape = group.tape
        for key in tape.memberKeys(group.index) {
            if tape.isKey(key, "id") { id = key + 1 }
            else if tape.isKey(key, "title") { title = key + 1 }
            else if tape.isKey(key, "items") { items = key + 1 }
        }
        let rawItems = try group.array(at: items, "items", count: 1...NavigationCatalog.maxItemsPerGroup)
        self.init(id: try group.identifier(at: id, "id"),
                  title: try group.optionalString(at: title, "title", length: 1...200),
                  items: try FieldReader.each(rawItems, of: "items", Destination.init(_:)))
    }
}

extension Destination {
    /// One pass over the members finds `id`, `title`, `icon` and `mobilePlacement`.
    init(_ item: FieldReader) throws(ContractViolation) {
        var id: Int? = nil, title: Int? = nil, icon: Int? = nil, placement: Int? = nil
        let tape = item.tape
        for key in tape.memberKeys(item.index) {
            if tape.isKey(key, "id") { id = key + 1 }
            else if tape.isKey(key, "title") { title = key + 1 }
            else if tape.isKey(key, "icon") { icon = key + 1 }
            else if tape.isKey(key, "mobilePlacement") { placement = key + 1 }
        }
        self.init(id: try item.identifier(at: id, "id", maxLength: 128),
                  title: try item.string(at: title, "title", length: 1...200),
                  icon: try item.token(at: icon, "icon", maxLength: 40),
                  placement: try item.optionalEnum(at: placement, "mobilePlacement", MobilePlacement.self) ?? .more)
    }
}
