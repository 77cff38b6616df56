/// `apns-push-type`: the kinds Apple knows, and the topic each one must be sent to — the app's
/// bundle id, with a suffix for some.
public enum APNsPushType: String, CaseIterable, Sendable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets

    /// The suffix the `apns-topic` must end with; nil when the topic is the bundle id itself.
    /// (`mdm` topics come from the MDM certificate: any topic.)
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .location: return ".location-query"
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        }
    }

    /// The payload limit for this type.
    public var payloadLimit: Int { self == .voip ? APNsLimits.voipPayloadBytes : APNsLimits.payloadBytes }

    /// Which `apns-priority` values the type allows: background pushes must be 5 ("using 10 is
    /// an error"); the others take 10, 5 or 1.
    public func allows(priority: Int) -> Bool {
        switch self {
        case .background: return priority == 5 || priority == 1
        default: return priority == 10 || priority == 5 || priority == 1
        }
    }

    /// The bundle id a topic names for this type (the topic without its suffix), or nil when the
    /// topic does not end with the suffix the type needs.
    public func bundleID(ofTopic topic: String) -> String? {
        guard let suffix = topicSuffix else { return topic }
        guard topic.hasSuffix(suffix), topic.utf8.count > suffix.utf8.count else { return nil }
        return String(topic.dropLast(suffix.count))
    }

    /// Whether `topic` is shaped like a bundle id (reverse-DNS words of letters, digits, `-` and
    /// `_`, separated by single dots).
    public static func isWellFormed(topic: String) -> Bool {
        var words = 1, wordLength = 0
        for byte in topic.utf8 {
            if byte == UInt8(ascii: ".") {
                guard wordLength > 0 else { return false }
                words += 1
                wordLength = 0
                continue
            }
            guard (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
            wordLength += 1
        }
        return words >= 2 && wordLength > 0
    }
}
