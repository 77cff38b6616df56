/// How large one bridge message may be (README "Limits"). The contract names no size; this
/// host sets one so that no page can make it hold, decode or log an unbounded message. The
/// largest message the contract allows (a full catalog: 128 destinations with 128-scalar ids
/// and 200-scalar titles) is under 200 KiB; the limit leaves five times that.
public enum BridgeMessageSize {
    /// The most a message's JSON text (as `JSON.stringify` writes it) may take, in UTF-8 bytes.
    /// A longer one is refused as `malformed`, without an id: the page shim and the
    /// isolated-world relay refuse it before it is copied across, and the host again.
    public static let maxBytes = 1 << 20

    /// Whether `text` is over the limit. Cheap: a native Swift string knows its UTF-8 length.
    public static func exceeds(_ text: String) -> Bool { text.utf8.count > maxBytes }
}
