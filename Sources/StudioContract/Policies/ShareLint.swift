import HostCore

/// A share the phone lets through that carries what its rules are there to stop, once read as
/// a server or a person would read it (`ShareLint`). HostShell shares it all the same, as the
/// phone does, and says so: the event stream, the bridge log and `ctl state` (`share.warnings`).
public struct ShareWarning: Sendable, Equatable {
    /// The refusal rule (§4 "Share refusal") that would have caught the share.
    public enum Rule: String, Sendable, Equatable, CaseIterable {
        /// title, text or url contains `tca_`, `tcr_`, `tc_device_`, `tc_pair`.
        case credentialMarker = "credential-marker"
        /// A query or fragment parameter is named like a credential.
        case credentialParameter = "credential-parameter"
        /// The URL is on the server's own origin under `/api` or `/__native`.
        case ownAPIPath = "own-api-path"
        /// The URL has user information.
        case userInfo = "user-info"

        /// The rule as the contract words it.
        public var wording: String {
            switch self {
            case .credentialMarker: return "title, text and url must not carry a Tilecast credential marker (tca, tcr, tc-device, tc-pair)"
            case .credentialParameter: return "no query or fragment parameter may be named like a credential"
            case .ownAPIPath: return "links into the server's own /api or /__native tree are not shared"
            case .userInfo: return "the URL must not contain user information"
            }
        }
    }

    /// `title`, `text` or `url`.
    public var field: String
    public var rule: Rule
    /// What was found, as the lint read it: the marker (its `_` written `-`, so that the bridge
    /// log, which hides every string with a marker, keeps it: `tca`, `tc-device`), the parameter
    /// name, the path, the user information.
    public var found: String
    /// How the lint read it (what the phone does not do).
    public var normalisations: [ShareNormalisation]

    public init(field: String, rule: Rule, found: String, normalisations: [ShareNormalisation]) {
        self.field = field; self.rule = rule; self.found = found; self.normalisations = normalisations
    }

    /// One line for a person: what, where, and that it was shared anyway.
    public var message: String {
        let how = normalisations.isEmpty ? "" : " once \(normalisations.map(\.rawValue).joined(separator: ", "))"
        return "the share's \(field) was shared as the phone shares it, but\(how) it breaks the rule \"\(rule.wording)\" (found \(found))"
    }

    /// For `ctl state`, the event stream and the bridge log (`found` shortened, credentials redacted).
    public var json: JSONValue {
        BridgeLog.redact(["field": .string(field), "rule": .string(rule.rawValue),
                          "found": .string(found.prefix(scalars: 200)),
                          "normalisations": .array(normalisations.map { .string($0.rawValue) }),
                          "message": .string(message.prefix(scalars: 600))])
    }
}

/// The share lint: for a share the refusal rules accepted (`SharePolicy`, read as the phone
/// reads it), the same rules once more over the text as a server, a browser or a person may read
/// it — percent-decoded again and again, compatibility forms folded, invisible scalars and marks
/// dropped, parameter names stripped of `[]` and separators, parameters found where the phone
/// does not split, the path's dot segments and runs of slashes resolved, the host read as a
/// browser reads it — and what each finds. It never refuses: the phone does not.
public enum ShareLint {
    /// The warnings for `share` (which passed the refusal rules), at most one per field and rule.
    public static func warnings(for share: ShareRequest, serverOrigin: Origin?) -> [ShareWarning] {
        var warnings: [ShareWarning] = []
        func add(_ warning: ShareWarning) {
            guard !warnings.contains(where: { $0.field == warning.field && $0.rule == warning.rule }) else { return }
            warnings.append(warning)
        }
        for (field, value) in [("title", share.title), ("text", share.text), ("url", share.url)] {
            guard let value else { continue }
            if let warning = marker(in: value, field: field) { add(warning) }
            if field != "url" {
                // A URL inside the text: the phone reads only the url field's parameters.
                for url in embeddedURLs(in: value) { urlWarnings(url, field: field, serverOrigin: serverOrigin, nested: true).forEach(add) }
            }
        }
        if let url = share.url { urlWarnings(url, field: "url", serverOrigin: serverOrigin, nested: false).forEach(add) }
        return warnings
    }

    // MARK: markers

    static func marker(in value: String, field: String) -> ShareWarning? {
        guard !CredentialMarkers.contained(in: value) else { return nil }  // the phone's own rule
        let cleaned = LintText.cleaned(value)
        if let found = firstMarker(cleaned.text) {
            return ShareWarning(field: field, rule: .credentialMarker, found: found, normalisations: cleaned.steps.sorted())
        }
        for decoded in base64Texts(in: cleaned.text) {
            if let found = firstMarker(LintText.cleaned(decoded).text) {
                return ShareWarning(field: field, rule: .credentialMarker, found: found, normalisations: (cleaned.steps.union([.base64Decoded])).sorted())
            }
        }
        return nil
    }

    static func firstMarker(_ text: String) -> String? {
        let lower = text.asciiLowercased()
        guard let marker = CredentialMarkers.prefixes.first(where: { lower.firstScalarRange(of: $0) != nil }) else { return nil }
        let named = marker.split(separator: "_").joined(separator: "-")
        return named
    }

    // MARK: the URL

    static func urlWarnings(_ url: String, field: String, serverOrigin: Origin?, nested: Bool) -> [ShareWarning] {
        guard let parts = URLParts(url) else { return [] }
        var warnings: [ShareWarning] = []
        let authority = authorityText(url)
        let (host, userInfo) = normalisedHost(authority)
        if nested, parts.userInfo != nil {
            warnings.append(ShareWarning(field: field, rule: .userInfo, found: String(parts.userInfo!), normalisations: [.nestedParameters]))
        } else if parts.userInfo == nil, let userInfo {
            warnings.append(ShareWarning(field: field, rule: .userInfo, found: userInfo + "@", normalisations: host.steps.sorted()))
        }
        var components: [(Substring, Set<ShareNormalisation>)] = []
        if let query = parts.query { components.append((query, nested ? [.nestedParameters] : [])) }
        if let fragment = parts.fragment { components.append((fragment, nested ? [.nestedParameters] : [])) }
        // `;` parameters of the path, and a `?` or `#` decoded in it.
        let path = LintText.cleaned(parts.path)
        if let start = path.text.utf8.firstIndex(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            components.append((path.text[path.text.utf8.index(after: start)...], path.steps.union([.nestedParameters])))
        }
        for (component, steps) in components {
            if let warning = parameter(in: component, field: field, steps: steps) { warnings.append(warning); break }
        }
        if let warning = ownAPIPath(parts, host: host, field: field, serverOrigin: serverOrigin, nested: nested) { warnings.append(warning) }
        return warnings
    }

    /// The text between `//` and the first `/`, `?` or `#`.
    static func authorityText(_ url: String) -> String {
        guard let start = url.firstScalarRange(of: "//")?.upperBound else { return "" }
        let rest = url[start...]
        let end = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.utf8.index(after: at)...] }
        // Without the port (a `:` after the last `]`).
        if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")), !authority[colon...].contains("]") {
            authority = authority[..<colon]
        }
        return String(authority)
    }

    // MARK: parameters

    /// Credential names, and the same without separators (`accesstoken`).
    static let compactNames: [String: String] = Dictionary(
        SharePolicy.credentialParameters.map { (compact($0), $0) }, uniquingKeysWith: { a, _ in a })

    static func compact(_ name: String) -> String {
        String(decoding: name.utf8.filter { ![UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: " ")].contains($0) }, as: UTF8.self)
    }

    /// The first credential-like parameter in a query, fragment or path's parameters, read
    /// cleaned and split wherever a parameter may start (`&`, `;`, `?`, `#`), names trimmed and
    /// without `[…]`; and JSON keys (`"access_token":`).
    static func parameter(in component: Substring, field: String, steps: Set<ShareNormalisation>) -> ShareWarning? {
        var cleaned = LintText.cleaned(component, plusAsSpace: true)
        cleaned.steps.formUnion(steps)
        // As many pieces as the phone split: fewer than the lint splits when a separator was
        // decoded or is nested.
        let phonePieces = component.utf8.split(whereSeparator: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }).count
        for (index, text) in ([cleaned.text] + base64Texts(in: cleaned.text)).enumerated() {
            var found = cleaned.steps
            if index > 0 { found.insert(.base64Decoded) }
            let pieces = text.utf8.split(whereSeparator: { [UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) })
            if pieces.count > phonePieces { found.insert(.nestedParameters) }
            for piece in pieces {
                let nameBytes = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false).first ?? piece
                if let (name, more) = credentialName(String(decoding: nameBytes, as: UTF8.self)) {
                    return ShareWarning(field: field, rule: .credentialParameter, found: name, normalisations: found.union(more).sorted())
                }
            }
            if let name = jsonKey(in: text) {
                return ShareWarning(field: field, rule: .credentialParameter, found: name, normalisations: found.union([.nestedParameters]).sorted())
            }
        }
        return nil
    }

    /// `raw` as a credential parameter's name, and how it had to be read to be one.
    static func credentialName(_ raw: String) -> (String, Set<ShareNormalisation>)? {
        var steps: Set<ShareNormalisation> = []
        var name = raw.trimmingWhitespace().asciiLowercased()
        while name.utf8.last == UInt8(ascii: "]"), let open = name.utf8.lastIndex(of: UInt8(ascii: "[")) {
            name = String(name[..<open]).trimmingWhitespace()
            steps.insert(.bracketsRemoved)
        }
        if SharePolicy.credentialParameters.contains(name) { return (name, steps) }
        if let known = compactNames[compact(name)] { return (known, steps.union([.separatorsIgnored])) }
        return nil
    }

    /// A credential name as a JSON (or JavaScript object) key: quoted, then `:`.
    static func jsonKey(in text: String) -> String? {
        let lower = text.asciiLowercased()
        for name in SharePolicy.credentialParameters.sorted() {
            for quote in ["\"", "'"] {
                var rest = lower[...]
                while let range = rest.firstScalarRange(of: quote + name + quote) {
                    let after = rest[range.upperBound...].drop(while: { $0 == " " })
                    if after.first == ":" { return name }
                    rest = rest[range.upperBound...]
                }
            }
        }
        return nil
    }

    // MARK: the server's own API

    static func ownAPIPath(_ parts: URLParts, host: LintText, field: String, serverOrigin: Origin?, nested: Bool) -> ShareWarning? {
        guard let serverOrigin, let origin = Origin(scheme: parts.scheme, host: host.text, port: parts.port), origin == serverOrigin else { return nil }
        let path = normalisedPath(parts.path)
        guard let root = ["/api", "/__native"].first(where: { StudioPath.isInTree(path.text[...], root: $0) }) else { return nil }
        // The phone's reading (when it is the url field): decoded once, dot segments as written.
        if !nested, let phoneOrigin = Origin(scheme: parts.scheme, host: parts.host, port: parts.port), phoneOrigin == serverOrigin,
           StudioPath.isInTree(PercentEncoding.decode(parts.path.utf8).asciiLowercased()[...], root: root) { return nil }
        var steps = path.steps.union(host.steps)
        if nested { steps.insert(.nestedParameters) }
        return ShareWarning(field: field, rule: .ownAPIPath, found: path.text.prefix(scalars: 200), normalisations: steps.sorted())
    }

    // MARK: URLs inside text

    /// `http://` and `https://` URLs in `text` (cleaned), each up to the next white space.
    static func embeddedURLs(in text: String) -> [String] {
        let cleaned = LintText.cleaned(text).text
        let lower = cleaned.asciiLowercased()
        var urls: [String] = []
        var rest = lower[...]
        while urls.count < 16, let range = rest.firstScalarRange(of: "http") {
            let start = range.lowerBound
            let tail = lower[start...]
            if tail.hasPrefix("http://") || tail.hasPrefix("https://") {
                let end = tail.unicodeScalars.firstIndex(where: { ScalarText.isWhitespace($0) || $0 == "\"" || $0 == "<" || $0 == ">" }) ?? tail.endIndex
                let offset = lower.utf8.distance(from: lower.startIndex, to: start)
                let length = lower.utf8.distance(from: start, to: end)
                let from = cleaned.utf8.index(cleaned.startIndex, offsetBy: offset)
                urls.append(String(cleaned[from..<cleaned.utf8.index(from, offsetBy: length)]))
                rest = lower[end...]
            } else {
                rest = lower[range.upperBound...]
            }
        }
        return urls
    }
}
