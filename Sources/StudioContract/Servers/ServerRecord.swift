import HostCore

/// One saved server: where it is, which installation it proved to be, and what to call it.
public struct ServerRecord: Sendable, Equatable {
    /// A short, stable handle for the command line and profile directories (`^[a-z0-9][a-z0-9-]*$`).
    public var id: String
    /// What the person calls it: 1–200 scalars (`nameLength`).
    public var name: String
    public var address: ServerAddress
    public var identity: ServerIdentity

    /// How long a server's name may be, in Unicode scalars.
    public static let nameLength = 1...200

    public init(id: String, name: String, address: ServerAddress, identity: ServerIdentity) {
        self.id = id; self.name = name; self.address = address; self.identity = identity
    }

    /// A handle from a name: ASCII letters (lowercased) and digits joined by dashes, made unique.
    public static func makeId(from name: String, taken: Set<String>) -> String {
        var slug = ""
        for scalar in name.asciiLowercased().unicodeScalars {
            if (scalar.isASCIILetter || scalar.isASCIIDigit) { slug.unicodeScalars.append(scalar) }
            else if !slug.isEmpty && slug.utf8.last != UInt8(ascii: "-") { slug += "-" }
            if slug.utf8.count >= 32 { break }
        }
        while slug.utf8.last == UInt8(ascii: "-") { slug.removeLast() }
        if slug.isEmpty { slug = "server" }
        var candidate = slug
        var n = 2
        while taken.contains(candidate) { candidate = "\(slug)-\(n)"; n += 1 }
        return candidate
    }

    /// What a fresh identity check means for this saved server.
    public func verify(_ fresh: ServerIdentity) -> IdentityVerdict {
        fresh.installationId.isExactly(identity.installationId) ? .matches : .installationChanged(saved: identity.installationId, now: fresh.installationId)
    }
}

/// The outcome of checking a saved server's identity before loading it.
public enum IdentityVerdict: Sendable, Equatable {
    case matches
    /// Another installation answers at this address: loading is blocked.
    case installationChanged(saved: String, now: String)

    public var explanation: String? {
        guard case .installationChanged(let saved, let now) = self else { return nil }
        return "A different Tilecast installation now answers at this address (it was \(saved), it is now \(now)). "
            + "HostShell will not show it under the saved server, so your sign-in cannot leak to it. "
            + "If the server was reinstalled on purpose, remove it and add it again."
    }
}

/// The server store's file format: `{ "schemaVersion": 1, "servers": [ … ] }`.
public enum ServerStoreFormat {
    public static let schemaVersion = 1
    /// The saved list is read only up to this size: 20,000 servers with ordinary names take
    /// about 4 MiB, so a larger file is not a list HostShell wrote.
    public static let maxFileBytes = 16 << 20

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case notJSON
        case newerSchema(Int)
        case invalid(String)

        public var description: String {
            switch self {
            case .notJSON: return "it is not JSON"
            case .newerSchema(let v): return "it was written by a newer HostShell (schema \(v)); this one reads schema \(ServerStoreFormat.schemaVersion)"
            case .invalid(let why): return why
            }
        }
    }

    public static func decode(_ bytes: [UInt8]) -> Result<[ServerRecord], Problem> {
        guard let document = try? JSONParser.parse(bytes: bytes, maxDepth: 16), case .object(let root) = document else {
            return .failure(.notJSON)
        }
        guard let version = root["schemaVersion"]?.integerValue else { return .failure(.invalid("schemaVersion is missing")) }
        guard version <= schemaVersion else { return .failure(.newerSchema(version)) }
        guard version == schemaVersion else { return .failure(.invalid("schemaVersion \(version) is not known")) }
        guard case .array(let list)? = root["servers"] else { return .failure(.invalid("servers is missing")) }
        var records: [ServerRecord] = []
        records.reserveCapacity(list.count)
        var ids = Set<String>()  // a set, not a search of the records: linear in the list's length
        for (index, item) in list.enumerated() {
            func bad(_ why: String) -> Problem { .invalid("server \(index + 1): \(why)") }
            guard case .object(let o) = item else { return .failure(bad("not an object")) }
            guard case .string(let id)? = o["id"], Patterns.isToken(id, maxLength: 64) || Patterns.isIdentifier(id, maxLength: 64) else {
                return .failure(bad("id is missing or invalid"))
            }
            guard case .string(let name)? = o["name"], Patterns.hasLength(name, in: ServerRecord.nameLength) else { return .failure(bad("name is missing")) }
            guard case .string(let raw)? = o["address"], case .success(let address) = ServerAddress.parse(raw) else {
                return .failure(bad("address is not a valid server address"))
            }
            guard case .string(let installation)? = o["installationId"], Patterns.isUUID(installation) else {
                return .failure(bad("installationId is not a UUID"))
            }
            let organization = o["organizationName"]?.stringValue ?? name
            guard ids.insert(id).inserted else { return .failure(bad("id \(id) is used twice")) }
            records.append(ServerRecord(id: id, name: name, address: address,
                                        identity: ServerIdentity(installationId: installation, organizationName: organization)))
        }
        return .success(records)
    }

    public static func encode(_ records: [ServerRecord]) -> [UInt8] {
        let servers: [JSONValue] = records.map { r in
            ["id": .string(r.id), "name": .string(r.name), "address": .string(r.address.normalized),
             "installationId": .string(r.identity.installationId), "organizationName": .string(r.identity.organizationName)]
        }
        return JSONWriter.bytes(["schemaVersion": .number(Double(schemaVersion)), "servers": .array(servers)]) + [0x0A]
    }
}
