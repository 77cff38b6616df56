/// The numbers Apple's provider API enforces (push CONTRACT §1; Apple's "Sending notification
/// requests to APNs" and "Establishing a token-based connection to APNs").
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
    /// The stand-in's cap on a request body it reads at all (far above any payload limit).
    public static let requestBodyCap = 64 * 1024
    /// How many devices the stand-in remembers from their pushes (not the ones it was given);
    /// past it, the one learned longest ago is forgotten, so a flood of random tokens cannot grow
    /// it without end. A forgotten token's next push is taken as a first one.
    public static let learnedDevices = 100_000
}
