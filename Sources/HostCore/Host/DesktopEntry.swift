/// A desktop entry (the freedesktop.org Desktop Entry Specification) as the text of its file:
/// what makes HostShell, or a Capacitor app it runs, the desktop's handler of a link scheme.
///
/// Values are escaped as the spec's `string` type wants (`\\`, `\n`, `\t`, `\r`, and `\s` for
/// a leading space). `Exec` is an argument vector: an argument with a reserved character is
/// double-quoted with `"`, `` ` ``, `$` and `\` backslash-escaped inside, a literal `%` is
/// `%%`, and the field code (`%u`) comes last, unquoted; the general escape is applied on
/// top, so a literal backslash in a quoted argument is four in the file.
public struct DesktopEntry: Sendable, Equatable {
    public var name: String
    public var comment: String?
    /// The program and its arguments, each taken literally.
    public var exec: [String]
    /// Appended to `exec` unquoted: `%u` (one URL), `%U`, `%f` or `%F`.
    public var fieldCode: String?
    public var icon: String?
    public var noDisplay: Bool
    /// `x-scheme-handler/SCHEME` for each link scheme handled.
    public var mimeTypes: [String]
    public var categories: [String]
    /// Keys of HostShell's own (`X-…`), after the standard ones.
    public var extensions: [String]

    public init(name: String, comment: String? = nil, exec: [String], fieldCode: String? = nil, icon: String? = nil,
                noDisplay: Bool = false, mimeTypes: [String] = [], categories: [String] = [], extensions: [String] = []) {
        self.name = name; self.comment = comment; self.exec = exec; self.fieldCode = fieldCode; self.icon = icon
        self.noDisplay = noDisplay; self.mimeTypes = mimeTypes; self.categories = categories; self.extensions = extensions
    }

    /// HostShell's own handler of `tilecast-ios:` links (installed as `hostshell-links.desktop`
    /// by scripts/install, with `hostshell` made the installed binary's path).
    public static let studioLinks = DesktopEntry(name: "HostShell (links)", comment: "Open tilecast-ios: links in HostShell",
                                                 exec: ["hostshell", "open-url"], fieldCode: "%u", icon: "hostshell", noDisplay: true,
                                                 mimeTypes: [schemeHandler("tilecast-ios")], categories: ["Network", "Development"])

    public static func schemeHandler(_ scheme: String) -> String { "x-scheme-handler/" + scheme }

    /// The file's text.
    public var text: String {
        var lines = ["[Desktop Entry]", "Type=Application", "Name=" + Self.escaped(name)]
        if let comment { lines.append("Comment=" + Self.escaped(comment)) }
        lines.append("Exec=" + Self.escaped((exec.map(Self.quoted) + (fieldCode.map { [$0] } ?? [])).joined(separator: " ")))
        if let icon { lines.append("Icon=" + Self.escaped(icon)) }
        lines.append("Terminal=false")
        if noDisplay { lines.append("NoDisplay=true") }
        if !mimeTypes.isEmpty { lines.append("MimeType=" + mimeTypes.map { Self.escaped($0) + ";" }.joined()) }
        if !categories.isEmpty { lines.append("Categories=" + categories.map { Self.escaped($0) + ";" }.joined()) }
        lines += extensions
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value escaped as the spec's `string` type (also what lists are made of).
    public static func escaped(_ value: String) -> String {
        var out = ""
        for (offset, character) in value.enumerated() {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case " " where offset == 0: out += "\\s"
            default: out.append(character)
            }
        }
        return out
    }

    /// The characters that make an `Exec` argument need quotes.
    static let reserved: Set<Character> = [" ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"]

    /// One `Exec` argument, before the general escape: `%` doubled, quoted when it must be.
    public static func quoted(_ argument: String) -> String {
        let percent = argument.replacing("%", with: "%%")
        guard percent.isEmpty || percent.contains(where: { reserved.contains($0) }) else { return percent }
        var out = "\""
        for character in percent {
            if character == "\"" || character == "`" || character == "$" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    /// An `Exec` value as the file holds it, back to its arguments (field codes kept as they
    /// are, `%%` as `%`); nil when its quoting is broken. What a launcher does before it runs it.
    public static func execArguments(_ value: String) -> [String]? {
        // The general escape first, then the quoting.
        var unescaped = ""
        var iterator = value.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else { unescaped.append(character); continue }
            switch iterator.next() {
            case "\\": unescaped += "\\"
            case "n": unescaped += "\n"
            case "t": unescaped += "\t"
            case "r": unescaped += "\r"
            case "s": unescaped += " "
            case let other?: unescaped += "\\" + String(other)
            case nil: return nil
            }
        }
        var arguments: [String] = []
        var current: String?
        var quoted = false
        var characters = unescaped.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" { quoted = false; continue }
                if character == "\\" {
                    guard let next = characters.next() else { return nil }
                    current!.append(next)
                } else {
                    current!.append(character)
                }
            } else if character == " " {
                if let made = current { arguments.append(made); current = nil }
            } else if character == "\"" {
                quoted = true
                current = current ?? ""
            } else {
                current = (current ?? "") + String(character)
            }
        }
        guard !quoted else { return nil }
        if let made = current { arguments.append(made) }
        return arguments.map { $0.hasPrefix("%") && $0.count == 2 && $0 != "%%" ? $0 : $0.replacing("%%", with: "%") }
    }
}
