import CGtk
import Glibc
import HostCore
import ShellKit
import StudioContract

/// `hostshell server add|list|remove`: the saved servers.
package enum ServerCommand {
    package static let usage = """
        usage: hostshell server add URL [--name NAME] [--allow-http] [--trust-root-cert FILE.pem]
               hostshell server list [--json]
               hostshell server remove ID
        """

    package static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let verb = arguments.first else { throw UsageError(usage) }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "add": return try add(rest)
        case "list": return try list(rest)
        case "remove": return try remove(rest)
        default: throw UsageError("unknown server command \"\(verb)\"\n\(usage)")
        }
    }

    static func add(_ arguments: [String]) throws(UsageError) -> Int32 {
        var input: String?
        var name: String?
        var allowHTTP = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--name":
                guard let value = rest.popFirst(), Patterns.hasLength(value, in: ServerRecord.nameLength) else {
                    throw UsageError("--name takes a name of \(ServerRecord.nameLength.lowerBound)–\(ServerRecord.nameLength.upperBound) characters")
                }
                name = value
            case "--allow-http": allowHTTP = true
            case "--trust-root-cert":
                // A server on a private CA: its identity is checked against that root (for this
                // check only; open and capacitor take --trust-root-cert each run).
                guard let file = rest.popFirst(), !file.hasPrefix("-") else { throw UsageError("--trust-root-cert takes a PEM file") }
                if let problem = MainActor.assumeIsolated({ TrustedRoots().add(file: file) }) { throw UsageError("--trust-root-cert: \(problem)") }
            default:
                guard !argument.hasPrefix("-"), input == nil else { throw UsageError(usage) }
                input = argument
            }
        }
        guard let input else { throw UsageError(usage) }
        let address: ServerAddress
        switch ServerAddress.parse(input) {
        case .success(let parsed): address = parsed
        case .failure(let problem): throw UsageError(problem.description)
        }
        if address.isPlainHTTP && !allowHTTP {
            let warning = "\(address) uses plain http: everything, including your sign-in, crosses the network unencrypted. It is allowed only because the address is local."
            guard isatty(STDIN_FILENO) != 0 else {
                throw UsageError("\(warning) Add --allow-http to save it anyway.")
            }
            printOut("\(warning)\nSave it anyway? [y/N] ", terminator: "")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                printError("Not saved.")
                return ExitCode.failure
            }
        }
        let store = ServerStoreFile.standard
        // A quick look before the network: an address saved already is not checked again, and
        // adding it again succeeds (a CI script that re-runs its set-up must not fail on it).
        if let conflict = ServerAddConflict.byAddress(address, in: try store.load()) {
            printOut(conflict.message(adding: address) + " Nothing to do.")
            return ExitCode.success
        }
        printOut("Checking \(address) …")
        let identity: ServerIdentity
        switch MainActor.assumeIsolated({ IdentityClient.fetchAndWait(address, plainTwin: ServerAddress.plainTwin(of: input)) }) {
        case .success(let fetched): identity = fetched
        case .failure(let error):
            printError("hostshell: not saved: \(error.message)")
            return ExitCode.failure
        }
        // The change itself, under the store's lock: against the list as it is now, with every
        // server another `server add` saved meanwhile.
        let displayName = name ?? identity.organizationName
        let outcome = try store.update { (records: inout [ServerRecord]) -> AddOutcome in
            if let conflict = ServerAddConflict.check(address, identity: identity, in: records) { return .conflict(conflict) }
            let record = ServerRecord(id: ServerRecord.makeId(from: displayName, taken: Set(records.map(\.id))),
                                      name: displayName, address: address, identity: identity)
            records.append(record)
            return .saved(record)
        }
        switch outcome {
        case .conflict(let conflict): return refused(address, conflict)
        case .saved(let record):
            printOut("Saved \(TerminalText.escaped(record.name)) as \(record.id): \(address) (installation \(identity.installationId)).")
            if let problem = AppNotifier.serversChanged() {
                printError("hostshell: note: the running app has not picked up the new server (\(problem)); restart it to switch to \(record.id)")
            }
            return ExitCode.success
        }
    }

    private enum AddOutcome { case saved(ServerRecord), conflict(ServerAddConflict) }

    private static func refused(_ address: ServerAddress, _ conflict: ServerAddConflict) -> Int32 {
        printError("hostshell: \(conflict.message(adding: address))")
        return ExitCode.failure
    }

    static func list(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.isEmpty || arguments == ["--json"] else { throw UsageError(usage) }
        let records = try ServerStoreFile.standard.load()
        if arguments == ["--json"] {
            printJSON(JSONWriter.string(.array(records.map { r in
                ["id": .string(r.id), "name": .string(r.name), "address": .string(r.address.normalized),
                 "installationId": .string(r.identity.installationId), "organizationName": .string(r.identity.organizationName)]
            })))
            return ExitCode.success
        }
        guard !records.isEmpty else {
            printOut("No servers saved. Add one with: hostshell server add https://studio.example.org")
            return ExitCode.success
        }
        // Each cell on its line: a name's control characters, line breaks included, escaped.
        let rows = [["ID", "NAME", "ADDRESS", "INSTALLATION"]] + records.map {
            [$0.id, TerminalText.escaped($0.name), $0.address.normalized, $0.identity.installationId]
        }
        var widths = [0, 0, 0, 0]
        for row in rows { for column in 0..<3 { widths[column] = max(widths[column], row[column].count) } }
        var text = ""
        for row in rows {
            for column in 0..<3 { text += row[column] + String(repeating: " ", count: widths[column] - row[column].count + 2) }
            text += row[3] + "\n"
        }
        printOut(text, terminator: "")
        return ExitCode.success
    }

    static func remove(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let id = arguments.first, !id.hasPrefix("-") else { throw UsageError(usage) }
        let removed = try ServerStoreFile.standard.update { (records: inout [ServerRecord]) -> ServerRecord? in
            guard let index = records.firstIndex(where: { $0.id == id }) else { return nil }
            return records.remove(at: index)
        }
        guard let record = removed else {
            printError("hostshell: no saved server \"\(TerminalText.escaped(id))\"; hostshell server list shows them.")
            return ExitCode.failure
        }
        // The running app closes it (if it shows it) and deletes its website data through its
        // own session first, so nothing it still holds writes the data again afterwards.
        if let problem = AppNotifier.serversChanged() {
            printError("hostshell: warning: the running app did not close \(record.id) (\(problem)); quit it, or it may write that server's website data again")
        }
        // Its credential, sign-in and website data go with it.
        MainActor.assumeIsolated { CredentialStore.delete(record.id) }
        let directories = ServerStoreFile.profileDirectories(for: record.id)
        removeTree(directories.data)
        removeTree(directories.cache)
        printOut("Removed \(TerminalText.escaped(record.name)) (\(record.id)), its credential and its website data.")
        return ExitCode.success
    }
}
