import HostCore
/// Why a server cannot be added beside the ones saved: its address is saved already, or the
/// installation behind it is — the same Studio reached under another address (a host name and
/// its IP, http and https, two names of one machine). Saving it twice would split one
/// installation's sign-in, website data and deep links over two entries that disagree.
public enum ServerAddConflict: Sendable, Equatable {
    case sameAddress(ServerRecord)
    case sameInstallation(ServerRecord)

    /// The conflict `records` have with adding `address`, before its identity is known.
    public static func byAddress(_ address: ServerAddress, in records: [ServerRecord]) -> ServerAddConflict? {
        records.first { $0.address.origin == address.origin }.map(ServerAddConflict.sameAddress)
    }

    /// The conflict `records` have with adding `address`, whose identity check answered `identity`.
    public static func check(_ address: ServerAddress, identity: ServerIdentity, in records: [ServerRecord]) -> ServerAddConflict? {
        if let conflict = byAddress(address, in: records) { return conflict }
        return records.first { $0.identity.installationId.isExactly(identity.installationId) }.map(ServerAddConflict.sameInstallation)
    }

    /// What to tell the person, and what to do.
    public func message(adding address: ServerAddress) -> String {
        switch self {
        case .sameAddress(let existing):
            return "\(address) is already saved as \(existing.id) (\(TerminalText.escaped(existing.name)))."
        case .sameInstallation(let existing):
            return "\(address) is the same installation (\(existing.identity.installationId)) as \(existing.id) "
                + "(\(TerminalText.escaped(existing.name))), saved at \(existing.address); not saved twice. "
                + "Use \(existing.id), or remove it first (hostshell server remove \(existing.id)) to save this address instead."
        }
    }
}
