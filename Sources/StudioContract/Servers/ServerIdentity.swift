import HostCore

/// Why a server's identity could not be had, sorted the way the window words its screens.
public enum IdentityFailureKind: Sendable, Equatable {
    /// No answer: down, wrong address, no network, timed out.
    case unreachable
    /// The TLS handshake failed: certificate untrusted, expired or for another name.
    case insecure
    /// An answer that is not an identity: HTTP error, redirect, malformed or too large.
    case refused
}

/// What `GET /api/v1/system/identity` says about a server (§4 "Server address").
public struct ServerIdentity: Sendable, Equatable {
    /// The response may be at most this large.
    public static let maxBytes = 16 * 1024
    /// And must arrive within this many seconds.
    public static let timeoutSeconds = 10.0
    public static let path = "/api/v1/system/identity"
    /// `organizationName` is 1–200 scalars.
    public static let organizationNameLength = 1...200

    /// ASCII-lowercased UUID.
    public var installationId: String
    public var organizationName: String

    public init(installationId: String, organizationName: String) {
        self.installationId = installationId.asciiLowercased()
        self.organizationName = organizationName
    }

    /// Why a response is not a Tilecast identity.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge
        case notJSON
        case notTilecast(String)

        public var description: String {
            switch self {
            case .tooLarge: return "the identity response is larger than 16 KiB"
            case .notJSON: return "the identity response is not JSON"
            case .notTilecast(let why): return "this does not look like a Tilecast server (\(why))"
            }
        }
    }

    /// Reads `data{product:"tilecast", apiVersion:"v1", installationId: uuid, organizationName}`.
    public static func parse(_ body: [UInt8]) -> Result<ServerIdentity, Problem> {
        guard body.count <= maxBytes else { return .failure(.tooLarge) }
        guard let document = try? JSONParser.parse(bytes: body, maxDepth: 16) else { return .failure(.notJSON) }
        guard case .object(let data)? = document.objectValue?["data"] else { return .failure(.notTilecast("no data object")) }
        guard data["product"]?.stringValue?.isExactly("tilecast") == true else { return .failure(.notTilecast("product is not tilecast")) }
        guard data["apiVersion"]?.stringValue?.isExactly("v1") == true else { return .failure(.notTilecast("apiVersion is not v1")) }
        guard case .string(let id)? = data["installationId"], Patterns.isUUID(id) else {
            return .failure(.notTilecast("installationId is not a UUID"))
        }
        guard case .string(let name)? = data["organizationName"], Patterns.hasLength(name, in: organizationNameLength) else {
            return .failure(.notTilecast("organizationName is missing"))
        }
        return .success(ServerIdentity(installationId: id, organizationName: name))
    }
}
