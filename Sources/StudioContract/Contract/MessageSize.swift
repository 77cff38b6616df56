import HostCore

extension BridgeMessageSize {
    /// The failure a message over the limit gets.
    public static func failure(bytes: Int) -> BridgeFailure {
        BridgeFailure(.malformed, reason: "the message is \(bytes) bytes; at most \(maxBytes) are accepted")
    }
}
