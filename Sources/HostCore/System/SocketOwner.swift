/// Who made the other end of a loopback TCP connection, from the kernel's socket tables
/// (`/proc/net/tcp`, `/proc/net/tcp6`): the row whose local end is the peer and whose remote
/// end is us carries the uid that created the peer's socket. TCP has no peer credentials, so
/// this is how a listener that must serve only its own user (the remote inspector WebDriver
/// needs) tells who is calling. Pure: the tables' text comes in.
public enum SocketOwner {
    /// One end of a connection: an IPv4 or IPv6 address as text, and a port.
    public struct Endpoint: Sendable, Equatable {
        public var address: String
        public var port: Int
        public init(_ address: String, _ port: Int) { self.address = address; self.port = port }
    }

    /// The uid of the socket at `peer` connected to `local`, read from the tables' `text`
    /// (both files one after the other is fine); nil when no row matches — the caller then
    /// refuses, as it cannot tell.
    public static func uid(peer: Endpoint, local: Endpoint, tables text: String) -> UInt32? {
        guard let peerKey = key(peer), let localKey = key(local) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid …
            guard fields.count > 7, fields[1].uppercased() == peerKey, fields[2].uppercased() == localKey else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    /// How the tables write an endpoint: the address's 32-bit words in the machine's byte order
    /// (little-endian here) as hex, a colon, the port as 4 hex digits.
    static func key(_ endpoint: Endpoint) -> String? {
        guard (0...65535).contains(endpoint.port), let bytes = addressBytes(endpoint.address) else { return nil }
        var text = ""
        for word in stride(from: 0, to: bytes.count, by: 4) {
            for byte in bytes[word..<word + 4].reversed() { text += hex(byte, digits: 2) }
        }
        return text + ":" + hex(endpoint.port, digits: 4)
    }

    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6 (`::` shortening and a
    /// trailing dotted IPv4 part allowed).
    static func addressBytes(_ text: String) -> [UInt8]? {
        if !text.contains(":") { return ipv4(Substring(text)) }
        var head: [UInt8] = [], tail: [UInt8] = []
        // Split at "::" (at most once), without Foundation.
        let scalars = Array(text.utf8)
        var halves: [String] = []
        var start = 0, at = 0
        while at < scalars.count {
            if at + 1 < scalars.count, scalars[at] == UInt8(ascii: ":"), scalars[at + 1] == UInt8(ascii: ":") {
                halves.append(String(decoding: scalars[start..<at], as: UTF8.self))
                at += 2
                start = at
            } else {
                at += 1
            }
        }
        halves.append(String(decoding: scalars[start...], as: UTF8.self))
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var out: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    guard let v4 = ipv4(piece) else { return nil }
                    out += v4
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    out += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return out
        }
        guard let first = groups(halves[0]) else { return nil }
        head = first
        if halves.count == 2 {
            guard let second = groups(halves[1]), head.count + second.count < 16 else { return nil }
            tail = second
            return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
        }
        return head.count == 16 ? head : nil
    }

    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    private static func hex<T: BinaryInteger>(_ value: T, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Where the remote inspector may listen (`WEBKIT_INSPECTOR_SERVER`, as WebKitWebDriver sets
/// it): a loopback address and a port that is not 0. Anything else is refused: HostShell never
/// opens its pages' inspector to the network.
public enum InspectorAddress {
    /// The endpoint `text` names, or why it is refused.
    public static func parse(_ text: String) -> Result<SocketOwner.Endpoint, ControlError> {
        var host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(ControlError("\(text) is not [ADDRESS]:PORT"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return .failure(ControlError("\(text) is not ADDRESS:PORT")) }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = Int(port), (1...65535).contains(number) else {
            return .failure(ControlError("\(text): the port must be a number from 1 to 65535"))
        }
        guard let bytes = SocketOwner.addressBytes(String(host)) else { return .failure(ControlError("\(text): \(host) is not an IP address")) }
        let loopback = bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
        guard loopback else { return .failure(ControlError("\(text) is not a loopback address; the inspector never listens beyond this machine")) }
        return .success(SocketOwner.Endpoint(String(host), number))
    }
}
