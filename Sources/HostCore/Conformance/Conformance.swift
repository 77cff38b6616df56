/// What every contract's conformance runner reports: a difference between what a corpus case
/// expects and what the implementation did, and one case's result.
public struct ConformanceMismatch: Sendable, CustomStringConvertible {
    public var field: String
    public var expected: String
    public var actual: String
    public var description: String { "\(field): expected \(expected), got \(actual)" }
    public init(field: String, expected: String, actual: String) {
        self.field = field; self.expected = expected; self.actual = actual
    }
}

public struct ConformanceCaseResult: Sendable {
    public var index: Int
    public var name: String
    public var mismatches: [ConformanceMismatch]
    public var passed: Bool { mismatches.isEmpty }
    public init(index: Int, name: String, mismatches: [ConformanceMismatch]) {
        self.index = index; self.name = name; self.mismatches = mismatches
    }
}

/// A corpus file that is not what a corpus must be.
public struct CorpusFormatError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}
