import CGtk
import HostCore
import ShellKit

/// The reference server's upload and media routes: the resumable upload protocol (bearer
/// credential only), asset polling, Studio's library list, a plain browser upload for Studio
/// without a native host, and `/__test/…` routes to inject faults and read what happened.
extension FixtureServer {
    func handleUploads(_ message: OpaquePointer, path: String, method: String) -> Bool {
        let cookie = requestHeader(message, "Cookie") != nil
        let segments = path.split(separator: "/").map(String.init)
        let route = segments.joined(separator: "/")
        switch (method, route) {
        case ("POST", "__test/upload-faults"):
            if let object = (try? JSONParser.parse(bytes: requestBody(message), maxDepth: 4))?.objectValue {
                for member in object.members {
                    uploads.faults[member.key] = (member.value.arrayValue ?? []).compactMap { $0.integerValue.map(UInt32.init) }
                }
            }
            reply(message, status: 204, type: "text/plain", body: [])
            return true
        case ("GET", "__test/uploads"):
            reply(message, status: 200, type: "application/json", body: JSONWriter.bytes(uploads.testJSON))
            return true
        case ("GET", "api/v1/assets"):
            let signedIn = !auth.options.requireSignIn || auth.hasSession(cookieHeader: requestHeader(message, "Cookie"))
            reply(message, status: signedIn ? 200 : 401, type: "application/json",
                  body: JSONWriter.bytes(signedIn ? uploads.libraryJSON : ["error": "not signed in"]))
            return true
        case ("POST", "api/v1/media"):
            // Studio's own browser uploader (no native host): the body is the file.
            let name = FormEncoding.items(soup_server_message_get_uri(message).flatMap { g_uri_get_query($0) }.map { String(cString: $0) } ?? "")
                .first { $0.name == "filename" }?.value ?? "upload"
            let body = requestBody(message)
            let created = uploads.create(body: JSONWriter.bytes(["filename": .string(name), "mimeType": "image/png", "sizeBytes": .number(Double(body.count))]), cookie: cookie)
            if created.status == 201, let id = created.body?.objectValue?["data"]?.objectValue?["id"]?.stringValue {
                _ = body.withUnsafeBytes { uploads.patch(id, offset: 0, body: $0, cookie: cookie) }
                _ = uploads.complete(id, cookie: cookie)
            }
            reply(message, status: created.status, type: "application/json", body: JSONWriter.bytes(["ok": .bool(created.status == 201)]))
            return true
        default:
            break
        }
        guard segments.count >= 3, segments[0] == "api", segments[1] == "v1", segments[2] == "uploads" || segments[2] == "assets" else {
            return false
        }
        // The native protocol: the app's bearer credential, nothing else.
        guard auth.bearerIsValid(requestHeader(message, "Authorization"), now: wallClockSeconds()) else {
            reply(message, status: 401, type: "application/json", body: JSONWriter.bytes(["error": "a valid bearer credential is required"]))
            return true
        }
        let answer: ReferenceUploads.Answer
        let rest = Array(segments.dropFirst(2))
        let id = rest.count >= 2 ? rest[1] : ""
        switch (method, rest.count, rest.first ?? "", rest.last ?? "") {
        case ("POST", 1, "uploads", _): answer = uploads.create(body: requestBody(message), cookie: cookie)
        case ("PATCH", 2, "uploads", _):
            let offset = requestHeader(message, "Upload-Offset").flatMap { Int($0) }
            let body = soup_server_message_get_request_body(message)
            let count = Int(body?.pointee.length ?? 0)
            let raw = UnsafeRawBufferPointer(start: count > 0 ? body?.pointee.data : nil, count: count)
            answer = uploads.patch(id, offset: offset, body: raw, cookie: cookie)
        case ("HEAD", 2, "uploads", _): answer = uploads.head(id, cookie: cookie)
        case ("POST", 3, "uploads", "complete"): answer = uploads.complete(id, cookie: cookie)
        case ("DELETE", 2, "uploads", _): answer = uploads.delete(id, cookie: cookie)
        case ("GET", 2, "assets", _): answer = uploads.asset(id, cookie: cookie)
        default: answer = ReferenceUploads.Answer(status: 405)
        }
        let headers = soup_server_message_get_response_headers(message)
        for (name, value) in answer.headers { soup_message_headers_replace(headers, name, value) }
        reply(message, status: answer.status, type: "application/json", body: answer.body.map { JSONWriter.bytes($0) } ?? [])
        return true
    }
}
