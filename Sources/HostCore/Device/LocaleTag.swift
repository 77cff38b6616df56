/// A page's locale as a BCP 47 tag of the common shape — language, optional script, optional
/// region (`fr`, `fr-FR`, `zh-Hant-TW`, `es-419`) — in its canonical case, with what WebKit and
/// the web process are told.
public struct LocaleTag: Sendable, Equatable {
    public let language: String
    public let script: String?
    public let region: String?

    /// `ll[-Ssss][-CC|-NNN]`, case as BCP 47 writes it.
    public var tag: String { ([language] + [script, region].compactMap { $0 }).joined(separator: "-") }

    /// WebKit's preferred languages (navigator.languages, Accept-Language): the tag, then its
    /// language alone when it has more.
    public var preferredLanguages: [String] { tag == language ? [tag] : [tag, language] }

    /// The POSIX locale name for the web process's LANG (`fr_FR.UTF-8`).
    public var posixName: String {
        language + (region.map { "_" + $0 } ?? "") + ".UTF-8"
    }

    /// The tag read from `text` (`_` taken for `-`), or a message saying what a tag looks like.
    public static func parse(_ text: String) -> Result<LocaleTag, ControlError> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        func refuse() -> Result<LocaleTag, ControlError> {
            .failure(ControlError("\"\(text)\" is not a locale tag: give a language and region as BCP 47 writes them, e.g. fr-FR, en-GB, pt-BR, zh-Hant-TW"))
        }
        let ascii = parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) } }
        guard ascii, (1...3).contains(parts.count) else { return refuse() }
        let language = parts[0].lowercased()
        guard (2...3).contains(language.count), language.allSatisfy(\.isLetter) else { return refuse() }
        var script: String?, region: String?
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter), script == nil, region == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if part.count == 2, part.allSatisfy(\.isLetter), region == nil {
                region = part.uppercased()
            } else if part.count == 3, part.allSatisfy(\.isNumber), region == nil {
                region = part
            } else {
                return refuse()
            }
        }
        return .success(LocaleTag(language: language, script: script, region: region))
    }
}

/// A time zone by its IANA name, as /usr/share/zoneinfo holds them.
public enum TimeZoneRule {
    public static let zoneinfo = "/usr/share/zoneinfo"

    /// Why `name` cannot be a zone's name, or nil when it has the shape of one (`Area/City`,
    /// `UTC`): no empty, dot-dot or absolute parts, letters, digits, `_`, `-`, `+` only.
    public static func shapeProblem(_ name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = parts.allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-+".unicodeScalars.contains($0))
            }
        }
        guard allowed, (1...3).contains(parts.count), name.first?.isLetter == true else {
            return "\"\(name)\" is not a time zone name: give one as Area/City, e.g. Europe/Paris, America/New_York or UTC (the names in \(zoneinfo))"
        }
        return nil
    }

    /// Why `name` is refused, given whether `zoneinfo/name` is a zone file there; nil when it is one.
    public static func problem(_ name: String, isZoneFile: Bool) -> String? {
        if let shape = shapeProblem(name) { return shape }
        guard isZoneFile else {
            return "no time zone \"\(name)\" in \(zoneinfo): give one that exists there, e.g. Europe/Paris or America/New_York (install the tzdata package if the directory is empty)"
        }
        return nil
    }
}
