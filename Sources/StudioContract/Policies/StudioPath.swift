/// Why a string is not an acceptable Studio path.
public enum PathProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLong(limit: Int)
    case notRooted
    case protocolRelative
    case forbiddenCharacter
    case dotSegment
    case reservedNativeTree
    case outsidePresentationTree
    case reservedAuthenticationPath

    public var description: String {
        switch self {
        case .empty: return "must not be empty"
        case .tooLong(let limit): return "is longer than \(limit) characters"
        case .notRooted: return "must be a path starting with /"
        case .protocolRelative: return "must not start with // (another host)"
        case .forbiddenCharacter: return "must not contain white space, control characters or a backslash"
        case .dotSegment: return "must not contain . or .. segments (also percent-encoded)"
        case .reservedNativeTree: return "must not be in the reserved /__native tree"
        case .outsidePresentationTree: return "must be in the /__native/modal tree"
        case .reservedAuthenticationPath: return "must not be /login, /setup, /oauth or below them"
        }
    }
}

/// The path rules of §3 and §4: a "Studio path" is same-origin, starts with exactly one `/`, has
/// no white space, control character or backslash anywhere, and no `.`/`..` segment in its path
/// part (the text before `?` or `#`), including `%2e` forms. Query and fragment count toward
/// the length and the character scan only.
public enum StudioPath {
    public static let maxLength = 2048
    public static let presentationMaxLength = 1024
    public static let presentationRoot = "/__native/modal"

    /// The shared rules, without any tree restriction.
    public static func checkSafe(_ path: String, maxLength: Int) -> PathProblem? {
        let utf8 = path.utf8
        guard let first = utf8.first else { return .empty }
        guard first == UInt8(ascii: "/") else { return .notRooted }
        if utf8.count > 1 {
            let second = utf8[utf8.index(after: utf8.startIndex)]
            if second == UInt8(ascii: "/") || second == UInt8(ascii: "\\") { return .protocolRelative }
        }
        if !Patterns.hasLength(path, in: 1...maxLength) { return .tooLong(limit: maxLength) }
        if Patterns.hasForbiddenCharacter(path) { return .forbiddenCharacter }
        if hasDotSegment(pathPart(path)) { return .dotSegment }
        return nil
    }

    /// An ordinary Studio path (≤ 2048), outside `/__native`: what `navigation/open-path`,
    /// `presentation/navigate` and deep links may carry.
    public static func checkStudioPath(_ path: String, maxLength: Int = maxLength) -> PathProblem? {
        if let problem = checkSafe(path, maxLength: maxLength) { return problem }
        if isInTree(pathPart(path), root: "/__native") { return .reservedNativeTree }
        return nil
    }

    /// A presentation path (≤ 1024) inside `/__native/modal`.
    public static func checkPresentationPath(_ path: String) -> PathProblem? {
        if let problem = checkSafe(path, maxLength: presentationMaxLength) { return problem }
        if !isInTree(pathPart(path), root: presentationRoot) { return .outsidePresentationTree }
        return nil
    }

    /// The text before the first `?` or `#`.
    public static func pathPart(_ path: String) -> Substring {
        if let end = path.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return path[..<end]
        }
        return path[...]
    }

    /// `part` is `root` itself or below it (`root/…`). Case-sensitive, as Studio's router is.
    public static func isInTree(_ part: Substring, root: String) -> Bool {
        guard part.utf8.starts(with: root.utf8) else { return false }
        let rest = part.utf8.dropFirst(root.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    /// Any segment that is `.` or `..` once `%2e` (either case) is read as a dot.
    static func hasDotSegment(_ part: Substring) -> Bool {
        for segment in part.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            var dots = 0
            var i = segment.startIndex
            var isDots = true
            while i < segment.endIndex && isDots {
                if segment[i] == UInt8(ascii: ".") {
                    dots += 1
                    i = segment.index(after: i)
                } else if segment[i] == UInt8(ascii: "%"),
                          segment.distance(from: i, to: segment.endIndex) >= 3,
                          segment[segment.index(i, offsetBy: 1)] == UInt8(ascii: "2"),
                          segment[segment.index(i, offsetBy: 2)] | 0x20 == UInt8(ascii: "e") {
                    dots += 1
                    i = segment.index(i, offsetBy: 3)
                } else {
                    isDots = false
                }
                if dots > 2 { isDots = false }
            }
            if isDots && (dots == 1 || dots == 2) { return true }
        }
        return false
    }
}
