/// Why a message broke the contract: which field, and what is wrong with it. The path is built
/// only when a violation is thrown, so valid messages pay nothing for it.
public struct ContractViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// Path components from the outside in, e.g. `["payload", "groups", "[2]", "title"]`.
    public private(set) var path: [String]
    public let problem: String

    public init(_ field: String?, _ problem: String) {
        self.path = field.map { [$0] } ?? []
        self.problem = problem
    }

    /// The field as one string: `payload.groups[2].title`.
    public var field: String {
        var text = ""
        for component in path {
            if !text.isEmpty && !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }

    public var description: String { path.isEmpty ? problem : "\(field): \(problem)" }

    func prefixed(_ component: String) -> ContractViolation {
        var copy = self
        copy.path.insert(component, at: 0)
        return copy
    }
}
