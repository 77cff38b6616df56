/// How an alert button is styled. Unknown roles are malformed in `alert/present`.
public enum AlertRole: String, Sendable, Equatable, CaseIterable {
    case `default`, cancel, destructive
}

/// One button of a native alert.
public struct AlertButton: Sendable, Equatable {
    public var id: String
    public var label: String
    /// As sent: nil when Studio named no role (shown as `default`).
    public var role: AlertRole?

    public init(id: String, label: String, role: AlertRole? = nil) {
        self.id = id; self.label = label; self.role = role
    }

    public var effectiveRole: AlertRole { role ?? .default }
}

/// `alert/present` (strict, both pages): one native alert with one to three buttons.
public struct AlertRequest: Sendable, Equatable {
    public var alertId: String
    public var title: String
    public var message: String?
    public var actions: [AlertButton]

    public init(alertId: String, title: String, message: String? = nil, actions: [AlertButton]) {
        self.alertId = alertId; self.title = title; self.message = message; self.actions = actions
    }

    init(_ payload: FieldReader) throws(ContractViolation) {
        try payload.requireOnly(["alertId", "title", "message", "actions"])
        alertId = try payload.identifier("alertId")
        title = try payload.string("title", length: 1...200)
        message = try payload.optionalString("message", length: 1...1000)
        let raw = try payload.array("actions", count: 1...3)
        actions = try FieldReader.each(raw, of: "actions") { b throws(ContractViolation) in
            try b.requireOnly(["id", "label", "role"])
            return AlertButton(id: try b.identifier("id"), label: try b.string("label", length: 1...60),
                               role: try b.optionalEnum("role", AlertRole.self))
        }
        if let repeated = Patterns.firstRepeated(actions.map(\.id)) {
            throw ContractViolation("actions", "button id \"\(repeated)\" is used more than once")
        }
    }
}
