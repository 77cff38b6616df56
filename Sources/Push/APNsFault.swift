/// A fault the stand-in injects (`--fault WHO=WHAT`): for one device token, for every push, or
/// for a share of pushes picked by a seeded generator — an answer with a reason (410
/// `Unregistered` with a timestamp, 429, 503, any reason of the contract) or a slow answer.
public struct APNsFault: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// One device token (hex, compared without case).
        case token(String)
        /// Every push.
        case every
        /// Each push with this probability, drawn from the stand-in's seeded generator.
        case random(Double)
    }
    public enum Effect: Sendable, Equatable {
        /// Answer with this reason (after the request was found valid).
        case answer(APNsReason)
        /// Answer as usual, this many milliseconds late.
        case delay(Int)
    }
    public let target: Target
    public let effect: Effect

    public init(target: Target, effect: Effect) {
        self.target = target
        self.effect = effect
    }

    public static let usage = """
        --fault WHO=WHAT: WHO is a device token (hex), "all", or "random:P" (P from 0 to 1, drawn \
        with --seed); WHAT is a reason (Unregistered, ExpiredToken, TooManyRequests, \
        ServiceUnavailable, … any reason of Apple's list), a status with one reason (410, 429, 500, \
        503), or "slow:MS" (answer MS milliseconds late, 0 to 60000)
        """

    /// Reads `WHO=WHAT`; the error says what is wrong.
    public static func parse(_ text: String) -> Result<APNsFault, APNsOptionError> {
        guard let equals = text.firstIndex(of: "=") else { return .failure(APNsOptionError("--fault \(text): expected WHO=WHAT. \(usage)")) }
        let who = String(text[..<equals]), what = String(text[text.index(after: equals)...])
        let target: Target
        if who == "all" || who == "*" {
            target = .every
        } else if who.hasPrefix("random:") {
            guard let share = Double(who.dropFirst("random:".count)), share >= 0, share <= 1 else {
                return .failure(APNsOptionError("--fault \(text): random:P takes a probability from 0 to 1, e.g. random:0.25"))
            }
            target = .random(share)
        } else if APNsDeviceToken.isWellFormed(who) {
            target = .token(who.lowercased())
        } else {
            return .failure(APNsOptionError("--fault \(text): \"\(who)\" is not a device token (an even number of hex digits, 64 to 200), all, or random:P"))
        }
        let effect: Effect
        if what.hasPrefix("slow:") {
            guard let ms = Int(what.dropFirst("slow:".count)), (0...60_000).contains(ms) else {
                return .failure(APNsOptionError("--fault \(text): slow:MS takes milliseconds from 0 to 60000"))
            }
            effect = .delay(ms)
        } else if let reason = APNsReason.named(what) {
            effect = .answer(reason)
        } else {
            return .failure(APNsOptionError("--fault \(text): \"\(what)\" is not a reason, a status with one reason (410, 429, 500, 503) or slow:MS"))
        }
        return .success(APNsFault(target: target, effect: effect))
    }
}

/// A bad option value: a sentence saying what is wrong and what to give instead.
public struct APNsOptionError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// Device tokens as the provider API takes them in the path.
public enum APNsDeviceToken {
    /// An even number of hex digits (either case), within `APNsLimits.deviceTokenHexDigits`.
    public static func isWellFormed(_ text: String) -> Bool {
        let count = text.utf8.count
        guard APNsLimits.deviceTokenHexDigits.contains(count), count % 2 == 0 else { return false }
        // Checked on every push: one pass over the bytes, no call per byte.
        func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var bad = false
            for byte in bytes {
                let lower = byte | 0x20
                bad = bad || !(byte &- 0x30 < 10 || lower &- 0x61 < 6)
            }
            return !bad
        }
        return text.utf8.withContiguousStorageIfAvailable(hex) ?? Array(text.utf8).withUnsafeBufferPointer(hex)
    }

    /// `text` with A–F in lower case, as tokens are compared (the same string when it has none).
    public static func lowercased(_ text: String) -> String {
        allBytes(text) { $0 < 0x41 || $0 > 0x5A } ? text : text.lowercased()
    }

    /// Whether every UTF-8 byte of `text` passes — over its contiguous bytes where it has them
    /// (a token is checked on every push).
    @inline(__always)
    static func allBytes(_ text: String, _ test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }
}

/// SplitMix64: a small seeded generator, so `random:P` faults repeat run after run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
