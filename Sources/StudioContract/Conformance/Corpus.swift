import HostCore

/// A conformance corpus in the format of the contract's `messages-v1.json`.
public struct Corpus: Sendable {
    /// Who decodes the message: the host (`frontendToNative`), or Studio (`nativeToFrontend`, `reply`).
    public enum Direction: String, Sendable { case frontendToNative, nativeToFrontend, reply }
    public enum Outcome: String, Sendable { case accept, malformed, unknownType, unsupportedVersion }

    public struct Case: Sendable {
        public var index: Int
        public var name: String
        public var direction: Direction
        public var outcome: Outcome
        public var message: JSONValue
        /// Every other field of the case: the decoded values to check.
        public var expectations: JSONObject
    }

    public var cases: [Case]
    public var deepLinkAccept: [String]
    public var deepLinkRefuse: [String]

    /// Fields a case may carry that are about Studio's side or informational only.
    static let informationalFields: Set<String> = ["studioEncodes", "schemaValid", "$comment"]

    public typealias FormatError = CorpusFormatError

    public init(_ document: JSONValue) throws(FormatError) {
        guard case .object(let root) = document else {
            throw FormatError(description: "the corpus must be a JSON object with a \"cases\" array")
        }
        if let version = root["schemaVersion"], version.integerValue != 1 {
            throw FormatError(description: "schemaVersion \(JSONWriter.string(version)) is not supported (expected 1)")
        }
        guard case .array(let rawCases)? = root["cases"] else {
            throw FormatError(description: "the corpus has no \"cases\" array")
        }
        var cases: [Case] = []
        for (index, raw) in rawCases.enumerated() {
            func bad(_ why: String) -> FormatError { FormatError(description: "case \(index): \(why)") }
            guard case .object(let object) = raw else { throw bad("must be an object") }
            guard case .string(let name)? = object["name"] else { throw bad("has no \"name\" string") }
            guard case .string(let d)? = object["direction"], let direction = Direction(rawValue: d) else {
                throw bad("\"\(name)\" has no direction of frontendToNative, nativeToFrontend or reply")
            }
            guard case .string(let o)? = object["outcome"], let outcome = Outcome(rawValue: o) else {
                throw bad("\"\(name)\" has no outcome of accept, malformed, unknownType or unsupportedVersion")
            }
            guard let message = object["message"] else { throw bad("\"\(name)\" has no message") }
            var expectations = JSONObject()
            for member in object.members {
                switch member.key {
                case "name", "direction", "outcome", "message": continue
                default: expectations[member.key] = member.value
                }
            }
            cases.append(Case(index: index, name: name, direction: direction, outcome: outcome,
                              message: message, expectations: expectations))
        }
        self.cases = cases
        deepLinkAccept = []
        deepLinkRefuse = []
        if let paths = root["deepLinkPaths"] {
            guard case .object(let lists) = paths else { throw FormatError(description: "deepLinkPaths must be an object") }
            for (key, target) in [("accept", \Corpus.deepLinkAccept), ("refuse", \Corpus.deepLinkRefuse)] {
                guard let list = lists[key] else { continue }
                guard case .array(let items) = list, let strings = Optional(items.compactMap(\.stringValue)),
                      strings.count == items.count else {
                    throw FormatError(description: "deepLinkPaths.\(key) must be an array of strings")
                }
                self[keyPath: target] = strings
            }
        }
    }
}
