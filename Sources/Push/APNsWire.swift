/// How the stand-in's one port tells its clients apart, and what it writes on HTTP/1.1.
public enum APNsWire {
    /// HTTP/2's connection preface.
    public static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    public enum Kind: Sendable, Equatable {
        /// A TLS handshake: ALPN h2 over OpenSSL.
        case tls
        /// HTTP/2 with prior knowledge (h2c).
        case h2c
        case http1
        /// Not known yet: read more (the bytes so far are a proper prefix of the preface).
        case needMore
    }

    /// What a connection is, from the bytes it sent first (at most the preface's length).
    /// Decided as early as the bytes allow: a TLS record's first byte, and otherwise the first
    /// byte that differs from the preface, so a client that stops half way is never waited on
    /// with its bytes unread.
    public static func kind(of first: ArraySlice<UInt8>) -> Kind {
        guard let head = first.first else { return .needMore }
        if head == 0x16 { return .tls }
        for (offset, byte) in first.prefix(preface.count).enumerated() where byte != preface[offset] { return .http1 }
        return first.count >= preface.count ? .h2c : .needMore
    }

    /// One HTTP/1.1 response: status line, headers, `content-length`, `connection: close` when
    /// the connection ends after it, then the body — left out for a HEAD request, whose answer
    /// has none (RFC 9110 §9.3.2), its length still said.
    public static func http1Response(status: Int, headers: [(name: String, value: String)], body: [UInt8], close: Bool,
                                     toHead: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
        for header in headers { text += header.name + ": " + header.value + "\r\n" }
        text += "content-length: \(body.count)\r\n"
        if close { text += "connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8) + (toHead ? [] : body)
    }

    /// What a client that sent `expect: 100-continue` waits for before its body.
    public static let http1Continue = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The status line's words for the statuses the stand-in sends.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 410: return "Gone"
        case 413: return "Payload Too Large"
        case 417: return "Expectation Failed"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
