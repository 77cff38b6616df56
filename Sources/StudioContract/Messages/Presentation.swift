/// How much room a presentation needs: `compact` starts at medium height; anything else is full.
public enum PresentationSize: String, Sendable, Equatable {
    case full, compact

    /// A well-formed size token the host does not know is shown as full.
    init(token: String) { self = token == "compact" ? .compact : .full }
}

/// `presentation/open` (main page): show a native sheet for a route in `/__native/modal`.
public struct PresentationOpen: Sendable, Equatable {
    public var presentationId: String
    public var path: String
    public var title: String
    public var subtitle: String?
    public var size: PresentationSize
    public var dismissible: Bool

    public init(presentationId: String, path: String, title: String, subtitle: String? = nil,
                size: PresentationSize = .full, dismissible: Bool = true) {
        self.presentationId = presentationId; self.path = path; self.title = title
        self.subtitle = subtitle; self.size = size; self.dismissible = dismissible
    }

    init(_ payload: FieldReader) throws(ContractViolation) {
        presentationId = try payload.identifier("presentationId")
        path = try readPath(payload, "path", StudioPath.checkPresentationPath)
        title = try payload.string("title", length: 1...200)
        subtitle = try payload.optionalString("subtitle", length: 1...200)
        size = try payload.optionalToken("size", maxLength: 32).map(PresentationSize.init(token:)) ?? .full
        dismissible = try payload.optionalBool("dismissible") ?? true
    }
}

/// The leading control of a presentation header: close dismisses; back reports the action `back`.
public enum HeaderNavigation: String, Sendable, Equatable {
    case close, back

    init(token: String) { self = token == "back" ? .back : .close }
}

/// A header button: icon shown, label for accessibility.
public struct HeaderAction: Sendable, Equatable {
    public var id: String
    public var label: String
    public var icon: String
}

/// An item of the header's overflow menu.
public struct HeaderMenuItem: Sendable, Equatable {
    public var id: String
    public var label: String
    public var icon: String?
    public var disabled: Bool
}

/// A complete snapshot of a presentation's native header.
public struct PresentationHeader: Sendable, Equatable {
    public var title: String
    public var subtitle: String?
    public var navigation: HeaderNavigation?
    public var navigationLabel: String?
    public var actions: [HeaderAction]
    public var menuLabel: String?
    public var menu: [HeaderMenuItem]

    init(_ header: FieldReader) throws(ContractViolation) {
        title = try header.string("title", length: 1...200)
        subtitle = try header.optionalString("subtitle", length: 1...200)
        navigation = try header.optionalToken("navigation", maxLength: 32).map(HeaderNavigation.init(token:))
        navigationLabel = try header.optionalString("navigationLabel", length: 1...200)
        menuLabel = try header.optionalString("menuLabel", length: 1...200)
        let rawActions = try header.optionalArray("actions", count: 0...4)
        actions = try FieldReader.each(rawActions, of: "actions") { a throws(ContractViolation) in
            HeaderAction(id: try a.identifier("id"), label: try a.string("label", length: 1...200),
                         icon: try a.token("icon", maxLength: 40))
        }
        let rawMenu = try header.optionalArray("menu", count: 0...16)
        menu = try FieldReader.each(rawMenu, of: "menu") { m throws(ContractViolation) in
            HeaderMenuItem(id: try m.identifier("id"), label: try m.string("label", length: 1...200),
                           icon: try m.optionalToken("icon", maxLength: 40),
                           disabled: try m.optionalBool("disabled") ?? false)
        }
        if let repeated = Patterns.firstRepeated(actions.map(\.id) + menu.map(\.id)) {
            throw ContractViolation("actions", "id \"\(repeated)\" is used more than once across actions and menu")
        }
    }
}

/// `presentation/update` (presentation page): each property present replaces the current value.
public struct PresentationUpdate: Sendable, Equatable {
    public var presentationId: String
    public var header: PresentationHeader?
    public var size: PresentationSize?
    public var dismissible: Bool?

    public init(presentationId: String, header: PresentationHeader? = nil, size: PresentationSize? = nil, dismissible: Bool? = nil) {
        self.presentationId = presentationId; self.header = header; self.size = size; self.dismissible = dismissible
    }

    init(_ payload: FieldReader) throws(ContractViolation) {
        presentationId = try payload.identifier("presentationId")
        if let header = try payload.optionalObject("header") {
            self.header = try FieldReader.within("header") { () throws(ContractViolation) in
                try PresentationHeader(header)
            }
        }
        size = try payload.optionalToken("size", maxLength: 32).map(PresentationSize.init(token:))
        dismissible = try payload.optionalBool("dismissible")
    }
}

/// `presentation/navigate` (presentation page): close the sheet, then open `path` in main.
public struct PresentationNavigate: Sendable, Equatable {
    public var presentationId: String
    public var path: String

    init(_ payload: FieldReader) throws(ContractViolation) {
        presentationId = try payload.identifier("presentationId")
        path = try readPath(payload, "path", { StudioPath.checkStudioPath($0) })
    }
}

/// Reads a required string field and applies a path rule to it.
func readPath(_ reader: FieldReader, _ key: StaticString, _ rule: (String) -> PathProblem?) throws(ContractViolation) -> String {
    let path = try reader.string(key, length: 0...Int.max)
    if let problem = rule(path) { throw ContractViolation(key.description, problem.description) }
    return path
}
