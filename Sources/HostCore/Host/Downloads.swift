/// Downloads, past the phone app's limit: a file a person asked for (a `download` link, a blob,
/// an attachment — the navigation guard decides that) goes to their download folder under a
/// name that is safe and new there, with progress, and a notice with Open and Show in Folder
/// when it is done. The rules; `DownloadCenter` (HostShell) carries them out.
public enum DownloadRules {
    /// The folder files go to: `$XDG_DOWNLOAD_DIR` when set (absolute), else the desktop's
    /// (GLib's user directory), else `~/Downloads`.
    public static func folder(environment: String?, desktop: String?, home: String) -> String {
        if let environment, environment.hasPrefix("/") { return trimmedSlash(environment) }
        if let desktop, desktop.hasPrefix("/"), trimmedSlash(desktop) != trimmedSlash(home) { return trimmedSlash(desktop) }
        return trimmedSlash(home) + "/Downloads"
    }

    private static func trimmedSlash(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Longest file name kept, in UTF-8 bytes (most file systems allow 255).
    public static let maxNameBytes = 200

    /// A file name from what the server or page suggested: its last path component, without
    /// control characters, bidirectional overrides, slashes or a leading dot; "download" when
    /// nothing is left; shortened keeping its extension; then made new among `existing`
    /// ("report (2).txt").
    public static func fileName(suggested: String, existing: Set<String>) -> String {
        var name = String(suggested.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
        name = String(String.UnicodeScalarView(name.unicodeScalars.filter { scalar in
            !(scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
              || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
              || scalar == "\\" || scalar.value == 0x200E || scalar.value == 0x200F)
        }))
        while name.hasPrefix(".") || name.hasPrefix(" ") { name.removeFirst() }
        while name.hasSuffix(" ") || name.hasSuffix(".") { name.removeLast() }
        if name.isEmpty { name = "download" }
        let (stem, ext) = split(name)
        var shortStem = stem
        while (shortStem + ext).utf8.count > maxNameBytes && !shortStem.isEmpty { shortStem.removeLast() }
        if shortStem.isEmpty { shortStem = "download" }
        var candidate = shortStem + ext
        var n = 2
        while existing.contains(candidate) {
            candidate = "\(shortStem) (\(n))\(ext)"
            n += 1
        }
        return candidate
    }

    /// "report.tar.gz" → ("report.tar", ".gz"); no extension when the dot is first or last.
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex,
              name[dot...].count <= 16 else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// Whether a `Content-Disposition` header asks for a download (`attachment`, any case,
    /// with or without parameters).
    public static func isAttachment(_ header: String?) -> Bool {
        guard let header else { return false }
        let kind = header.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingWhitespace() } ?? ""
        return kind.asciiLowercased().isExactly("attachment")
    }
}

/// The downloads of a run, newest last, for the downloads list and `ctl state`.
public struct DownloadList: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case running
        case finished
        case failed(String)
        case cancelled

        public var name: String {
            switch self {
            case .running: return "running"
            case .finished: return "finished"
            case .failed: return "failed"
            case .cancelled: return "cancelled"
            }
        }
    }

    public struct Item: Sendable, Equatable {
        public var id: Int
        public var url: String
        public var file: String
        public var received: Int
        /// Bytes expected, when the server said (-1: not known).
        public var total: Int
        public var state: State
    }

    /// How many finished downloads the list keeps (running ones are always kept).
    public static let kept = 20
    public private(set) var items: [Item] = []
    private var nextId = 1

    public init() {}

    /// A download begins: its id.
    public mutating func started(url: String, file: String) -> Int {
        let id = nextId
        nextId += 1
        items.append(Item(id: id, url: BridgeLog.shortened(url, keeping: ExternalRecord.urlScalars), file: file, received: 0, total: -1, state: .running))
        while items.count > Self.kept, let index = items.firstIndex(where: { $0.state != .running }) { items.remove(at: index) }
        return id
    }

    public mutating func progress(_ id: Int, received: Int, total: Int) {
        guard let index = items.firstIndex(where: { $0.id == id }), items[index].state == .running else { return }
        items[index].received = max(0, received)
        items[index].total = total > 0 ? total : -1
    }

    /// Its file was chosen (or changed).
    public mutating func placed(_ id: Int, file: String) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items[index].file = file
    }

    /// It ended; the first end counts (a cancel reported as a failure afterwards stays a cancel).
    public mutating func ended(_ id: Int, _ state: State) {
        guard let index = items.firstIndex(where: { $0.id == id }), items[index].state == .running, state != .running else { return }
        items[index].state = state
        if state == .finished && items[index].total < 0 { items[index].total = items[index].received }
    }

    public func item(_ id: Int) -> Item? { items.first { $0.id == id } }

    /// What the person is told when it ends.
    public static func notice(_ item: Item) -> String {
        let name = item.file.split(separator: "/").last.map(String.init) ?? item.file
        switch item.state {
        case .finished: return "\(name) downloaded"
        case .failed(let why): return "\(name) could not be downloaded: \(why)"
        case .cancelled: return "The download of \(name) was cancelled"
        case .running: return "Downloading \(name)…"
        }
    }

    public var json: JSONValue {
        .array(items.map { item in
            var object: JSONObject = ["id": .number(Double(item.id)), "url": .string(item.url), "file": .string(item.file),
                                      "received": .number(Double(item.received)), "state": .string(item.state.name)]
            object["total"] = item.total >= 0 ? .number(Double(item.total)) : .null
            object["progress"] = item.total > 0 ? .number(min(1, Double(item.received) / Double(item.total))) : .null
            if case .failed(let why) = item.state { object["error"] = .string(why) }
            return .object(object)
        })
    }
}
