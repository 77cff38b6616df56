import BridgeRuntime
import CGtk
import Glibc

/// `hostshell server add|list|remove`: the saved servers.
enum ServerCommand {
    static let usage = """
        usage: hostshell server add URL [--name NAME] [--allow-http]
               hostshell server list [--json]
               hostshell server remove ID
        """

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
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
            print("\(warning)\nSave it anyway? [y/N] ", terminator: "")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                printError("Not saved.")
                return ExitCode.failure
            }
        }
        let store = ServerStoreFile.standard
        var records = try store.load()
        if let existing = records.first(where: { $0.address.origin == address.origin }) {
            printError("hostshell: \(address) is already saved as \(existing.id) (\(existing.name)).")
            return ExitCode.failure
        }
        print("Checking \(address) …")
        let identity: ServerIdentity
        switch MainActor.assumeIsolated({ IdentityClient.fetchAndWait(address) }) {
        case .success(let fetched): identity = fetched
        case .failure(let error):
            printError("hostshell: not saved: \(error.message)")
            return ExitCode.failure
        }
        let displayName = name ?? identity.organizationName
        let record = ServerRecord(id: ServerRecord.makeId(from: displayName, taken: Set(records.map(\.id))),
                                  name: displayName, address: address, identity: identity)
        records.append(record)
        try store.save(records)
        print("Saved \(record.name) as \(record.id): \(address) (installation \(identity.installationId)).")
        return ExitCode.success
    }

    static func list(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.isEmpty || arguments == ["--json"] else { throw UsageError(usage) }
        let records = try ServerStoreFile.standard.load()
        if arguments == ["--json"] {
            print(JSONWriter.string(.array(records.map { r in
                ["id": .string(r.id), "name": .string(r.name), "address": .string(r.address.normalized),
                 "installationId": .string(r.identity.installationId), "organizationName": .string(r.identity.organizationName)]
            })))
            return ExitCode.success
        }
        guard !records.isEmpty else {
            print("No servers saved. Add one with: hostshell server add https://studio.example.org")
            return ExitCode.success
        }
        let rows = [["ID", "NAME", "ADDRESS", "INSTALLATION"]] + records.map {
            [$0.id, $0.name, $0.address.normalized, $0.identity.installationId]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            print(row.enumerated().map { index, cell in
                index == 3 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  "))
        }
        return ExitCode.success
    }

    static func remove(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard arguments.count == 1, let id = arguments.first, !id.hasPrefix("-") else { throw UsageError(usage) }
        let store = ServerStoreFile.standard
        var records = try store.load()
        guard let index = records.firstIndex(where: { $0.id == id }) else {
            printError("hostshell: no saved server \"\(id)\"; hostshell server list shows them.")
            return ExitCode.failure
        }
        let record = records.remove(at: index)
        try store.save(records)
        // Its credential, sign-in and website data go with it.
        MainActor.assumeIsolated { CredentialStore.delete(record.id) }
        let directories = ServerStoreFile.profileDirectories(for: record.id)
        removeTree(directories.data)
        removeTree(directories.cache)
        print("Removed \(record.name) (\(record.id)), its credential and its website data.")
        return ExitCode.success
    }
}
