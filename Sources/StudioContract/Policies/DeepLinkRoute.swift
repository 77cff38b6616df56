import HostCore
/// Where a deep link goes, decided before anything loads and before anyone is contacted: the
/// saved server whose installation the link names, or a refusal that says what is wrong with
/// the link. A link for an installation that is not saved opens nothing — not the only saved
/// server, not the one on screen.
public enum DeepLinkRoute: Sendable, Equatable {
    case open(DeepLink, ServerRecord)
    /// Worded for the person; nothing is loaded and no server is contacted.
    case refused(String)

    public static func decide(_ url: String, records: [ServerRecord]) -> DeepLinkRoute {
        let link: DeepLink
        switch DeepLink.parse(url) {
        case .failure(let problem): return .refused("That link cannot be opened: \(problem).")
        case .success(let parsed): link = parsed
        }
        guard let record = link.server(in: records) else {
            return .refused("That link is for a server that is not set up here (installation \(link.installationId)), so nothing was opened. "
                            + "Add the server with hostshell server add, then open the link again.")
        }
        return .open(link, record)
    }

    /// The server an app started for a link (`open --open-url LINK [SERVER]`) shows: the link's
    /// own. A refused link starts nothing, however many servers are saved; a named server must
    /// be the link's.
    public static func startingServer(for url: String, named id: String?, records: [ServerRecord]) -> Result<ServerRecord, RouteRefusal> {
        switch decide(url, records: records) {
        case .refused(let why):
            return .failure(RouteRefusal(why))
        case .open(_, let record):
            guard let id, !id.isExactly(record.id) else { return .success(record) }
            return .failure(RouteRefusal("That link is for \(TerminalText.escaped(record.name)) (\(record.id)), not \(TerminalText.escaped(id)): "
                                         + "open it without naming a server, or name \(record.id)."))
        }
    }

    /// What the person is told when the link opens. The path and the name are shown escaped:
    /// a bidirectional override or a control character in them is shown, never applied.
    public static func openingNotice(_ link: DeepLink, _ record: ServerRecord) -> String {
        "Opening \(TerminalText.escaped(link.path)) on \(TerminalText.escaped(record.name))."
    }
}

/// Why a deep link cannot start the app, worded for the person.
public struct RouteRefusal: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
