/// How a menu item is styled: only `destructive` is special; any other role is `default`.
public enum ActionMenuRole: String, Sendable, Equatable {
    case `default`, destructive

    init(token: String?) { self = token == "destructive" ? .destructive : .default }
}

/// One action of a native menu.
public struct ActionMenuItem: Sendable, Equatable {
    public var id: String
    public var label: String
    /// Kept even when unknown; a host shows no icon for a token it does not recognize.
    public var icon: String?
    public var disabled: Bool
    public var role: ActionMenuRole
}

/// A visually separated section of a menu.
public struct ActionMenuGroup: Sendable, Equatable {
    public var items: [ActionMenuItem]
}

/// A complete generic menu (`action-menu/arm`, `register-trigger`, legacy `present`).
public struct ActionMenu: Sendable, Equatable {
    public static let maxItems = 24
    public var menuId: String
    public var label: String
    public var groups: [ActionMenuGroup]

    public var items: [ActionMenuItem] { groups.flatMap(\.items) }

    init(_ payload: FieldReader) throws(ContractViolation) {
        menuId = try payload.identifier("menuId")
        label = try payload.string("label", length: 1...200)
        let rawGroups = try payload.array("groups", count: 1...8)
        groups = try FieldReader.each(rawGroups, of: "groups") { g throws(ContractViolation) in
            let rawItems = try g.array("items", count: 1...16)
            return ActionMenuGroup(items: try FieldReader.each(rawItems, of: "items") { i throws(ContractViolation) in
                ActionMenuItem(id: try i.identifier("id"), label: try i.string("label", length: 1...200),
                               icon: try i.optionalToken("icon", maxLength: 40),
                               disabled: try i.optionalBool("disabled") ?? false,
                               role: ActionMenuRole(token: try i.optionalToken("role", maxLength: 32)))
            })
        }
        let all = items
        guard all.count <= Self.maxItems else {
            throw ContractViolation("groups", "hold \(all.count) items; at most \(Self.maxItems) are allowed")
        }
        if let repeated = Patterns.firstRepeated(all.map(\.id)) {
            throw ContractViolation("groups", "action id \"\(repeated)\" is used more than once")
        }
    }
}

/// Where a menu's trigger sits, normalized to the web view (0–1 on both axes).
public struct NormalizedRect: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Rounding slack for `x + width` and `y + height`, which Studio computes in floating point.
    static let edgeTolerance = 0.0001

    init(_ rect: FieldReader) throws(ContractViolation) {
        x = try rect.number("x", range: 0...1)
        y = try rect.number("y", range: 0...1)
        width = try rect.number("width", range: 0...1)
        height = try rect.number("height", range: 0...1)
        guard width > 0, height > 0 else { throw ContractViolation(nil, "width and height must be greater than 0") }
        guard x + width <= 1 + Self.edgeTolerance, y + height <= 1 + Self.edgeTolerance else {
            throw ContractViolation(nil, "must lie inside the web view (x + width and y + height ≤ 1)")
        }
    }
}

/// `action-menu/register-trigger`: a menu and the rect of the control that opens it.
public struct ActionMenuTrigger: Sendable, Equatable {
    public var menu: ActionMenu
    public var rect: NormalizedRect

    init(_ payload: FieldReader) throws(ContractViolation) {
        menu = try ActionMenu(payload)
        let rect = try payload.object("rect")
        self.rect = try FieldReader.within("rect") { () throws(ContractViolation) in try NormalizedRect(rect) }
    }
}
