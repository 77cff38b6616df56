import HostCore

/// A way the share lint reads text that the phone does not (CONTRACT.md §5: the phone reads
/// it as written). A warning names the ones that changed what was read.
public enum ShareNormalisation: String, Sendable, Equatable, CaseIterable, Comparable {
    /// `%XX` decoded again and again (`%2561` → `%61` → `a`), `+` as a space in parameters.
    case percentDecoded = "percent-decoded"
    /// Unicode compatibility forms (NFKC) read as the ASCII they stand for: fullwidth `ｔｃａ＿`.
    case compatibilityFolded = "compatibility-folded"
    /// Invisible scalars dropped: zero-width and other format characters, NUL and other
    /// control characters, variation selectors.
    case invisibleRemoved = "invisible-removed"
    /// Combining marks dropped (`a` + U+0301 is read as `a`).
    case marksRemoved = "marks-removed"
    /// A parameter name's `[]` or `[key]` suffixes dropped (`access_token[]`).
    case bracketsRemoved = "brackets-removed"
    /// A parameter name read without `-`, `_`, `.` and spaces (`access-token`, `AccessToken`).
    case separatorsIgnored = "separators-ignored"
    /// Parameters found where the phone does not split: a decoded `&`, `=`, `?` or `#`, a route
    /// in the fragment (`#/cb?token=…`), a URL inside a parameter or inside the text, a `;`
    /// parameter of the path, a JSON key.
    case nestedParameters = "nested-parameters"
    /// A backslash in the path read as `/`.
    case backslashAsSlash = "backslash-as-slash"
    /// `;…` parameters of path segments dropped (`/api;x/v1`).
    case pathParametersRemoved = "path-parameters-removed"
    /// Runs of `/` read as one (`//api`).
    case slashesCollapsed = "slashes-collapsed"
    /// `.` and `..` segments resolved (`/x/../api`).
    case dotSegmentsRemoved = "dot-segments-removed"
    /// A host read as a browser reads it: a trailing dot dropped, an IPv4 address in another
    /// notation (`127.1`, `0x7f.0.0.1`, `2130706433`) written as four decimals.
    case hostNormalised = "host-normalised"
    /// Base64 (or base64url) data decoded, as a JWT payload or a blob in the fragment is.
    case base64Decoded = "base64-decoded"

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Text read by the lint, and the normalisations that changed it.
struct LintText {
    var text: String
    var steps: Set<ShareNormalisation> = []

    /// Decodes percent escapes, folds compatibility forms and drops invisible scalars and marks,
    /// again and again until nothing changes (at most `maxRounds` times).
    static func cleaned(_ raw: some StringProtocol, plusAsSpace: Bool = false) -> LintText {
        var out = LintText(text: String(raw))
        for _ in 0..<maxRounds {
            let decoded = PercentEncoding.decode(out.text.utf8, plusAsSpace: plusAsSpace)
            if !decoded.isExactly(out.text) { out.steps.insert(.percentDecoded) }
            var folded = String.UnicodeScalarView()
            for scalar in decoded.unicodeScalars {
                if isInvisible(scalar) {
                    out.steps.insert(.invisibleRemoved)
                } else if [.nonspacingMark, .enclosingMark].contains(scalar.properties.generalCategory) {
                    out.steps.insert(.marksRemoved)
                } else if let form = CompatibilityFold.ascii(scalar) {
                    out.steps.insert(.compatibilityFolded)
                    folded.append(contentsOf: form.unicodeScalars)
                } else {
                    folded.append(scalar)
                }
            }
            let next = String(folded)
            if next.isExactly(out.text) { break }
            out.text = next
        }
        return out
    }

    /// Enough for any nesting a person would write (`%252561` is three).
    static let maxRounds = 16

    /// Scalars that show nothing: controls (NUL among them), format characters (zero-width
    /// space, joiners, bidi marks, BOM), and the default-ignorable ones (variation selectors).
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if ScalarText.isWhitespace(scalar) { return false }
        let category = scalar.properties.generalCategory
        return category == .control || category == .format || scalar.properties.isDefaultIgnorableCodePoint
    }
}

extension ShareLint {
    /// A URL path as a server may read it: cleaned, backslashes as slashes, cut at a decoded
    /// `?` or `#`, `;` parameters dropped, runs of slashes collapsed, dot segments resolved,
    /// ASCII-lowercased.
    static func normalisedPath(_ raw: Substring) -> LintText {
        var path = LintText.cleaned(raw)
        if path.text.utf8.contains(UInt8(ascii: "\\")) {
            path.text = String(decoding: path.text.utf8.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }, as: UTF8.self)
            path.steps.insert(.backslashAsSlash)
        }
        if let end = path.text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            path.text = String(path.text[..<end])
        }
        var segments: [Substring] = []
        var sawEmpty = false
        let pieces = path.text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, piece) in pieces.enumerated() {
            var segment = piece
            if let semicolon = segment.utf8.firstIndex(of: UInt8(ascii: ";")) {
                segment = segment[..<semicolon]
                path.steps.insert(.pathParametersRemoved)
            }
            let last = index == pieces.count - 1
            switch segment {
            case "":
                if !last { sawEmpty = true } else { segments.append("") }
            case ".":
                path.steps.insert(.dotSegmentsRemoved)
                if last { segments.append("") }
            case "..":
                path.steps.insert(.dotSegmentsRemoved)
                if !segments.isEmpty { segments.removeLast() }
                if last { segments.append("") }
            default:
                segments.append(segment)
            }
        }
        if sawEmpty { path.steps.insert(.slashesCollapsed) }
        path.text = ("/" + segments.joined(separator: "/")).asciiLowercased()
        return path
    }

    /// A host as a browser reads it: cleaned, lowercased, without a trailing dot, an IPv4
    /// address in any of the notations the URL standard accepts written as four decimals.
    /// `userInfo`: what came before a decoded `@`, if any.
    static func normalisedHost(_ raw: String) -> (host: LintText, userInfo: String?) {
        var host = LintText.cleaned(raw)
        var userInfo: String?
        if let at = host.text.utf8.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = String(host.text[..<at])
            host.text = String(host.text[host.text.utf8.index(after: at)...])
        }
        host.text = host.text.asciiLowercased()
        if host.text.utf8.count > 1, host.text.utf8.last == UInt8(ascii: ".") {
            host.text.removeLast()
            host.steps.insert(.hostNormalised)
        }
        if let address = ipv4(host.text), !address.isExactly(host.text) {
            host.text = address
            host.steps.insert(.hostNormalised)
        }
        return (host, userInfo)
    }

    /// The URL standard's IPv4 parser: one to four parts, each decimal, octal (`0` first) or
    /// hexadecimal (`0x`), the last filling the bytes left. Nil when `host` is not one.
    static func ipv4(_ host: String) -> String? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count), let last = parts.last?.utf8.last,
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last) || parts.last!.hasPrefix("0x") else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            let radix: Int
            var digits = Substring(part)
            if part.hasPrefix("0x") || part.hasPrefix("0X") { radix = 16; digits = part.dropFirst(2) }
            else if part.count > 1 && part.hasPrefix("0") { radix = 8; digits = part.dropFirst() }
            else { radix = 10 }
            guard digits.utf8.count <= 12 else { return nil }
            guard let number = digits.isEmpty ? 0 : UInt64(digits, radix: radix) else { return nil }
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let lastLimit: UInt64 = 1 << (8 * (5 - UInt64(numbers.count)))
        guard numbers.last! < lastLimit else { return nil }
        var value = numbers.last!
        for (index, number) in numbers.dropLast().enumerated() { value += number << (8 * (3 - UInt64(index))) }
        return [24, 16, 8, 0].map { String((value >> UInt64($0)) & 0xFF) }.joined(separator: ".")
    }

    /// Runs of base64 or base64url (at least 16 characters) in `text`, decoded, when they are
    /// UTF-8 text: a JWT's payload, a blob in a fragment.
    static func base64Texts(in text: String) -> [String] {
        func isBase64(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        var found: [String] = []
        for run in text.utf8.split(whereSeparator: { !isBase64($0) }) where run.count >= 16 && found.count < 8 {
            var bits: UInt32 = 0
            var count = 0
            var bytes: [UInt8] = []
            for byte in run {
                let value: UInt8
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
                case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
                default: value = 63
                }
                bits = bits << 6 | UInt32(value)
                count += 6
                if count >= 8 {
                    count -= 8
                    bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
                }
            }
            if let decoded = String(validating: bytes, as: UTF8.self),
               decoded.unicodeScalars.allSatisfy({ !$0.properties.generalCategory.isControlOrUnassigned || $0 == "\n" || $0 == "\t" }) {
                found.append(decoded)
            }
        }
        return found
    }
}

private extension Unicode.GeneralCategory {
    var isControlOrUnassigned: Bool { self == .control || self == .unassigned || self == .surrogate || self == .privateUse }
}
