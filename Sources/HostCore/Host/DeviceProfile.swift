/// The device a window imitates: it decides the window's starting size (and so its starting
/// size class) and the user agent, the way the phone or tablet app would present the same
/// Studio. The layout then follows the window's width (`AdaptiveLayout`).
public enum DeviceProfile: String, Sendable, CaseIterable {
    case phone, tablet, desktop

    /// Phones start with tabs; wider devices with a grouped sidebar.
    public var usesTabs: Bool { self == .phone }

    /// The default window size in logical pixels.
    public var windowSize: (width: Int, height: Int) {
        switch self {
        case .phone: return (390, 844)
        case .tablet: return (1024, 768)
        case .desktop: return (1280, 800)
        }
    }

    /// The user agent the device's browser engine would send, so Studio's responsive layout sees
    /// what the phone or tablet app would. (Studio detects the host by its handler, never by UA.)
    public var userAgent: String {
        switch self {
        case .phone: return "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 HostShell/0.1"
        case .tablet: return "Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 HostShell/0.1"
        case .desktop: return "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) HostShell/0.1"
        }
    }

    /// How many primary destinations become tabs on a phone; the rest go under More.
    public static let maxTabs = 4
}
