import HostCore

/// The reference server's media library and resumable uploads, with the contract's status codes
/// and faults a test can inject: uploads are created with the app's bearer credential, filled
/// with PATCHes at the right offset (409 otherwise), completed into assets that finish
/// "processing" after a poll, or cancelled with DELETE. Bytes are not kept, only counted and
/// checksummed, so a 200 MiB upload costs the server nothing.
@MainActor
package final class ReferenceUploads {
    package struct Upload {
        var filename: String
        var mimeType: String
        var size: Int
        var offset = 0
        var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
        var state = "open"
    }

    package struct Asset {
        var id: String
        var filename: String
        var size: Int
        var checksum: UInt64
        var polls = 0
    }

    var maximumSizeBytes = 512 << 20
    /// Total bytes the library may hold; beyond it a new upload gets 507.
    var quotaBytes = 4 << 30
    /// Injected answers, taken in order per step ("create", "patch", "head", "complete", "asset");
    /// a 0 lets that request through normally.
    var faults: [String: [UInt32]] = [:]
    private(set) var uploads: [String: Upload] = [:]
    private(set) var assets: [Asset] = []
    private(set) var deleted: [String] = []
    /// Every upload request: its step, the status answered, and whether a Cookie came with it.
    private(set) var log: [JSONValue] = []
    private var counter = 0

    package struct Answer {
        var status: UInt32
        var body: JSONValue?
        var headers: [(String, String)] = []
    }

    private func next(_ step: String) -> UInt32? {
        guard var queue = faults[step], !queue.isEmpty else { return nil }
        let status = queue.removeFirst()
        faults[step] = queue
        return status == 0 ? nil : status
    }

    private func record(_ step: String, _ answer: Answer, cookie: Bool) -> Answer {
        log.append(["step": .string(step), "status": .number(Double(answer.status)), "cookie": .bool(cookie)])
        return answer
    }

    func create(body: [UInt8], cookie: Bool) -> Answer {
        if let fault = next("create") { return record("create", Answer(status: fault), cookie: cookie) }
        guard let request = (try? JSONParser.parse(bytes: body, maxDepth: 4))?.objectValue,
              let filename = request["filename"]?.stringValue, !filename.isEmpty,
              let mime = request["mimeType"]?.stringValue, let size = request["sizeBytes"]?.integerValue, size >= 0 else {
            return record("create", Answer(status: 400, body: ["error": "filename, mimeType and sizeBytes are required"]), cookie: cookie)
        }
        guard size <= maximumSizeBytes else { return record("create", Answer(status: 413), cookie: cookie) }
        guard mime.hasPrefix("image/") || mime.hasPrefix("video/") else { return record("create", Answer(status: 415), cookie: cookie) }
        guard assets.reduce(0, { $0 + $1.size }) + size <= quotaBytes else { return record("create", Answer(status: 507), cookie: cookie) }
        counter += 1
        let id = "up\(counter)"
        uploads[id] = Upload(filename: filename, mimeType: mime, size: size)
        return record("create", Answer(status: 201, body: ["data": ["id": .string(id), "offset": 0, "status": "open",
            "expiresAt": "2099-01-01T00:00:00Z", "uploadEndpoint": .string("/api/v1/uploads/\(id)"),
            "maximumSizeBytes": .number(Double(maximumSizeBytes))]]), cookie: cookie)
    }

    func patch(_ id: String, offset: Int?, body: UnsafeRawBufferPointer, cookie: Bool) -> Answer {
        guard var upload = uploads[id], upload.state == "open" else { return record("patch", Answer(status: 404), cookie: cookie) }
        if let fault = next("patch") { return record("patch", Answer(status: fault), cookie: cookie) }
        guard offset == upload.offset else {
            return record("patch", Answer(status: 409, headers: [("Upload-Offset", String(upload.offset))]), cookie: cookie)
        }
        guard upload.offset + body.count <= upload.size else { return record("patch", Answer(status: 413), cookie: cookie) }
        for byte in body { upload.checksum = (upload.checksum ^ UInt64(byte)) &* 0x100_0000_01b3 }
        upload.offset += body.count
        uploads[id] = upload
        return record("patch", Answer(status: 204, headers: [("Upload-Offset", String(upload.offset))]), cookie: cookie)
    }

    func head(_ id: String, cookie: Bool) -> Answer {
        guard let upload = uploads[id] else { return record("head", Answer(status: 404), cookie: cookie) }
        if let fault = next("head") { return record("head", Answer(status: fault), cookie: cookie) }
        return record("head", Answer(status: 200, headers: [("Upload-Offset", String(upload.offset)),
                                                           ("Upload-Length", String(upload.size)), ("Upload-Status", upload.state)]),
                      cookie: cookie)
    }

    func complete(_ id: String, cookie: Bool) -> Answer {
        guard var upload = uploads[id], upload.state == "open" else { return record("complete", Answer(status: 404), cookie: cookie) }
        if let fault = next("complete") { return record("complete", Answer(status: fault), cookie: cookie) }
        guard upload.offset == upload.size else { return record("complete", Answer(status: 409), cookie: cookie) }
        upload.state = "complete"
        uploads[id] = upload
        let asset = Asset(id: "asset-\(id)", filename: upload.filename, size: upload.size, checksum: upload.checksum)
        assets.append(asset)
        return record("complete", Answer(status: 200, body: ["data": ["id": .string(asset.id)]]), cookie: cookie)
    }

    func delete(_ id: String, cookie: Bool) -> Answer {
        guard var upload = uploads[id] else { return record("delete", Answer(status: 404), cookie: cookie) }
        upload.state = "cancelled"
        uploads[id] = upload
        deleted.append(id)
        return record("delete", Answer(status: 204), cookie: cookie)
    }

    func asset(_ id: String, cookie: Bool) -> Answer {
        guard let index = assets.firstIndex(where: { $0.id == id }) else { return record("asset", Answer(status: 404), cookie: cookie) }
        if let fault = next("asset") { return record("asset", Answer(status: fault), cookie: cookie) }
        assets[index].polls += 1
        let status = assets[index].polls >= 2 ? "ready" : "pending"
        return record("asset", Answer(status: 200, body: ["data": ["id": .string(id), "processingStatus": .string(status)]]), cookie: cookie)
    }

    /// The library as Studio lists it: only completed uploads.
    var libraryJSON: JSONValue {
        ["data": .array(assets.map { ["id": .string($0.id), "filename": .string($0.filename), "sizeBytes": .number(Double($0.size))] })]
    }

    var testJSON: JSONValue {
        ["requests": .array(log), "deleted": .array(deleted.map(JSONValue.string)),
         "assets": .array(assets.map { ["id": .string($0.id), "filename": .string($0.filename), "sizeBytes": .number(Double($0.size)),
                                        "checksum": .string(String($0.checksum, radix: 16))] }),
         "open": .array(uploads.filter { $0.value.state == "open" }.map { .string($0.key) })]
    }
}
