/// HTTP/1.1 requests read off one connection's bytes as they arrive, within limits: a head
/// (request line and headers) of at most `headBytes`, a body of at most `bodyBytes`, sent with
/// `content-length` or chunked. A body past its limit is reported as soon as that is known —
/// from `content-length` before any of it is read — so the rest is never read, let alone kept.
/// Holds at most the head, the body limit and what one read brought beyond them.
public struct HTTP1RequestReader: Sendable {
    public struct Head: Sendable {
        public var method: String
        /// The request target as sent (a path, for the stand-in).
        public var target: String
        /// Every header in order, names in lower case.
        public var headers: [(name: String, value: String)]
        /// Whether the connection stays open after the answer (HTTP/1.1 unless `connection: close`).
        public var keepAlive: Bool
    }

    public enum Step: Sendable {
        /// Nothing complete yet: feed more bytes.
        case needMore
        case request(Head, body: [UInt8])
        /// The body is longer than `bodyBytes`: answer now and close; `start` is what arrived of it.
        case bodyTooLarge(Head, start: [UInt8])
        /// Not a request this reader takes: answer `status` (400, 417, 431, 501 or 505) and close.
        case malformed(status: Int)
    }

    private enum State {
        case head
        case body(Head, remaining: Int)
        case chunkSize(Head)
        case chunkData(Head, remaining: Int)
        case chunkEnd(Head)
        case trailers(Head, used: Int)
        case failed
    }

    public let headBytes: Int
    public let bodyBytes: Int
    private var pending: [UInt8] = []
    private var start = 0
    private var body: [UInt8] = []
    private var state = State.head
    /// True once a head asked for `100 Continue` before its body (`expect: 100-continue`);
    /// `takeContinue` reads it and clears it.
    public private(set) var continueDue = false
    /// The longest chunk-size line taken (extensions included).
    static let chunkLineBytes = 1024

    public init(headBytes: Int = APNsLimits.headerListBytes, bodyBytes: Int = APNsLimits.requestBodyCap) {
        self.headBytes = headBytes
        self.bodyBytes = bodyBytes
    }

    /// Bytes not yet taken by a step (a pipelined request's, say).
    public var buffered: Int { pending.count - start }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start * 2 >= pending.count {
            pending.removeFirst(start)
            start = 0
        }
        pending.append(contentsOf: bytes)
    }

    public mutating func takeContinue() -> Bool {
        defer { continueDue = false }
        return continueDue
    }

    /// The next step over the bytes appended so far.
    public mutating func next() -> Step {
        while true {
            switch state {
            case .failed:
                return .needMore
            case .head:
                switch readHead() {
                case .none: return .needMore
                case .failure(let status): return fail(status)
                case .head(let head, let length, let chunked, let expects):
                    if chunked {
                        state = .chunkSize(head)
                    } else if length > bodyBytes {
                        return tooLarge(head)
                    } else if length == 0 {
                        return .request(head, body: [])
                    } else {
                        state = .body(head, remaining: length)
                    }
                    continueDue = expects
                }
            case .body(let head, let remaining):
                let count = min(remaining, pending.count - start)
                guard count > 0 else { return .needMore }
                body.append(contentsOf: pending[start..<(start + count)])
                start += count
                if remaining == count { return finish(head) }
                state = .body(head, remaining: remaining - count)
            case .chunkSize(let head):
                guard let line = readLine(limit: Self.chunkLineBytes) else { return pending.count - start > Self.chunkLineBytes ? fail(400) : .needMore }
                let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
                guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else { return fail(400) }
                if size == 0 {
                    state = .trailers(head, used: 0)
                } else if body.count + size > bodyBytes {
                    return tooLarge(head)
                } else {
                    state = .chunkData(head, remaining: size)
                }
            case .chunkData(let head, let remaining):
                let count = min(remaining, pending.count - start)
                guard count > 0 else { return .needMore }
                body.append(contentsOf: pending[start..<(start + count)])
                start += count
                state = remaining == count ? .chunkEnd(head) : .chunkData(head, remaining: remaining - count)
            case .chunkEnd(let head):
                guard pending.count - start >= 2 else { return .needMore }
                guard pending[start] == 13, pending[start + 1] == 10 else { return fail(400) }
                start += 2
                state = .chunkSize(head)
            case .trailers(let head, let used):
                guard let line = readLine(limit: headBytes - used) else { return pending.count - start > headBytes - used ? fail(431) : .needMore }
                if line.isEmpty { return finish(head) }
                state = .trailers(head, used: used + line.count + 2)
            }
        }
    }

    private mutating func finish(_ head: Head) -> Step {
        let complete = body
        body = []
        state = .head
        return .request(head, body: complete)
    }

    /// Refuses `head`'s body; what arrived of it so far (up to the limit) goes with the refusal.
    private mutating func tooLarge(_ head: Head) -> Step {
        if case .head = state {  // content-length said so: the body's first bytes may be here already
            let available = min(bodyBytes, pending.count - start)
            body.append(contentsOf: pending[start..<(start + available)])
            start += available
        }
        state = .failed
        continueDue = false
        return .bodyTooLarge(head, start: body)
    }

    private mutating func fail(_ status: Int) -> Step {
        state = .failed
        continueDue = false
        return .malformed(status: status)
    }

    /// One CRLF-ended line of at most `limit` bytes (without its CRLF), or nil when none is complete.
    private mutating func readLine(limit: Int) -> ArraySlice<UInt8>? {
        let end = min(pending.count, start + max(limit, 0) + 2)
        var index = start
        while index + 1 < end {
            if pending[index] == 13 && pending[index + 1] == 10 {
                let line = pending[start..<index]
                start = index + 2
                return line
            }
            index += 1
        }
        return nil
    }

    private enum HeadResult {
        case none
        case failure(Int)
        case head(Head, length: Int, chunked: Bool, expectsContinue: Bool)
    }

    private mutating func readHead() -> HeadResult {
        // Empty lines before a request line are ignored (RFC 9112 §2.2), a few of them.
        while pending.count - start >= 2, pending[start] == 13, pending[start + 1] == 10 { start += 2 }
        var lines: [ArraySlice<UInt8>] = []
        let mark = start
        while true {
            guard let line = readLine(limit: headBytes - (start - mark)) else {
                start = mark
                return pending.count - mark > headBytes ? .failure(431) : .none
            }
            if line.isEmpty { break }
            lines.append(line)
        }
        guard let requestLine = lines.first else { return .failure(400) }
        let words = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard words.count == 3, !words[0].isEmpty, !words[1].isEmpty, words[0].allSatisfy(Self.isTokenByte),
              words[1].allSatisfy({ $0 > 32 && $0 != 127 }) else { return .failure(400) }
        let version = String(decoding: words[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .failure(version.hasPrefix("HTTP/") ? 505 : 400) }
        var headers: [(name: String, value: String)] = []
        var length: Int?, chunked = false, close = version == "HTTP/1.0", expects = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(Self.isTokenByte) else { return .failure(400) }
            let rawValue = line[(colon + 1)...]
            guard !rawValue.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) else { return .failure(400) }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: rawValue, as: UTF8.self).trimmingOWS()
            headers.append((name, value))
            switch name {
            case "content-length":
                guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .failure(400) }
                let parsed = value.utf8.count > 15 ? Int.max : Int(value)!
                if let length, length != parsed { return .failure(400) }
                length = parsed
            case "transfer-encoding":
                guard value.lowercased() == "chunked", !chunked else { return .failure(501) }
                chunked = true
            case "connection":
                let tokens = value.lowercased().split(separator: ",").map { String($0).trimmingOWS() }
                if tokens.contains("close") { close = true } else if tokens.contains("keep-alive") { close = false }
            case "expect":
                guard value.lowercased() == "100-continue" else { return .failure(417) }
                expects = version == "HTTP/1.1"
            default: continue
            }
        }
        if chunked && length != nil { return .failure(400) }  // both: a smuggling attempt as often as not
        let head = Head(method: String(decoding: words[0], as: UTF8.self), target: String(decoding: words[1], as: UTF8.self),
                        headers: headers, keepAlive: !close)
        let bodyLength = length ?? 0
        return .head(head, length: bodyLength, chunked: chunked,
                     expectsContinue: expects && (chunked || (bodyLength > 0 && bodyLength <= bodyBytes)))
    }

    /// tchar (RFC 9110 §5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension String {
    /// Without the spaces and tabs HTTP allows around a field value.
    func trimmingOWS() -> String {
        let bytes = Array(utf8)
        var lower = 0, upper = bytes.count
        while lower < upper, bytes[lower] == 32 || bytes[lower] == 9 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 32 || bytes[upper - 1] == 9 { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
