/// The numbers Apple's provider API enforces (push CONTRACT §1; Apple's "Sending notification
/// requests to APNs" and "Establishing a token-based connection to APNs"), and the stand-in's own
/// bounds on what a client may hold of it (docs/push-servers.md says why each is what it is).
public enum APNsLimits {
    /// The largest payload of every push type but VoIP, in bytes.
    public static let payloadBytes = 4096
    /// The largest VoIP payload, in bytes.
    public static let voipPayloadBytes = 5120
    /// The longest `apns-collapse-id`, in bytes.
    public static let collapseIDBytes = 64
    /// A provider token older than this (seconds since its `iat`) is `ExpiredProviderToken`.
    public static let providerTokenLifetime = 3600.0
    /// A new provider token for a key sooner than this after the last new one is
    /// `TooManyProviderTokenUpdates` (Apple: refresh no more than once every 20 minutes).
    public static let providerTokenUpdateInterval = 1200.0
    /// An `iat` further than this in the future is not a token Apple accepts (the stand-in's
    /// allowance for clocks that differ a little).
    public static let providerTokenClockSkew = 60.0
    /// Device tokens are hex; 32 bytes today (64 digits). Apple says their length may change, so
    /// the stand-in takes an even number of hex digits in this range.
    public static let deviceTokenHexDigits = 64...200
    /// How much of a request body the stand-in reads: one byte more than the largest payload, so
    /// a longer body is `PayloadTooLarge` — answered as soon as that byte arrives, on every HTTP
    /// version, and the rest is never read.
    public static let requestBodyCap = voipPayloadBytes + 1
    /// How many devices the stand-in remembers from their pushes (not the ones it was given);
    /// past it, the one learned longest ago is forgotten, so a flood of random tokens cannot grow
    /// it without end. A forgotten token's next push is taken as a first one.
    public static let learnedDevices = 100_000

    // The stand-in's bounds on one client (Apple documents none of these numbers: "don't assume
    // a specific number of streams"; these are far above what a provider's sender uses).

    /// The largest header list of one request, counted as HTTP/2 counts it (each field's name
    /// and value bytes plus 32): advertised as SETTINGS_MAX_HEADER_LIST_SIZE; a longer list
    /// resets its stream (HTTP/2) or is answered 431 and closed (HTTP/1.1). A provider's request
    /// is under 1 KiB.
    public static let headerListBytes = 8192
    /// Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS);
    /// nghttp2 refuses more (RST_STREAM REFUSED_STREAM). RFC 9113 advises no fewer than 100.
    public static let concurrentStreams = 100
    /// Connections one listener keeps at once, all HTTP versions and ones still being told
    /// apart; past it a new connection is closed as soon as it is accepted.
    public static let connectionsPerListener = 64
    /// Answers an HTTP/2 connection may have waiting for its client to read them, in bytes: past
    /// it the stand-in reads no more from that client until it has read them.
    public static let unsentBytes = 256 * 1024
    /// When the process is out of descriptors, the listener looks again after this many ms
    /// (rather than being woken for the same waiting connection without end).
    public static let acceptRetryMs: UInt32 = 100
    /// After refusing a request on HTTP/1.1 and closing its sending side, the stand-in reads and
    /// drops at most this many more bytes, for at most `lingerMs`, so the client reads the
    /// answer before the connection goes (closing on unread bytes would reset it).
    public static let lingerBytes = 256 * 1024
    public static let lingerMs: UInt32 = 1000

    /// The size HTTP/2 counts for one header field (RFC 9113 §6.5.2).
    public static func headerFieldSize(nameBytes: Int, valueBytes: Int) -> Int { nameBytes + valueBytes + 32 }
}

/// A header list's size as it arrives, field by field, against `APNsLimits.headerListBytes`.
public struct HeaderListBudget: Sendable, Equatable {
    public private(set) var used = 0
    public let limit: Int
    public init(limit: Int = APNsLimits.headerListBytes) { self.limit = limit }

    /// Counts one field; false once the list is over its limit (and from then on).
    public mutating func take(nameBytes: Int, valueBytes: Int) -> Bool {
        used += APNsLimits.headerFieldSize(nameBytes: nameBytes, valueBytes: valueBytes)
        return used <= limit
    }
}
