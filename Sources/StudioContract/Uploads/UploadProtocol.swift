import HostCore

/// The resumable upload protocol media intake speaks with the app's credential (CONTRACT.md §4
/// "Media intake"): its limits, retry schedule, the answers it reads, and how a batch's outcome
/// is reported. Pure: the host does the HTTP and the file reading.
public enum UploadProtocol {
    public static let chunkSize = 2 << 20
    /// Attempts per step after the first, on network errors, 408, 429 and 5xx.
    public static let maxRetries = 5
    /// `complete` answered 409 (incomplete): resend it at most this many times.
    public static let maxCompleteResends = 2
    public static let pollInterval = 1.5
    public static let maxPolls = 120
    /// PATCHes in a row that move the server's offset nowhere (each 409, or a 204 that did not
    /// advance): beyond this the server is going in circles and the file fails. Not in the
    /// contract; it only stops a confused server from keeping the upload busy forever.
    public static let maxStalledChunks = 5
    /// Seconds one request may take before it counts as a network error (and is retried).
    public static let requestTimeout = 60
    /// Files one intake takes when Studio allows several (the contract's bound on `uploadedCount`).
    public static let maxFilesPerIntake = 1000
    /// The response headers the protocol reads (HEAD and PATCH answers).
    public static let responseHeaders = ["Upload-Offset", "Upload-Length", "Upload-Status"]

    /// Delay before retry `attempt` (1-based): min(400 ms × 2^(attempt−1), 5 s).
    public static func retryDelay(attempt: Int) -> Double {
        min(0.4 * Double(1 << min(max(attempt - 1, 0), 16)), 5.0)
    }

    /// Whether a failed step is tried again: no answer at all (status 0), 408, 429, any 5xx but
    /// 507 — the contract names 507 (no room) as create's answer beside 413, and trying again
    /// would only tell the person the same 11 s later.
    public static func isRetryable(status: Int) -> Bool {
        status == 0 || status == 408 || status == 429 || ((500...599).contains(status) && status != 507)
    }

    /// What `POST /api/v1/uploads` answered (201).
    public struct Session: Sendable, Equatable {
        public var id: String
        public var offset: Int
        public var uploadEndpoint: String?
        public var maximumSizeBytes: Int?
    }

    public static func session(from body: [UInt8]) -> Session? {
        guard let data = (try? JSONParser.parse(bytes: body, maxDepth: 8))?.objectValue?["data"]?.objectValue,
              let id = data["id"]?.stringValue, isPathSegment(id) else { return nil }
        // A missing offset is a fresh upload; one that is there must be a whole number ≥ 0.
        let raw = data["offset"] ?? .null
        guard let offset = raw == .null ? 0 : raw.integerValue, offset >= 0 else { return nil }
        return Session(id: id, offset: offset, uploadEndpoint: data["uploadEndpoint"]?.stringValue,
                       maximumSizeBytes: data["maximumSizeBytes"]?.integerValue)
    }

    /// The asset id from `POST …/{id}/complete` (200).
    public static func assetId(from body: [UInt8]) -> String? {
        guard let id = (try? JSONParser.parse(bytes: body, maxDepth: 8))?.objectValue?["data"]?.objectValue?["id"]?.stringValue,
              isPathSegment(id) else { return nil }
        return id
    }

    /// The longest upload or asset id the host takes, in bytes (every byte of one is a scalar).
    public static let maxIdLength = 200

    /// Whether a server's upload or asset id can go into a request path, as it is, as one
    /// segment (`UploadRequest.path`): 1–200 of RFC 3986's path characters without `%`
    /// (ASCII letters, digits and `-._~!$&'()*+,;=:@`), and not `.` or `..`. So no `/`, `?`,
    /// `#`, white space, control character or backslash; no `%`, which the server would read
    /// as an escape (`%2F` a slash, `%2e%2e` a dot segment); and nothing outside ASCII, which
    /// could hide an ASCII delimiter from a check on `Character`s (CONTRACT.md §5:
    /// `x/\u{301}..` is `x`, `/` and `..` followed by a mark). Checked on the UTF-8 bytes.
    public static func isPathSegment(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...maxIdLength).contains(bytes.count), !bytes.elementsEqual(".".utf8), !bytes.elementsEqual("..".utf8) else { return false }
        return bytes.allSatisfy(isSegmentByte)
    }

    @inline(__always) static func isSegmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "-._~!$&'()*+,;=:@".utf8.contains(byte)
        }
    }

    public enum Processing: Sendable, Equatable { case pending, ready, failed }

    /// `GET /api/v1/assets/{id}`: `data.processingStatus`.
    public static func processing(from body: [UInt8]) -> Processing {
        switch (try? JSONParser.parse(bytes: body, maxDepth: 8))?.objectValue?["data"]?.objectValue?["processingStatus"]?.stringValue {
        case "ready": return .ready
        case "failed": return .failed
        default: return .pending
        }
    }

    /// An `Upload-Offset` header's value: a whole number of bytes within `0...size`, else nil.
    public static func offset(header value: String?, size: Int) -> Int? {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ (48...57).contains($0) }),
              let offset = Int(value), offset <= size else { return nil }
        return offset
    }

    /// Why a file was not uploaded, worded for the person.
    public static func problem(status: Int) -> String {
        switch status {
        case 413: return "the file is larger than the server accepts"
        case 415: return "the server does not accept this kind of file"
        case 507: return "the server has no room for it"
        case 401, 403: return "the server refused the app's sign-in"
        case 0: return "the server could not be reached"
        default: return "the server answered HTTP \(status)"
        }
    }

    /// The batch's outcome: all done → completed; some → partial; none → failed (or cancelled
    /// when the person cancelled before anything finished).
    public static func outcome(uploaded: Int, failed: Int, cancelled: Bool) -> MediaIntakeOutcome {
        if cancelled { return uploaded > 0 ? .partial : .cancelled }
        if failed == 0 { return uploaded > 0 ? .completed : .cancelled }
        return uploaded > 0 ? .partial : .failed
    }

    /// The MIME type the create step declares, from the file name; nil for kinds not asked for.
    public static func mimeType(forFileName name: String, kinds: [MediaKind]) -> String? {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let images = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
                      "webp": "image/webp", "heic": "image/heic", "avif": "image/avif"]
        let videos = ["mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime", "webm": "video/webm"]
        if kinds.contains(.image), let type = images[ext] { return type }
        if kinds.contains(.video), let type = videos[ext] { return type }
        return nil
    }
}
