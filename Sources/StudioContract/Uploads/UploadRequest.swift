import HostCore

/// One request of the resumable upload protocol, as the machine asks for it. The host sends it
/// as `method` `path` with `headers` and `body`, with the app's bearer credential, no cookie and
/// no redirects, and reports the answer with `.answered(request, response)`.
public enum UploadRequest: Sendable, Equatable {
    /// `POST /api/v1/uploads {filename, mimeType, sizeBytes}` → 201.
    case create(UploadFile)
    /// `PATCH /api/v1/uploads/{id}` with `Upload-Offset`: the chunk `offset..<offset+length`,
    /// which the host has in `buffer` (read there by an earlier `.readChunk`) → 204.
    case patch(uploadId: String, offset: Int, length: Int, buffer: Int)
    /// `HEAD /api/v1/uploads/{id}` → 200 with `Upload-Offset`: where the server is.
    case head(uploadId: String)
    /// `POST /api/v1/uploads/{id}/complete` → 200 `data.id`, the asset.
    case complete(uploadId: String)
    /// `GET /api/v1/assets/{id}` → 200 `data.processingStatus`.
    case poll(assetId: String)
    /// `DELETE /api/v1/uploads/{id}`: the upload is abandoned. Its answer is not awaited.
    case delete(uploadId: String)

    /// What goes in the request's body.
    public enum Body: Sendable, Equatable {
        case none
        /// JSON, `application/json`.
        case json([UInt8])
        /// `length` bytes of the host's chunk buffer `buffer`, `application/offset+octet-stream`.
        case chunk(buffer: Int, length: Int)
    }

    /// The step's name, as logs and state dumps say it.
    public var step: String {
        switch self {
        case .create: return "create"
        case .patch: return "patch"
        case .head: return "head"
        case .complete: return "complete"
        case .poll: return "poll"
        case .delete: return "delete"
        }
    }

    public var method: String {
        switch self {
        case .create, .complete: return "POST"
        case .patch: return "PATCH"
        case .head: return "HEAD"
        case .poll: return "GET"
        case .delete: return "DELETE"
        }
    }

    /// The path on the server's origin. Ids come from `UploadProtocol`'s checks (each is one
    /// path segment, `UploadProtocol.isPathSegment`), so they go in as they are.
    public var path: String {
        switch self {
        case .create: return "/api/v1/uploads"
        case .patch(let id, _, _, _), .head(let id), .delete(let id): return "/api/v1/uploads/\(id)"
        case .complete(let id): return "/api/v1/uploads/\(id)/complete"
        case .poll(let id): return "/api/v1/assets/\(id)"
        }
    }

    public var headers: [(name: String, value: String)] {
        guard case .patch(_, let offset, _, _) = self else { return [] }
        return [("Upload-Offset", String(offset))]
    }

    public var body: Body {
        switch self {
        case .create(let file):
            return .json(JSONWriter.bytes(["filename": .string(file.name), "mimeType": .string(file.mimeType),
                                           "sizeBytes": .number(Double(file.size))]))
        case .complete: return .json(JSONWriter.bytes([:]))
        case .patch(_, _, let length, let buffer): return .chunk(buffer: buffer, length: length)
        case .head, .poll, .delete: return .none
        }
    }

    /// The body's media type, nil without a body.
    public var contentType: String? {
        switch body {
        case .none: return nil
        case .json: return "application/json"
        case .chunk: return "application/offset+octet-stream"
        }
    }
}

/// The server's answer to an `UploadRequest`: its HTTP status (0 when no answer came: the
/// network failed or the request timed out), the `UploadProtocol.responseHeaders` that were
/// there (lower-cased names), and the body.
public struct UploadResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }
}
