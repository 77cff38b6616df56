import HostCore
/// Where a phone-sized host prefers a destination: a tab (`primary`) or the More list.
public enum MobilePlacement: String, Sendable, Equatable, CaseIterable {
    case primary, more
}

/// One place Studio can navigate to. The host knows destinations only from the catalog.
public struct Destination: Sendable, Equatable {
    public var id: String
    public var title: String
    /// An advisory icon token; a host shows its generic icon for one it does not know.
    public var icon: String
    /// Omitted means `more`.
    public var placement: MobilePlacement

    public init(id: String, title: String, icon: String, placement: MobilePlacement = .more) {
        self.id = id; self.title = title; self.icon = icon; self.placement = placement
    }
}

/// A section of the catalog, shown with its title (when it has one) in a sidebar.
public struct DestinationGroup: Sendable, Equatable {
    public var id: String
    public var title: String?
    public var items: [Destination]

    public init(id: String, title: String? = nil, items: [Destination]) {
        self.id = id; self.title = title; self.items = items
    }
}

/// `navigation/catalog`: a complete snapshot of Studio's destinations in display order.
/// No groups withdraws native navigation.
public struct NavigationCatalog: Sendable, Equatable {
    public static let maxGroups = 32
    public static let maxItemsPerGroup = 64
    public static let maxDestinations = 128

    public var groups: [DestinationGroup]

    public init(groups: [DestinationGroup]) { self.groups = groups }

    /// Every destination in display order.
    public var destinations: [Destination] { groups.flatMap(\.items) }
    public var isEmpty: Bool { groups.isEmpty }
    // Decoding: CatalogDecoding.swift.
}

/// `navigation/state`: the destination Studio resolved for its location (authoritative for the
/// native selection), and the path for diagnostics only.
public struct NavigationState: Sendable, Equatable {
    public var activeDestinationId: String?
    public var path: String?

    public init(activeDestinationId: String?, path: String? = nil) {
        self.activeDestinationId = activeDestinationId; self.path = path
    }

    init(_ payload: FieldReader) throws(ContractViolation) {
        // Required, but null is a value here: the location belongs to no destination.
        guard let active = payload.entry("activeDestinationId") else {
            throw ContractViolation("activeDestinationId", "is required (a destination id or null)")
        }
        activeDestinationId = payload.tape.kind(active) == .null ? nil : try payload.identifier("activeDestinationId", maxLength: 128)
        // Diagnostic only (§5): not checked as a Studio path, so dot segments, `//`, white space
        // and the rest pass. The leading `/` stays: §5's "any string" would drop it too, but
        // the shared corpus refuses a relative path ("navigation/state with a relative path").
        path = try payload.optionalString("path", length: 1...StudioPath.maxLength)
        if let path, path.utf8.first != UInt8(ascii: "/") {
            throw ContractViolation("path", PathProblem.notRooted.description)
        }
    }
}

/// `navigation/chrome` (strict): the native bar of the page shown in main. With `backLabel` the
/// page is a drill-in and gets a back bar; without, no bar.
public struct NavigationChrome: Sendable, Equatable {
    public var title: String?
    public var backLabel: String?

    public init(title: String? = nil, backLabel: String? = nil) {
        self.title = title; self.backLabel = backLabel
    }

    public var hasBackBar: Bool { backLabel != nil }

    init(_ payload: FieldReader) throws(ContractViolation) {
        try payload.requireOnly(["title", "back"])
        title = try payload.optionalString("title", length: 1...200)
        if let back = try payload.optionalObject("back") {
            backLabel = try FieldReader.within("back") { () throws(ContractViolation) in
                try back.requireOnly(["label"])
                return try back.string("label", length: 1...200)
            }
        }
    }
}
